import { AnamnesisError } from '@anamnesis/ranking';

/** Turns texts into dense vectors. Every adapter implements this one interface. */
export interface Embedder {
  /** Model id, recorded in the store; opening a store with another id needs a re-embed. */
  readonly id: string;
  /** Vector dimension. */
  readonly dims: number;
  /** Where it runs: `'webgpu'`, `'wasm'`, `'cpu'` (Node) or `'none'`. */
  readonly device: string;
  /** Texts truncated to the model's maximum length so far. */
  readonly truncated: number;
  /** Embeds texts; returns one unit-length (or zero) vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
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
  /** `'auto'` (browser: WebGPU when present and faster, else wasm; Node: cpu), or a device. Default `'auto'`. */
  device?: 'auto' | 'webgpu' | 'wasm' | 'cpu';
  /** ONNX weights variant (`'fp32'`, `'q8'`…). Default: the model's default. */
  dtype?: string;
  /** Folder or URL serving ONNX Runtime's wasm files (browser). Default: transformers.js's CDN is never used; set this. */
  wasmPaths?: string;
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
  tokenizer: { model_max_length?: number; encode(text: string): number[] };
  dispose(): Promise<void>;
}

function isNode(): boolean {
  return typeof process !== 'undefined' && !!process.versions?.node;
}

/** Chooses `'webgpu'` only when an adapter exists (a failed session would poison the worker). */
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
 * An embedder running a feature-extraction model through transformers.js: onnxruntime-node in
 * Node, onnxruntime-web (WebGPU or wasm) in a browser worker. Mean pooling, unit length.
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
  let tf: TransformersModule;
  try {
    tf = await import('@huggingface/transformers');
  } catch (cause) {
    throw new AnamnesisError('MODEL_LOAD_FAILED', 'could not load @huggingface/transformers', {
      cause,
    });
  }
  const { env } = tf;
  env.allowLocalModels = options.localModelPath !== undefined;
  if (options.localModelPath !== undefined) env.localModelPath = options.localModelPath;
  env.allowRemoteModels = options.remoteHost !== undefined;
  if (options.remoteHost !== undefined) env.remoteHost = options.remoteHost;
  if (options.remotePathTemplate !== undefined) env.remotePathTemplate = options.remotePathTemplate;
  const onnxWasm = env.backends?.onnx?.wasm as
    { wasmPaths?: string; numThreads?: number } | undefined;
  if (options.wasmPaths !== undefined && onnxWasm) onnxWasm.wasmPaths = options.wasmPaths;

  let device: string = options.device ?? 'auto';
  if (device === 'auto') device = isNode() ? 'cpu' : (await hasWebGpu()) ? 'webgpu' : 'wasm';
  else if (device === 'webgpu' && !(await hasWebGpu())) {
    throw new AnamnesisError('UNSUPPORTED', 'WebGPU has no adapter here');
  }

  let extractor: Extractor;
  try {
    extractor = (await tf.pipeline('feature-extraction', options.model, {
      device: device as 'cpu',
      ...(options.dtype ? { dtype: options.dtype as 'fp32' } : {}),
      progress_callback: (p: {
        status?: string;
        file?: string;
        loaded?: number;
        total?: number;
      }) => {
        if (p.status === 'progress') {
          options.onProgress?.({
            phase: 'model',
            loaded: p.loaded ?? 0,
            total: p.total ?? 0,
            file: p.file,
          });
        }
      },
    })) as unknown as Extractor;
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new AnamnesisError('MODEL_LOAD_FAILED', `${options.model}: ${message}`, {
      cause,
      details: { model: options.model },
    });
  }

  const maxTokens = extractor.tokenizer.model_max_length ?? 512;
  let truncated = 0;
  const probe = await extractor(['probe'], { pooling: 'mean', normalize: true });
  const dims = probe.dims[probe.dims.length - 1]!;

  return {
    id: options.model,
    dims,
    device,
    get truncated() {
      return truncated;
    },
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        for (const t of batch) {
          if (typeof t !== 'string')
            throw new AnamnesisError('INVALID_INPUT', 'texts must be strings');
          // A token spans at least one character, so only long texts can exceed the limit.
          if (t.length > maxTokens - 2 && extractor.tokenizer.encode(t).length > maxTokens)
            truncated++;
        }
        const result = await extractor(batch, { pooling: 'mean', normalize: true });
        for (let i = 0; i < batch.length; i++) {
          const v = result.data.slice(i * dims, (i + 1) * dims);
          // A text of unknown words pools to zero; normalising it gives NaN: keep zeros.
          if (!v.every(Number.isFinite)) v.fill(0);
          out.push(v);
        }
      }
      return out;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
