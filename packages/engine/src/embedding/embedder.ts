import { meanPoolNormalize } from './pooling.ts';
import { AnamnesisError } from '@anamnesis/errors';

/** `INVALID_INPUT` unless every text is a string (an embedder's callers may be plain JavaScript). */
export function checkTexts(texts: readonly unknown[]): void {
  if (texts.some((t) => typeof t !== 'string'))
    throw new AnamnesisError('INVALID_INPUT', 'texts must be strings');
}

/** Turns texts into dense vectors. Every adapter implements this one interface. */
export interface Embedder {
  /** Model id, recorded in the store; opening a store with another id needs a re-embed. */
  readonly id: string;
  /** Vector dimension. */
  readonly dims: number;
  /**
   * Where it runs: `'webgpu'`, `'wasm'`, `'cpu'` (Node) or `'none'`. A static model run in plain
   * JavaScript (`runtime: 'js'`) names the device it stands in for: `'wasm'` in a browser, `'cpu'`
   * in Node.
   */
  readonly device: string;
  /**
   * What computes the vectors: `'onnx'` (ONNX Runtime through transformers.js) or `'js'` (a static
   * model in plain JavaScript, see `createModelEmbedder`). Absent for other embedders.
   */
  readonly runtime?: 'onnx' | 'js';
  /** Texts truncated to the model's maximum length so far. */
  readonly truncated: number;
  /** How the device was chosen (set by {@link createTransformersEmbedder}). */
  readonly selection?: DeviceSelection;
  /** Embeds texts; returns one unit-length (or zero) vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * The model's nearest words to a lower-case word, nearest first (the `expansion` leg searches
   * them). Static models in plain JavaScript have them (see `WordNeighbours`); absent: none.
   */
  neighbours?(word: string): readonly string[];
  /** Releases the model. */
  dispose?(): Promise<void>;
}

/** A load-progress event, forwarded from transformers.js. */
export interface ProgressEvent {
  /** `'model'` while files load, `'embed'` during batches, `'reembed'` while a store re-embeds. */
  phase: 'model' | 'embed' | 'reembed' | 'import';
  /** Items or bytes done. */
  loaded: number;
  /** Items or bytes in all (0 when unknown). */
  total: number;
  /** The file being loaded, for `'model'`. */
  file?: string;
}

/** A device an embedder can run on. */
export type EmbedderDevice = 'auto' | 'webgpu' | 'wasm' | 'cpu';

/** How {@link createTransformersEmbedder} chose its device. */
export interface DeviceSelection {
  /** The device that was asked for. */
  requested: EmbedderDevice;
  /** The device in use (same as `Embedder.device`). */
  device: 'webgpu' | 'wasm' | 'cpu';
  /**
   * Why: `'requested'` (an explicit device), `'node'` (`auto` in Node), `'no-webgpu'` (`auto`
   * without a WebGPU adapter, or with a wasm-only ONNX Runtime build), `'webgpu-failed'` (`auto`: the WebGPU session could not be created;
   * wasm was loaded first, so it stays usable in this worker), `'webgpu-faster'` or
   * `'wasm-faster'` (`auto`: both loaded, the warm-up chose), `'static'` (a static model run in
   * plain JavaScript, without ONNX Runtime; see `createModelEmbedder`).
   */
  reason:
    | 'requested'
    | 'node'
    | 'no-webgpu'
    | 'webgpu-failed'
    | 'webgpu-faster'
    | 'wasm-faster'
    | 'static';
  /** `auto` with both devices loaded: best milliseconds per warm-up batch (64 short texts) on each. */
  warmupMs?: { wasm: number; webgpu: number };
  /** `'webgpu-failed'`: the WebGPU error message. Later WebGPU sessions in this worker will fail too. */
  webgpuError?: string;
}

