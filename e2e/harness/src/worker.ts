/** The embedder worker of the test app: one embedder per worker, driven by {@link Request}s. */
import { createTransformersEmbedder, type Embedder } from '@anamnesis/engine';
import { MODEL_ID } from '@anamnesis/model-default';

import type {
  LoadOptions,
  LoadResult,
  Request,
  Response,
  ThroughputResult,
  WireError,
} from './protocol.ts';

const workerStart = performance.now();
/** The parts of a dedicated worker's global scope used here (the DOM lib has no worker types). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: Response, transfer?: Transferable[]): void;
};
let embedder: Embedder | undefined;

/** ONNX Runtime files, served by the app itself (see `local-files.ts`). */
const ORT = new URL('/ort/', location.origin).href;
const WASM_PATHS = {
  asyncify: ORT,
  plain: { mjs: `${ORT}ort-wasm-simd-threaded.mjs`, wasm: `${ORT}ort-wasm-simd-threaded.wasm` },
};

async function adapterPresent(): Promise<boolean> {
  try {
    return (await navigator.gpu?.requestAdapter()) != null;
  } catch {
    return false;
  }
}

function breakWebGpu(): void {
  const gpu = navigator.gpu;
  if (!gpu) return;
  const real = gpu.requestAdapter.bind(gpu);
  let calls = 0;
  // The embedder's own check is the first call; ONNX Runtime's later ones get no adapter.
  gpu.requestAdapter = (options) => (calls++ === 0 ? real(options) : Promise.resolve(null));
}

async function load(options: LoadOptions): Promise<LoadResult> {
  const check = performance.now();
  const workerHasAdapter = await adapterPresent();
  const adapterCheckMs = performance.now() - check;
  if (options.breakWebGpu) breakWebGpu();
  const start = performance.now();
  embedder = await createTransformersEmbedder({
    model: options.model ?? MODEL_ID,
    localModelPath: options.modelRoot ?? '/models/',
    device: options.device,
    ...(options.runtime === 'none' ? {} : { wasmPaths: WASM_PATHS[options.runtime ?? 'asyncify'] }),
  });
  const end = performance.now();
  return {
    device: embedder.device,
    dims: embedder.dims,
    selection: embedder.selection,
    loadMs: end - start,
    sinceWorkerStartMs: end - workerStart,
    workerHasAdapter,
    adapterCheckMs,
  };
}

function ready(): Embedder {
  if (!embedder) throw new Error('no model loaded');
  return embedder;
}

async function throughput(texts: string[], batch: number): Promise<ThroughputResult> {
  const e = ready();
  await e.embed(texts.slice(0, batch)); // warm-up
  const start = performance.now();
  for (let i = 0; i < texts.length; i += batch) await e.embed(texts.slice(i, i + batch));
  const ms = performance.now() - start;
  return { texts: texts.length, batch, ms, textsPerSecond: (texts.length / ms) * 1000 };
}

function toWire(e: unknown): WireError {
  if (e instanceof Error) {
    const { code, details } = e as { code?: string; details?: Record<string, unknown> };
    return {
      name: e.name,
      message: e.message,
      ...(code ? { code } : {}),
      ...(details
        ? { details: JSON.parse(JSON.stringify(details)) as Record<string, unknown> }
        : {}),
    };
  }
  return { name: 'Error', message: String(e) };
}

async function handle(event: MessageEvent<Request>): Promise<void> {
  const request = event.data;
  try {
    let value: unknown;
    let transfer: Transferable[] = [];
    switch (request.op) {
      case 'load':
        value = await load(request.options);
        break;
      case 'embed': {
        const vectors = await ready().embed(request.texts);
        transfer = vectors.map((v) => v.buffer);
        value = vectors;
        break;
      }
      case 'throughput':
        value = await throughput(request.texts, request.batch);
        break;
      case 'dispose':
        await embedder?.dispose?.();
        embedder = undefined;
        value = true;
        break;
    }
    scope.postMessage({ id: request.id, ok: true, value } satisfies Response, transfer);
  } catch (e) {
    scope.postMessage({ id: request.id, ok: false, error: toWire(e) } satisfies Response);
  }
}
scope.onmessage = (event: MessageEvent<Request>) => void handle(event);
scope.postMessage({ id: 0, ok: true, value: 'started' } satisfies Response);
