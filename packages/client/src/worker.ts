/**
 * The dedicated module worker that hosts the engine: `openMemory` starts it with
 * `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`, so a bundler that
 * understands that pattern (Vite) bundles it with its imports. It exposes {@link createWorkerApi}
 * through Comlink, with the error handler that keeps `AnamnesisError` codes.
 */
import * as Comlink from 'comlink';

import { registerErrorTransfer } from './wire.ts';
import { createWorkerApi } from './worker-api.ts';

registerErrorTransfer();
Comlink.expose(createWorkerApi());
