/**
 * The embedder for any feature-extraction model through transformers.js and ONNX Runtime
 * (`createTransformersEmbedder`): device selection, loading, batching.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type {
  DeviceSelection,
  Embedder,
  EmbedderDevice,
  TransformersEmbedderOptions,
} from './embedder.ts';
import { checkLanguages, checkTexts } from './embedder.ts';
import { loadError, type FileLog } from './load-error.ts';
import { meanPoolNormalize } from './pooling.ts';
import {
  checkWasmPaths,
  hasWebGpu,
  isNode,
  localRoot,
  messageOf,
  runtimeHasWebGpu,
  type Device,
} from './transformers-env.ts';

type TransformersModule = typeof import('@huggingface/transformers');
interface Extractor {
  (
    texts: string[],
    options: { pooling: 'mean'; normalize: boolean },
  ): Promise<{ data: Float32Array; dims: number[] }>;
  /** Null when transformers.js found no tokenizer files. */
  tokenizer: Tokenizer | null;
  /** The model itself: token ids (and mask) in, hidden states out. */
  model: (inputs: Record<string, unknown>) => Promise<Record<string, Tensor | undefined>>;
  dispose(): Promise<void>;
}
interface Tensor {
  data: Float32Array | BigInt64Array;
  dims: number[];
}
interface Tokenizer {
  model_max_length?: number;
  encode(text: string): number[];
  (texts: string[], options: { padding: boolean; truncation: boolean }): Record<string, Tensor>;
}

/** What every model call asks of transformers.js: mean pooling, unit length. */
const EMBED = { pooling: 'mean', normalize: true } as const;

/** transformers.js's own cache folder, before any embedder changed it. */
let defaultCacheDir: string | null | undefined;

/** 64 short texts for the device warm-up (fixed, so timings compare across runs). */
function warmupTexts(): string[] {
  const words = (
    'the meeting moved to friday morning because the client asked for more time to review ' +
    'our notes about travel plans dinner recipes music lessons and the new project budget'
  ).split(' ');
  return Array.from({ length: 64 }, (_, i) => {
    const n = 6 + (i % 9);
    return Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
  });
}

/** Best of three timed runs (after one untimed) of the warm-up batch, in milliseconds. */
async function timeWarmup(extractor: Extractor): Promise<number> {
  const texts = warmupTexts();
  await extractor(texts, EMBED);
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await extractor(texts, EMBED);
    best = Math.min(best, performance.now() - start);
  }
  return Math.round(best * 1000) / 1000;
}

/**
 * An embedder running a feature-extraction model through transformers.js: onnxruntime-node in
 * Node, onnxruntime-web (WebGPU or wasm) in a browser worker. Mean pooling, unit length.
 *
 * Errors: `INVALID_INPUT` (options), `MODEL_LOAD_FAILED` with `details.file` naming the missing
 * or corrupt file, `UNSUPPORTED` for an explicit `'webgpu'` with a wasm-only `wasmPaths` or whose
 * WebGPU session fails (see {@link TransformersEmbedderOptions.device}); an explicit `'webgpu'`
 * without an adapter loads on wasm instead.
 */
