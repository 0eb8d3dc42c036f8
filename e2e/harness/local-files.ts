/**
 * A Vite plugin (dev server and `vite preview`) that serves, from the app's own origin:
 *
 * - `/models/…`: the default model files of `@anamnesis/model-default` (its `model/` folder);
 * - `/ort/…`: ONNX Runtime's wasm files, from the exact onnxruntime-web that
 *   `@huggingface/transformers` depends on (so no CDN is ever needed);
 * - `/broken/<missing|corrupt>/<file, with / as ~>/…`: the model folder with one file missing
 *   (404) or replaced by junk bytes, for error tests.
 *
 * A file that does not exist is a 404, never Vite's index.html fallback (transformers.js would
 * cache that page as a model file).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';

import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** Folder holding `<model id>/…` of the default model. */
export const MODEL_ROOT = join(
  dirname(require.resolve('@anamnesis/model-default/package.json')),
  'model',
);

/** onnxruntime-web's `dist/` folder, resolved from transformers.js's own dependency. */
export const ORT_DIST = (() => {
  const transformersEntry = require.resolve('@huggingface/transformers');
  const fromTransformers = createRequire(transformersEntry);
  const dist = dirname(
    fromTransformers.resolve('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm'),
  );
  // The pin must match: transformers.js passes its own version's wasm API to these files.
  const pkg = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  let root = dirname(transformersEntry);
  while (!existsSync(join(root, 'package.json'))) root = dirname(root);
  const wanted = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies['onnxruntime-web'];
  if (wanted !== pkg.version) {
    throw new Error(`onnxruntime-web ${pkg.version} found, transformers.js wants ${wanted}`);
  }
  return dist;
})();

/**
 * The ONNX Runtime files a worker may need: the asyncify build (wasm and WebGPU, 27 MB; what
 * transformers.js picks for a folder `wasmPaths`) and the plain build (wasm only, 14 MB; about half
 * the start-up time, for workers that will not use WebGPU).
 */
export const ORT_FILES = [
  'ort-wasm-simd-threaded.asyncify.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
] as const;

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript',
};

function contentType(path: string): string {
  const dot = path.lastIndexOf('.');
  return TYPES[path.slice(dot)] ?? 'application/octet-stream';
}

/** Resolves `rel` inside `root`, or undefined when it escapes `root` or is not a file. */
function fileIn(root: string, rel: string): string | undefined {
  const path = normalize(join(root, decodeURIComponent(rel)));
  if (!path.startsWith(root + sep)) return undefined;
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
}

function send(res: ServerResponse, path: string, cache: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType(path));
  res.setHeader('Content-Length', statSync(path).size);
  res.setHeader('Cache-Control', cache);
  createReadStream(path).pipe(res);
}

function notFound(res: ServerResponse, what: string): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`not found: ${what}`);
}

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
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const cache = 'public, max-age=3600';
  if (path.startsWith('/models/')) {
    const file = fileIn(MODEL_ROOT, path.slice('/models/'.length));
    return file ? send(res, file, cache) : notFound(res, path);
  }
  if (path.startsWith('/ort/')) {
    const name = path.slice('/ort/'.length);
    const file = (ORT_FILES as readonly string[]).includes(name)
      ? fileIn(ORT_DIST, name)
      : undefined;
    return file ? send(res, file, cache) : notFound(res, path);
  }
  const broken = /^\/broken\/(missing|corrupt)\/([^/]+)\/(.+)$/.exec(path);
  if (broken) {
    const [, mode, target, rest] = broken as unknown as [string, string, string, string];
    const file = fileIn(MODEL_ROOT, rest);
    const victim = rest.endsWith(`/${decodeURIComponent(target).replaceAll('~', '/')}`);
    if (!file || (victim && mode === 'missing')) return notFound(res, path);
    if (victim) {
      res.statusCode = 200;
      res.setHeader('Content-Type', contentType(file));
      res.setHeader('Cache-Control', 'no-store');
      return void res.end(junk(Math.min(statSync(file).size, 4096)));
    }
    return send(res, file, 'no-store');
  }
  next();
}

/** The plugin: registers {@link handle} on the dev server and on `vite preview`. */
export function localFiles(): Plugin {
  return {
    name: 'anamnesis-local-files',
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
