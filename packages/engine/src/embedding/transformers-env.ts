/**
 * Where the transformers.js embedder runs: Node or a browser, whether WebGPU is there, where ONNX
 * Runtime's files and the model's files come from.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { DeviceSelection, TransformersEmbedderOptions } from './embedder.ts';

/** A device a model is loaded on. */
export type Device = DeviceSelection['device'];

/** True in Node. */
export function isNode(): boolean {
  return typeof process !== 'undefined' && !!process.versions?.node;
}

/**
 * Outside Node: `wasmPaths` must be given, as a folder URL or `{ mjs, wasm }` file URLs (see
 * {@link TransformersEmbedderOptions.wasmPaths}); anything else is `INVALID_INPUT`.
 */
export function checkWasmPaths(wasmPaths: unknown): void {
  const valid =
    (typeof wasmPaths === 'string' && wasmPaths.length > 0) ||
    (wasmPaths !== null &&
      typeof wasmPaths === 'object' &&
      typeof (wasmPaths as { mjs?: unknown }).mjs === 'string' &&
      typeof (wasmPaths as { wasm?: unknown }).wasm === 'string');
  if (valid) return;
  throw new AnamnesisError(
    'INVALID_INPUT',
    (wasmPaths === undefined ? 'wasmPaths is required outside Node' : 'wasmPaths is not valid') +
      ": set it to the URL of a folder your app serves ONNX Runtime Web's files from (e.g. " +
      "'/ort/', as the Vite plugin of @anamnesis/client/vite does) or to { mjs, wasm } file URLs; " +
      'without it ONNX Runtime would be loaded from a CDN, which anamnesis never does',
    { details: { option: 'wasmPaths' } },
  );
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * True unless `wasmPaths` names a wasm-only ONNX Runtime build (the plain
 * `ort-wasm-simd-threaded.mjs`): WebGPU needs the asyncify (or JSEP/JSPI) build.
 */
export function runtimeHasWebGpu(wasmPaths: TransformersEmbedderOptions['wasmPaths']): boolean {
  if (wasmPaths === undefined || typeof wasmPaths === 'string') return true;
  return /\.(asyncify|jsep|jspi)\.mjs(\?|#|$)/.test(wasmPaths.mjs);
}

/** True when `navigator.gpu.requestAdapter()` gives an adapter (checked before any WebGPU session). */
export async function hasWebGpu(): Promise<boolean> {
  const nav = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } })
    .navigator;
  const gpu = nav?.gpu;
  if (!gpu) return false;
  try {
    return (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}

/**
 * The local model root as transformers.js needs it. transformers.js 4.3.1 treats an absolute
 * `http(s):` local root as remote when it checks which files exist, and then silently loads no
 * tokenizer; a path on the page's origin (`/models/`) works. So a same-origin URL becomes its path,
 * and another origin is refused (serve such models through `remoteHost`).
 */
export function localRoot(root: string): string {
  if (!/^https?:/i.test(root)) return root;
  const here = (globalThis as { location?: { origin: string } }).location?.origin;
  const url = new URL(root);
  if (here !== undefined && url.origin === here) return url.pathname;
  throw new AnamnesisError(
    'INVALID_INPUT',
    `localModelPath ${root} is on another origin: use remoteHost for models served elsewhere`,
  );
}