export async function createTransformersEmbedder(
  options: TransformersEmbedderOptions,
): Promise<Embedder> {
  if (!options || typeof options.model !== 'string' || options.model.length === 0) {
    throw new AnamnesisError('INVALID_INPUT', 'model must be a non-empty string');
  }
  const languages = checkLanguages(options.languages);
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new AnamnesisError('INVALID_INPUT', 'batchSize must be a positive integer');
  }
  const requested: EmbedderDevice = options.device ?? 'auto';
  if (!['auto', 'webgpu', 'wasm', 'cpu'].includes(requested)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown device ${String(requested)}`);
  }
  if (
    options.threads !== undefined &&
    (!Number.isInteger(options.threads) || options.threads < 1)
  ) {
    throw new AnamnesisError('INVALID_INPUT', 'threads must be a positive integer');
  }
  // Outside Node, ONNX Runtime Web's code and wasm come from `wasmPaths`, and only from there:
  // transformers.js's browser build otherwise points them at jsDelivr (see `wasmPaths`).
  const browser = !isNode();
  if (browser) checkWasmPaths(options.wasmPaths);
  let tf: TransformersModule;
  try {
    // `#transformers` (package.json `imports`): `@huggingface/transformers` in Node (an optional
    // peer dependency), its browser build copied into this package in a browser bundle.
    tf = await import('#transformers');
  } catch (cause) {
    throw new AnamnesisError(
      'MODEL_LOAD_FAILED',
      'could not load @huggingface/transformers: in Node, install it ' +
        "(npm install @huggingface/transformers@4.3.1), or open the engine with embedder: 'tfidf'",
      { cause },
    );
  }
  const { env } = tf;
  const localModelPath =
    options.localModelPath === undefined ? undefined : localRoot(options.localModelPath);
  env.allowLocalModels = localModelPath !== undefined;
  if (localModelPath !== undefined) env.localModelPath = localModelPath;
  env.allowRemoteModels = options.remoteHost !== undefined;
  if (options.remoteHost !== undefined) env.remoteHost = options.remoteHost;
  if (options.remotePathTemplate !== undefined) env.remotePathTemplate = options.remotePathTemplate;
  // env is global to transformers.js: every field this adapter uses is set on every load.
  defaultCacheDir ??= env.cacheDir;
  env.cacheDir = options.cacheDir ?? defaultCacheDir;
  const onnxWasm = env.backends?.onnx?.wasm as
    { wasmPaths?: string | { mjs: string; wasm: string }; numThreads?: number } | undefined;
  if (browser && !onnxWasm) {
    throw new AnamnesisError(
      'UNSUPPORTED',
      'transformers.js has no ONNX Runtime Web backend here, so wasmPaths cannot be set',
    );
  }
  if (options.wasmPaths !== undefined && onnxWasm) {
    onnxWasm.wasmPaths =
      typeof options.wasmPaths === 'string' ? options.wasmPaths : { ...options.wasmPaths };
  }
  if (options.threads !== undefined && onnxWasm) onnxWasm.numThreads = options.threads;
  // transformers.js imports ONNX Runtime's .mjs from a blob: URL (to cache it); an extension
  // page's CSP (script-src 'self') forbids that, and the extension's workers lack the `chrome`
  // global by which transformers.js detects an extension: import it from its own URL there.
  const protocol = (globalThis as { location?: { protocol?: string } }).location?.protocol;
  if (protocol === 'chrome-extension:' || protocol === 'moz-extension:') {
    (env as { useWasmCache?: boolean }).useWasmCache = false;
  }

  const load = async (device: Device): Promise<Extractor> => {
    const log: FileLog = { started: [], done: new Set() };
    try {
      return await tf.pipeline('feature-extraction', options.model, {
        device,
        ...(options.dtype ? { dtype: options.dtype as 'fp32' } : {}),
        ...(device === 'cpu' && options.threads !== undefined
          ? { session_options: { intraOpNumThreads: options.threads, interOpNumThreads: 1 } }
          : {}),
        progress_callback: (p: {
          status?: string;
          file?: string;
          loaded?: number;
          total?: number;
        }) => {
          if (p.status === 'initiate' && p.file) log.started.push(p.file);
          else if (p.status === 'done' && p.file) log.done.add(p.file);
          else if (p.status === 'progress') {
            options.onProgress?.({
              phase: 'model',
              loaded: p.loaded ?? 0,
              total: p.total ?? 0,
              file: p.file,
            });
          }
        },
      });
    } catch (cause) {
      throw await loadError(cause, log, options, localModelPath, device);
    }
  };

  let extractor: Extractor;
  let selection: DeviceSelection;
  if (requested === 'cpu' || (requested === 'auto' && isNode())) {
    extractor = await load('cpu');
    selection = { requested, device: 'cpu', reason: requested === 'auto' ? 'node' : 'requested' };
  } else if (requested === 'wasm') {
    extractor = await load('wasm');
    selection = { requested, device: 'wasm', reason: 'requested' };
  } else if (requested === 'webgpu') {
    // A wasm-only build with 'webgpu' is the app's configuration mistake, not something this
    // browser lacks: an error, not a fallback.
    if (!runtimeHasWebGpu(options.wasmPaths)) {
      throw new AnamnesisError(
        'UNSUPPORTED',
        'wasmPaths names a wasm-only ONNX Runtime build: WebGPU needs ort-wasm-simd-threaded.asyncify',
        { details: { device: 'webgpu', fallback: 'wasm', freshWorker: false } },
      );
    }
    if (await hasWebGpu()) {
      extractor = await load('webgpu');
      selection = { requested, device: 'webgpu', reason: 'requested' };
    } else {
      // No adapter: no WebGPU session was created, so nothing in this worker's runtime is
      // poisoned, and the model loads here on wasm (the asyncify build runs it too; cpu in Node).
      const device = browser ? 'wasm' : 'cpu';
      extractor = await load(device);
      selection = { requested, device, reason: 'no-webgpu' };
    }
  } else {
    // auto in a browser: wasm first, so a WebGPU failure (which poisons later WebGPU sessions of
    // this worker) leaves a working model behind, and missing files fail before WebGPU is touched.
    const wasm = await load('wasm');
    if (!runtimeHasWebGpu(options.wasmPaths) || !(await hasWebGpu())) {
      extractor = wasm;
      selection = { requested, device: 'wasm', reason: 'no-webgpu' };
    } else {
      let gpu: Extractor | undefined;
      let webgpuError: string | undefined;
      try {
        gpu = await load('webgpu');
      } catch (e) {
        webgpuError = messageOf(e);
      }
      if (!gpu) {
        extractor = wasm;
        selection = { requested, device: 'wasm', reason: 'webgpu-failed', webgpuError };
      } else {
        let gpuMs = Infinity;
        try {
          gpuMs = await timeWarmup(gpu);
        } catch (e) {
          webgpuError = messageOf(e);
        }
        const wasmMs = await timeWarmup(wasm);
        const useGpu = gpuMs < wasmMs;
        extractor = useGpu ? gpu : wasm;
        await (useGpu ? wasm : gpu).dispose().catch(() => undefined);
        selection =
          webgpuError !== undefined
            ? { requested, device: 'wasm', reason: 'webgpu-failed', webgpuError }
            : {
                requested,
                device: useGpu ? 'webgpu' : 'wasm',
                reason: useGpu ? 'webgpu-faster' : 'wasm-faster',
                warmupMs: { wasm: wasmMs, webgpu: gpuMs },
              };
      }
    }
  }

  if (!extractor.tokenizer) {
    // transformers.js loads a tokenizer only when tokenizer_config.json exists.
    await extractor.dispose().catch(() => undefined);
    const file = 'tokenizer_config.json';
    throw new AnamnesisError(
      'MODEL_LOAD_FAILED',
      `${options.model}: ${file}: file is missing (no tokenizer was loaded)`,
      { details: { model: options.model, file, reason: 'missing', device: selection.device } },
    );
  }
  const tokenizer = extractor.tokenizer;
  const maxTokens = tokenizer.model_max_length ?? 512;
  let truncated = 0;
  let dims: number;
  try {
    const probe = await extractor(['probe'], EMBED);
    dims = probe.dims[probe.dims.length - 1]!;
  } catch (cause) {
    await extractor.dispose().catch(() => undefined);
    if (selection.device === 'webgpu') {
      throw new AnamnesisError(
        'UNSUPPORTED',
        `${options.model} does not run on WebGPU here (${messageOf(cause)}): start a fresh ` +
          `worker with device 'wasm'`,
        {
          cause,
          details: { model: options.model, device: 'webgpu', fallback: 'wasm', freshWorker: true },
        },
      );
    }
    throw new AnamnesisError(
      'MODEL_LOAD_FAILED',
      `${options.model}: the model does not run on ${selection.device} (${messageOf(cause)})`,
      { cause, details: { model: options.model, device: selection.device } },
    );
  }

  return {
    id: options.model,
    dims,
    device: selection.device,
    runtime: 'onnx',
    selection,
    ...(languages ? { languages } : {}),
    get truncated() {
      return truncated;
    },
    async embed(texts) {
      checkTexts(texts);
      for (const t of texts) {
        // A token spans at least one character, so only long texts can exceed the limit.
        if (t.length > maxTokens - 2 && tokenizer.encode(t).length > maxTokens) truncated++;
      }
      // Batches of similar length waste little on padding; results go back in input order.
      const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        const idx = order.slice(start, start + batchSize);
        const inputs = tokenizer(
          idx.map((i) => texts[i]!),
          { padding: true, truncation: true },
        );
        const hidden = (await extractor.model(inputs)).last_hidden_state;
        const mask = inputs.attention_mask;
        if (!hidden || !(hidden.data instanceof Float32Array) || !mask) {
          throw new AnamnesisError(
            'MODEL_LOAD_FAILED',
            `${options.model} has no float last_hidden_state output`,
          );
        }
        const [b, seq, d] = hidden.dims as [number, number, number];
        meanPoolNormalize(hidden.data, mask.data, b, seq, d).forEach((v, j) => (out[idx[j]!] = v));
      }
      return out;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
