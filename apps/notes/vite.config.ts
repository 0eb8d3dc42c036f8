import { fileURLToPath } from 'node:url';
import { anamnesis } from '@anamnesis/client/vite';
import { defineConfig } from 'vite';
import { serviceWorker } from './pwa.ts';

const port = Number(process.env.PORT ?? 5173);

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Serves and emits the default model and ONNX Runtime's wasm files, from the app's own origin.
  plugins: [anamnesis(), serviceWorker()],
  appType: 'spa',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    reportCompressedSize: false,
  },
  server: { port, strictPort: true, host: '127.0.0.1' },
  preview: { port, strictPort: true, host: '127.0.0.1' },
});