/** Options of {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /** Model id, e.g. `'Xenova/all-MiniLM-L6-v2'` or the default model's id. */
  model: string;
  /**
   * Root folder or URL holding local models as `<root>/<model id>/…` (transformers.js
   * `env.localModelPath`). Default: none.
   */
  localModelPath?: string;
  /**
   * A hub-like host to download from (transformers.js `env.remoteHost`), e.g.
   * `'https://models.example.com/'`. Default: none: nothing is ever fetched from another origin.
   */
  remoteHost?: string;
  /** Path template under `remoteHost`. Default transformers.js's `'{model}/resolve/{revision}/'`. */
  remotePathTemplate?: string;
  /**
   * Node: the folder downloaded models are cached in (transformers.js `env.cacheDir`). Default
   * transformers.js's own (`.cache` inside its package). Browsers cache in the Cache API.
   */
  cacheDir?: string;
  /**
   * `'auto'`, or a device. Default `'auto'`: in Node `'cpu'`; in a browser `'wasm'` unless
   * `navigator.gpu.requestAdapter()` gives an adapter, in which case both are loaded (wasm first),
   * a short warm-up times each, and the faster one is kept (see `Embedder.selection`).
   *
   * An explicit `'webgpu'` throws `UNSUPPORTED` without an adapter, and `UNSUPPORTED` with
   * `details.freshWorker === true` and `details.fallback === 'wasm'` when the WebGPU session cannot
   * be created: such a failure poisons later WebGPU sessions of the same worker, so the host should
   * start a fresh worker with `'wasm'` (or `'auto'`).
   */
  device?: EmbedderDevice;
  /**
   * What runs a static model (one whose `config.json` declares `"anamnesis": { "kind":
   * "static-embedding" }`, such as the default model), for `createModelEmbedder` and the engine and
   * client that use it: `'auto'` runs it in plain JavaScript on devices `'auto'`, `'wasm'` and
   * `'cpu'` (same vectors, no ONNX Runtime loaded: about 130 MB less memory and no runtime start),
   * and through ONNX Runtime on `'webgpu'`; `'onnx'` always uses ONNX Runtime. Other models always
   * use ONNX Runtime. {@link createTransformersEmbedder} itself always uses ONNX Runtime.
   * Default `'auto'`.
   */
  runtime?: 'auto' | 'onnx';
  /** ONNX weights variant (`'fp32'`, `'q8'`…). Default: the model's default. */
  dtype?: string;
  /**
   * Where ONNX Runtime's wasm files are served (browser), from the exact onnxruntime-web version
   * that transformers.js depends on. Either a folder URL ending in `/` holding
   * `ort-wasm-simd-threaded.asyncify.{mjs,wasm}` (wasm and WebGPU, 27 MB), or the two file URLs
   * `{ mjs, wasm }`: of that build, or of the plain build `ort-wasm-simd-threaded.{mjs,wasm}`
   * (wasm only, 14 MB, about half the start-up time; with it `'auto'` never tries WebGPU and
   * `'webgpu'` throws `UNSUPPORTED`). Required outside Node: without it the load is
   * `INVALID_INPUT` before anything is fetched (transformers.js's own default is ONNX Runtime's
   * code on the jsDelivr CDN, with no integrity check, which is never used). `@anamnesis/client`
   * sets it from `assets.ort`, which its Vite plugin (`@anamnesis/client/vite`) serves. Node
   * (onnxruntime-node) does not use it. Default: none.
   */
  wasmPaths?: string | { mjs: string; wasm: string };
  /**
   * ONNX Runtime intra-op threads (Node: `intraOpNumThreads`; browser: wasm threads, which also
   * need cross-origin isolation). Default: the runtime's default.
   */
  threads?: number;
  /** Texts per model call. Default 64. */
  batchSize?: number;
  /** Progress of model loading. */
  onProgress?: (event: ProgressEvent) => void;
}

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
type Device = DeviceSelection['device'];

const EMBED = { pooling: 'mean', normalize: true } as const;

/** transformers.js's own cache folder, before any embedder changed it. */
let defaultCacheDir: string | null | undefined;

function isNode(): boolean {
  return typeof process !== 'undefined' && !!process.versions?.node;
}

/**
 * Outside Node: `wasmPaths` must be given, as a folder URL or `{ mjs, wasm }` file URLs (see
 * {@link TransformersEmbedderOptions.wasmPaths}); anything else is `INVALID_INPUT`.
 */
