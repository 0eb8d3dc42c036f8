import { fileURLToPath } from 'node:url';

import { anamnesis } from '@anamnesis/client/vite';
import { defineConfig } from 'vite';

import { brokenModels } from './local-files.ts';
import { HARNESS_PORT } from './port.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  // 'mpa': no index.html fallback for unknown paths (they are 404s).
  appType: 'mpa',
  // Both ONNX Runtime builds: the embedder and client tests run ONNX models on wasm and WebGPU;
  // SQLite3 Multiple Ciphers for the encrypted stores' tests.
  plugins: [anamnesis({ ortBuilds: ['plain', 'asyncify'], encryption: true }), brokenModels()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // index.html: the embedder harness; client.html: @anamnesis/client (openMemory) for tests;
      // adapters.html: @anamnesis/langchain over openMemory.
      input: {
        index: `${root}index.html`,
        client: `${root}client.html`,
        adapters: `${root}adapters.html`,
      },
    },
  },
  server: { port: HARNESS_PORT, strictPort: true, host: '127.0.0.1' },
  preview: { port: HARNESS_PORT, strictPort: true, host: '127.0.0.1' },
});
