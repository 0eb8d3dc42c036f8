import { fileURLToPath } from 'node:url';
import { anamnesis, ORT_DIST } from '@anamnesis/client/vite';
import { defineConfig } from 'vite';
import { thirdPartyNotices } from '../extension/notices.ts';
import { serviceWorker } from './pwa.ts';

const port = Number(process.env.PORT ?? 5173);
/** THIRD-PARTY-NOTICES.txt in `dist/` (precached like every file), from the modules of the build. */
const notices = thirdPartyNotices({ product: 'the anamnesis notes app', ortDir: ORT_DIST });
const sw = serviceWorker();

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Serves and emits the default model and ONNX Runtime's wasm files, from the app's own origin:
  // both builds, for the person who picks ONNX Runtime (wasm) or WebGPU in the Model panel; the
  // service worker precaches neither (see sw-files.ts). SQLite3 Multiple Ciphers' build, for notes
  // locked with a passphrase, is fetched when they are first locked (see sw-files.ts too). No
  // `preload` of SQLite's wasm: the worker cannot take a page's preload, and from a server without
  // ETag or Last-Modified it would then download the wasm a second time (the worker starts loading
  // it as soon as it starts).
  plugins: [
    anamnesis({ ortBuilds: ['plain', 'asyncify'], encryption: true }),
    notices.write,
    sw.write,
  ],
  appType: 'spa',
  worker: { format: 'es', plugins: () => [notices.collect, sw.collect] },
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
