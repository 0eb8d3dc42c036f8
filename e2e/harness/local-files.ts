/**
 * The test app's file routes: `anamnesis()` from `@anamnesis/client/vite` (the plugin apps use)
 * serves and emits the default model under `/models/` and ONNX Runtime's wasm files under
 * `/ort/`; {@link brokenModels} adds broken copies of the model for error tests:
 * `/broken/<missing|corrupt>/<file, with / as ~>/…` is the model folder with that one file
 * missing (404) or replaced by junk bytes, and `/alias/anamnesis/<any name>/…` is the default
 * model under another id (the same files: a store written with one model id opened with another,
 * to test re-embedding). A file that does not exist is a 404, never the app's
 * index.html.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statSync } from 'node:fs';

import { contentType, fileIn, MODEL_ROOT, notFound, sendFile } from '@anamnesis/client/vite';
import { MODEL_ID } from '@anamnesis/model-default';
import type { Plugin } from 'vite';

export { MODEL_ROOT };

/** Junk bytes for a "corrupt" file: fixed, so runs are repeatable. */
function junk(size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const alias = /^\/alias\/anamnesis\/[\w.-]+\/(.+)$/.exec(path);
  if (alias) {
    const file = fileIn(MODEL_ROOT, `${MODEL_ID}/${alias[1]!}`);
    if (file) sendFile(res, file, 'no-store');
    else notFound(res, path);
    return;
  }
  const broken = /^\/broken\/(missing|corrupt)\/([^/]+)\/(.+)$/.exec(path);
  if (!broken) {
    next();
    return;
  }
  const [, mode, target, rest] = broken as unknown as [string, string, string, string];
  const file = fileIn(MODEL_ROOT, rest);
  const victim = rest.endsWith(`/${decodeURIComponent(target).replaceAll('~', '/')}`);
  if (!file || (victim && mode === 'missing')) {
    notFound(res, path);
    return;
  }
  if (victim) {
    res.statusCode = 200;
    res.setHeader('Content-Type', contentType(file));
    res.setHeader('Cache-Control', 'no-store');
    return void res.end(junk(Math.min(statSync(file).size, 4096)));
  }
  sendFile(res, file, 'no-store');
}

/** Broken copies of the default model (dev server and `vite preview`). */
export function brokenModels(): Plugin {
  return {
    name: 'anamnesis-broken-models',
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
