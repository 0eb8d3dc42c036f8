/**
 * The dedicated module worker that hosts the engine: the client starts it with
 * `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`, so a bundler that
 * understands that pattern (Vite) bundles it with its imports. It exposes {@link createWorkerApi}
 * through Comlink, every answer a plain `Reply` (see `wire.ts`).
 */
import { loadSqlite, warmUpQueryReading } from '@anamnesis/engine';
import * as Comlink from 'comlink';

import { answering, createWorkerApi } from './worker-api.ts';

Comlink.expose(answering(createWorkerApi()));
// SQLite-WASM downloads and compiles while the tab still decides whether this worker opens its
// store (the tab starts it before it has the store's lock); an open reports a failed load.
void loadSqlite().catch(() => undefined);
// The query path's expressions compiled meanwhile too, in the time the worker waits for the open.
setTimeout(warmUpQueryReading, 0);
