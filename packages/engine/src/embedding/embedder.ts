import { AnamnesisError } from '@anamnesis/errors';

/** `INVALID_INPUT` unless every text is a string (an embedder's callers may be plain JavaScript). */
export function checkTexts(texts: readonly unknown[]): void {
  if (texts.some((t) => typeof t !== 'string'))
    throw new AnamnesisError('INVALID_INPUT', 'texts must be strings');
}

/** The `languages` option checked: absent, or a non-empty list of non-empty codes (copied). */
export function checkLanguages(languages: unknown): string[] | undefined {
  if (languages === undefined) return undefined;
  if (
    !Array.isArray(languages) ||
    languages.length === 0 ||
    !languages.every((l) => typeof l === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]+)*$/.test(l))
  )
    throw new AnamnesisError(
      'INVALID_INPUT',
      'languages must be a non-empty list of language codes',
    );
  return [...(languages as string[])];
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
  /**
   * Whether a lower-case word is a whole word of the model's vocabulary (a real word, so never a
   * typo to correct). Static models in plain JavaScript can tell; absent: unknown.
   */
  knows?(word: string): boolean;
  /**
   * The languages the model was trained on, as codes (`en`, `de`, `zh_CN`): a local model's
   * `config.json` names them (`anamnesis.languages`). Recall weighs the model's legs by the share of
   * a query written in these languages' scripts; absent: English (the Latin script).
   */
  languages?: readonly string[];
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
   * without a WebGPU adapter, or with a wasm-only ONNX Runtime build; an explicit `'webgpu'`
   * without an adapter, loaded on wasm instead, or on cpu in Node), `'webgpu-failed'` (`auto`: the
   * WebGPU session could not be created; wasm was loaded first, so it stays usable in this
   * worker), `'webgpu-faster'` or `'wasm-faster'` (`auto`: both loaded, the warm-up chose),
   * `'static'` (a static model run in plain JavaScript, without ONNX Runtime; see
   * `createModelEmbedder`).
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
   * An explicit `'webgpu'` without an adapter (`navigator.gpu` missing, or its
   * `requestAdapter()` giving null) loads the model on `'wasm'` in the same worker (no WebGPU
   * session was created, so nothing is poisoned; `'cpu'` in Node), and `Embedder.selection` says
   * `{ requested: 'webgpu', device: 'wasm', reason: 'no-webgpu' }`. It throws `UNSUPPORTED` with
   * `details.freshWorker === true` and `details.fallback === 'wasm'` when the WebGPU session cannot
   * be created: such a failure poisons later WebGPU sessions of the same worker, so the host should
   * start a fresh worker with `'wasm'` (or `'auto'`). With a wasm-only `wasmPaths` it throws
   * `UNSUPPORTED` at once: that is the app's configuration mistake (see `wasmPaths`).
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
   * `'webgpu'` throws `UNSUPPORTED`, since asking for WebGPU with a build that lacks it is a
   * configuration mistake rather than something to fall back from). Required outside Node: without it the load is
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
  /**
   * The languages the model reads, as codes (`'en'`, `'de'`, `'zh_CN'`): recall weighs the model's
   * legs by the share of a query written in their scripts (see `Embedder.languages`). Default: what
   * a local model's `config.json` names (`anamnesis.languages`), else English (the Latin script);
   * a multilingual model from a remote host should name its languages here.
   */
  languages?: readonly string[];
  /** Progress of model loading. */
  onProgress?: (event: ProgressEvent) => void;
}
