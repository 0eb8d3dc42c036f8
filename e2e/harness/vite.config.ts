import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

import { localFiles } from './local-files.ts';
import { HARNESS_PORT } from './port.ts';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // 'mpa': no index.html fallback for unknown paths (they are 404s).
  appType: 'mpa',
  plugins: [localFiles()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
  },
  server: { port: HARNESS_PORT, strictPort: true, host: '127.0.0.1' },
  preview: { port: HARNESS_PORT, strictPort: true, host: '127.0.0.1' },
});
