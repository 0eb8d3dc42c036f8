import { fileURLToPath } from 'node:url';

import { anamnesis } from '@anamnesis/client/vite';
import { defineConfig } from 'vite';

/** Port of the dev server and of `vite preview`; `EXAMPLE_PORT` overrides it (the browser tests do). */
const port = Number(process.env.EXAMPLE_PORT ?? 5174);

export default defineConfig({
  // Serves and emits the default model (no ONNX Runtime: it runs in plain JavaScript); keeps
  // sqlite3.wasm loadable.
  plugins: [anamnesis()],
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    // Three pages: the smallest app (index.html), a chat on @anamnesis/langchain (chat.html) and
    // an assistant whose memory stays current, with a memory panel (assistant.html).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        chat: fileURLToPath(new URL('chat.html', import.meta.url)),
        assistant: fileURLToPath(new URL('assistant.html', import.meta.url)),
      },
    },
  },
  server: { port, strictPort: true, host: '127.0.0.1' },
  preview: { port, strictPort: true, host: '127.0.0.1' },
});
