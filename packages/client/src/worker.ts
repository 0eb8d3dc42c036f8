/**
 * The dedicated module worker that hosts the engine: the client starts it with
 * `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`, so a bundler that
 * understands that pattern (Vite) bundles it with its imports. It exposes {@link createWorkerApi}
 * through Comlink, every answer a plain `Reply` (see `wire.ts`).
 */
import * as Comlink from 'comlink';

import { answering, createWorkerApi } from './worker-api.ts';

Comlink.expose(answering(createWorkerApi()));
