import { anamnesis } from '@anamnesis/client/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Port of the dev server and of `vite preview`; `REACT_EXAMPLE_PORT` overrides it. */
const port = Number(process.env.REACT_EXAMPLE_PORT ?? 5175);

export default defineConfig({
  // anamnesis(): serves and emits the default model and keeps sqlite3.wasm loadable.
  plugins: [react(), anamnesis()],
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  server: { port, strictPort: true, host: '127.0.0.1' },
  preview: { port, strictPort: true, host: '127.0.0.1' },
});