function checkWasmPaths(wasmPaths: unknown): void {
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

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * True unless `wasmPaths` names a wasm-only ONNX Runtime build (the plain
 * `ort-wasm-simd-threaded.mjs`): WebGPU needs the asyncify (or JSEP/JSPI) build.
 */
function runtimeHasWebGpu(wasmPaths: TransformersEmbedderOptions['wasmPaths']): boolean {
  if (wasmPaths === undefined || typeof wasmPaths === 'string') return true;
  return /\.(asyncify|jsep|jspi)\.mjs(\?|#|$)/.test(wasmPaths.mjs);
}

/** True when `navigator.gpu.requestAdapter()` gives an adapter (checked before any WebGPU session). */
async function hasWebGpu(): Promise<boolean> {
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
function localRoot(root: string): string {
  if (!/^https?:/i.test(root)) return root;
  const here = (globalThis as { location?: { origin: string } }).location?.origin;
  const url = new URL(root);
  if (here !== undefined && url.origin === here) return url.pathname;
  throw new AnamnesisError(
    'INVALID_INPUT',
    `localModelPath ${root} is on another origin: use remoteHost for models served elsewhere`,
  );
}

/** Files a load asked for (`initiate`) and got (`done`), from transformers.js progress events. */
interface FileLog {
  started: string[];
  done: Set<string>;
}

/** Messages of ONNX Runtime that blame the model bytes rather than the execution provider. */
const MODEL_FORMAT_ERROR = /protobuf|pars(e|ing)|invalid (model|onnx)|load model|model_path|magic/i;
/** Messages that say a file is not there. */
const MISSING_FILE_ERROR = /not found|could not locate|404|ENOENT|no such file/i;

/** Reads a model file back (after a failure) to tell which JSON file is corrupt. */
async function readModelText(root: string, model: string, file: string): Promise<string> {
  const rel = `${model}/${file}`;
  if (isNode() && !/^(https?|blob):/i.test(root)) {
    // Specifiers in variables: bundlers leave Node-only imports of this Node-only branch alone.
    const fsName = 'node:fs/promises';
    const pathName = 'node:path';
    const [fs, path] = (await Promise.all([
      import(/* @vite-ignore */ fsName),
      import(/* @vite-ignore */ pathName),
    ])) as [typeof import('node:fs/promises'), typeof import('node:path')];
    return fs.readFile(path.join(root, rel), 'utf8');
  }
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(root.endsWith('/') ? root : `${root}/`, base);
  const response = await fetch(new URL(rel, url));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

/**
 * Turns a load failure into a typed error naming the file at fault: the file named in the
 * message, else the JSON file that does not parse, else a file that never finished loading, else
 * the ONNX file (the session could not be created). A WebGPU session failure that does not blame
 * the model bytes becomes `UNSUPPORTED` with a fresh-worker hint.
 */
async function loadError(
  cause: unknown,
  log: FileLog,
  options: TransformersEmbedderOptions,
  localModelPath: string | undefined,
  device: Device,
): Promise<AnamnesisError> {
  const message = messageOf(cause);
  const model = options.model;
  // transformers.js names the path it failed on ("…/<model>/<file>"); not every file it reads
  // (config.json while it lists a pipeline's files) shows up in the progress events.
  const named = [...message.matchAll(/"([^"]+)"/g)]
    .map((m) => m[1]!)
    .find((quoted) => quoted.includes(`${model}/`));
  let file =
    named?.slice(named.indexOf(`${model}/`) + model.length + 1) ??
    log.started.find((f) => message.includes(`${model}/${f}`) || message.includes(f));
  let reason: 'missing' | 'corrupt' | 'session' = 'corrupt';
  if (file) {
    if (MISSING_FILE_ERROR.test(message)) reason = 'missing';
    else if (file.endsWith('.onnx') && !MODEL_FORMAT_ERROR.test(message)) reason = 'session';
  } else if (cause instanceof SyntaxError && localModelPath !== undefined) {
    const jsonFiles = new Set([
      'config.json',
      ...log.started.filter((name) => name.endsWith('.json')),
      'tokenizer_config.json',
      'tokenizer.json',
    ]);
    for (const f of jsonFiles) {
      try {
        JSON.parse(await readModelText(localModelPath, model, f));
      } catch {
        file = f;
        break;
      }
    }
  }
  if (!file) file = log.started.find((f) => !log.done.has(f));
  if (!file) {
    file = log.started.find((f) => f.endsWith('.onnx'));
    if (file) reason = MODEL_FORMAT_ERROR.test(message) ? 'corrupt' : 'session';
  }
  if (reason === 'session' && device === 'webgpu') {
    return new AnamnesisError(
      'UNSUPPORTED',
      `WebGPU could not create a session for ${model} (${message}); WebGPU sessions in this ` +
        `worker will keep failing: start a fresh worker with device 'wasm'`,
      { cause, details: { model, device, file, fallback: 'wasm', freshWorker: true } },
    );
  }
  const what =
    reason === 'missing'
      ? 'file is missing'
      : reason === 'session'
        ? 'model could not be run'
        : 'file is corrupt or unreadable';
  return new AnamnesisError(
    'MODEL_LOAD_FAILED',
    `${model}: ${file ?? 'unknown file'}: ${what} (${message})`,
    { cause, details: { model, file, reason, device } },
  );
}

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
 * or corrupt file, `UNSUPPORTED` for an explicit `'webgpu'` that cannot run here (see
 * {@link TransformersEmbedderOptions.device}).
 */
export async function createTransformersEmbedder(
  options: TransformersEmbedderOptions,
): Promise<Embedder> {
  if (!options || typeof options.model !== 'string' || options.model.length === 0) {
    throw new AnamnesisError('INVALID_INPUT', 'model must be a non-empty string');
  }
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
    if (!runtimeHasWebGpu(options.wasmPaths)) {
      throw new AnamnesisError(
        'UNSUPPORTED',
        'wasmPaths names a wasm-only ONNX Runtime build: WebGPU needs ort-wasm-simd-threaded.asyncify',
        { details: { device: 'webgpu', fallback: 'wasm', freshWorker: false } },
      );
    }
    if (!(await hasWebGpu())) {
      throw new AnamnesisError('UNSUPPORTED', 'WebGPU has no adapter here', {
        details: { device: 'webgpu', fallback: 'wasm', freshWorker: false },
      });
    }
    extractor = await load('webgpu');
    selection = { requested, device: 'webgpu', reason: 'requested' };
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
