/** Messages between the test page and its embedder worker (plain postMessage, no Comlink). */
import type { DeviceSelection, EmbedderDevice } from '@anamnesis/engine';

/** Options of a model load in the worker. */
export interface LoadOptions {
  device: EmbedderDevice;
  /** Model root URL (default `/models/`). */
  modelRoot?: string;
  /** Model id (default: the default model's). */
  model?: string;
  /**
   * ONNX Runtime build: `'asyncify'` (default; wasm and WebGPU; `wasmPaths` is the `/ort/` folder)
   * or `'plain'` (wasm only, smaller and faster to start; `wasmPaths` names its two files), or
   * `'none'` (no `wasmPaths` at all).
   */
  runtime?: 'asyncify' | 'plain' | 'none';
  /**
   * Test only: make ONNX Runtime's own `requestAdapter()` calls return null while ours still sees
   * an adapter, so that WebGPU session creation fails after the adapter check.
   */
  breakWebGpu?: boolean;
}

/** What a load reports. */
export interface LoadResult {
  device: string;
  dims: number;
  selection: DeviceSelection | undefined;
  /** Milliseconds in `createTransformersEmbedder` (inside the worker). */
  loadMs: number;
  /** Milliseconds from the worker's first line to the end of the load. */
  sinceWorkerStartMs: number;
  /** Whether the worker's navigator has a WebGPU adapter. */
  workerHasAdapter: boolean;
  /** Milliseconds the harness's own `requestAdapter()` check took (before the load). */
  adapterCheckMs: number;
}

/** Throughput of one device for one batch size. */
export interface ThroughputResult {
  texts: number;
  batch: number;
  ms: number;
  textsPerSecond: number;
}

/** A typed error as it crosses the worker boundary. */
export interface WireError {
  name: string;
  code?: string;
  message: string;
  details?: Record<string, unknown>;
}

export type Request =
  | { id: number; op: 'load'; options: LoadOptions }
  | { id: number; op: 'embed'; texts: string[] }
  | { id: number; op: 'throughput'; texts: string[]; batch: number }
  | { id: number; op: 'dispose' };

/** A request without its id (what the page's client sends; it adds the id). */
export type RequestBody = Request extends infer R
  ? R extends Request
    ? Omit<R, 'id'>
    : never
  : never;

export type Response =
  | { id: number; ok: true; value: unknown; transfer?: never }
  | { id: number; ok: false; error: WireError };
