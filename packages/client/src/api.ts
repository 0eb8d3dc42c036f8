/**
 * The contract between the page and the worker, derived from the engine's own implementation: the
 * methods a `Memory` forwards are `Pick<Engine, …>`, so the client cannot drift from the engine.
 */
import type {
  DeviceSelection,
  EncryptionOptions,
  Engine,
  EngineStats,
  OpfsRecoverResult,
  ProgressEvent,
  TransformersEmbedderOptions,
  OpenTimings,
  StoreChange,
} from '@anamnesis/engine';

import type { Reply } from './wire.ts';

/**
 * Every public engine method the client forwards, and whether it only reads (`'read'`) or writes
 * (`'write'`: a follower's write carries an operation id, so that re-sent to a new owner after a
 * hand-over it is applied at most once).
 */
export const ENGINE_METHODS = {
  remember: 'write',
  rememberMany: 'write',
  get: 'read',
  list: 'read',
  update: 'write',
  forget: 'write',
  link: 'write',
  unlink: 'write',
  /** A newer memory supersedes an older one (a fact that changed). */
  supersede: 'write',
  /** Undoes a supersession. */
  unsupersede: 'write',
  /** The chain of supersessions a memory is in. */
  history: 'read',
  /** The memory block a chat turn should see (recalls only). */
  augment: 'read',
  /** Stores the durable facts of a chat turn (an app's `extractor` function does not cross the worker). */
  learn: 'write',
  markUsed: 'write',
  /** Pins or unpins a memory (no recency decay, always a candidate for its topics). */
  pin: 'write',
  /** Usage another device recorded, applied by a sync (see `@anamnesis/sync`). */
  setDeviceUsage: 'write',
  recall: 'read',
  export: 'read',
  import: 'write',
  stats: 'read',
  verify: 'read',
  /** Encrypted stores: re-keys every page (see `OpenMemoryOptions.encryption`). */
  changePassphrase: 'write',
  /** What a follower tab asks the owner before it forwards anything (see `OpenMemoryOptions.encryption`). */
  checkEncryption: 'read',
} as const satisfies Record<string, 'read' | 'write'>;

/** The name of a forwarded engine method. */
export type EngineMethod = keyof typeof ENGINE_METHODS;

/** Most arguments each forwarded method takes (as the engine declares it). */
export const ENGINE_ARITY = {
  remember: 1,
  rememberMany: 2,
  get: 1,
  list: 1,
  update: 2,
  forget: 1,
  link: 3,
  unlink: 3,
  supersede: 2,
  unsupersede: 2,
  history: 1,
  augment: 1,
  learn: 1,
  markUsed: 2,
  pin: 2,
  setDeviceUsage: 3,
  recall: 2,
  export: 1,
  import: 2,
  stats: 0,
  verify: 0,
  changePassphrase: 1,
  checkEncryption: 1,
} as const satisfies Record<EngineMethod, number>;

/**
 * Whether `name` is a forwarded engine method: an own key of {@link ENGINE_METHODS}, so never
 * `close`, `once`, a prototype member (`constructor`, `__proto__`, `toString`) or a non-string.
 */
export function isEngineMethod(name: unknown): name is EngineMethod {
  return typeof name === 'string' && Object.hasOwn(ENGINE_METHODS, name);
}

/** The engine's forwarded methods, exactly as the engine declares them. */
export type EngineApi = Pick<Engine, EngineMethod>;

/** Public methods of `Engine` (functions, not `#private`, not symbols). */
type EnginePublicMethods = {
  [K in keyof Engine]: Engine[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Engine] &
  string;

/**
 * Compile-time guard: a public engine method that the client neither forwards nor handles itself
 * (`close`; `once`, which the owner's worker uses for forwarded writes; `subscribe`, whose
 * listener a page gives as `openMemory({ onChange })`; `sync`, which the page runs itself from
 * `openMemory({ sync })`; `backup`, which copies a Node file store, while the client's stores live
 * in OPFS or memory) makes this type non-`never`, and the assignment below fails to compile.
 */
type Unforwarded = Exclude<
  EnginePublicMethods,
  EngineMethod | 'close' | 'once' | 'subscribe' | 'sync' | 'backup'
>;
const _everyMethodForwarded: [Unforwarded] extends [never] ? true : Unforwarded = true;

/** Arguments of a forwarded method. */
export type MethodArgs<K extends EngineMethod> = Parameters<EngineApi[K]>;
/** Compile-time guard: {@link ENGINE_ARITY} is each method's parameter count, as declared. */
type Arity = { [K in EngineMethod]: Required<MethodArgs<K>>['length'] };
const _arityAsDeclared: Arity = ENGINE_ARITY;

/** Result of a forwarded method (resolved). */
export type MethodResult<K extends EngineMethod> = Awaited<ReturnType<EngineApi[K]>>;

/** Which argument of a method may carry an `onProgress` callback (an options object). */
export const PROGRESS_ARG: Partial<Record<EngineMethod, number>> = { rememberMany: 1, import: 1 };

/** Where the store lives, as the client offers it (the engine's `'file'` is Node-only). */
export type ClientStorage = 'auto' | 'opfs' | 'memory';

/** A device for the embedding model in the browser. */
export type ClientDevice = 'auto' | 'webgpu' | 'wasm';

/** What `stats()` reports through the client: the engine's stats and the browser's storage. */
export interface MemoryStats extends EngineStats {
  /**
   * Whether the origin's storage is persistent (`navigator.storage.persisted()`); `null` where
   * the browser cannot tell.
   */
  persisted: boolean | null;
  /** Bytes the origin uses (`navigator.storage.estimate().usage`), when the browser says. */
  usage?: number;
  /** Bytes the origin may use (`navigator.storage.estimate().quota`), when the browser says. */
  quota?: number;
}

/** How the owner's worker opened the store: device, backend and model. */
export interface OpenInfo {
  /**
   * Where the embedding model runs: `'webgpu'`, `'wasm'` (or `'cpu'` in Node); `'none'` for
   * TF-IDF. A model still loading when the store opened is named by the device it was asked for
   * (and `model.dims` is 0 until it is ready; `stats().model` is always current).
   */
  device: string;
  /**
   * What computes the vectors once the model is loaded: `'js'` (the default model, a static table
   * lookup, in plain JavaScript: ONNX Runtime is never loaded) or `'onnx'` (ONNX Runtime). Absent
   * for TF-IDF and while the model is still loading.
   */
  runtime?: 'onnx' | 'js';
  /** How the device was chosen. */
  selection?: DeviceSelection;
  /** `'opfs'` or `'memory'`. */
  backend: EngineStats['backend'];
  /** Why the store is in memory when OPFS was not used. */
  backendReason?: string;
  /** The model id and vector dimension. */
  model: {
    /** The model's id (`'tfidf'` for the TF-IDF backend). */
    id: string;
    /** Vector dimensions. */
    dims: number;
  };
  /** Milliseconds the worker spent opening (model and store). */
  openMs: number;
  /**
   * Of which, in ms: `modelMs` loading the model before the store opens (about 0 when the model
   * loads beside the store: the default model, or any model not on WebGPU), `storeMs` from then
   * on, and the engine's steps ({@link OpenTimings}: SQLite-WASM, the file, the schema, the dedup
   * index and vectors; `vectorsMs`, the stored vectors once a model loaded beside the store was
   * ready, when `openMemory` waited for it).
   */
  timings: {
    /** Loading the model before the store opens, in ms. */
    modelMs: number;
    /** Opening the store from then on, in ms. */
    storeMs: number;
  } & OpenTimings;
  /** Times opening the store was retried because the previous owner still held its files. */
  lockRetries: number;
}

/** Whether this tab hosts the store (`'owner'`) or forwards to the tab that does (`'follower'`). */
export type Role = 'owner' | 'follower';

/** Device, backend and model of the store, as opened by the owner's worker. */
export interface MemoryInfo extends OpenInfo {
  /** This tab's role. */
  role: Role;
  /**
   * Set when `device: 'webgpu'` was asked for and the model runs on wasm instead: either WebGPU
   * failed to create a session in a first worker and a fresh one runs on wasm, or there is no
   * WebGPU adapter here (`navigator.gpu` missing, or its `requestAdapter()` giving null: the same
   * worker loaded the model on wasm, and `selection` says `{ requested: 'webgpu', device: 'wasm',
   * reason: 'no-webgpu' }`). Absent when the model runs where it was asked to.
   */
  fellBackFrom?: {
    /**
     * The error code of what kept WebGPU from running: `'UNSUPPORTED'` (the failed session's code,
     * or no adapter).
     */
    code: string;
    /** Its message, for logs (an app shows people its own words). */
    message: string;
  };
}

/**
 * A part of the store that became ready: `'model'` (the embedding model is loaded, or the TF-IDF
 * backend fitted) and `'store'` (the store is open: calls run).
 */
export type ReadyPart = 'model' | 'store';

/** Options the page sends to its worker's `open`. */
export interface WorkerOpenOptions {
  /** Store name. */
  name: string;
  storage: ClientStorage;
  /** The embedder, with URLs already resolved against the page, or the zero-model TF-IDF backend. */
  embedder: Omit<TransformersEmbedderOptions, 'onProgress'> | 'tfidf';
  /** See `OpenMemoryOptions.onModelMismatch`. */
  onModelMismatch: 'error' | 'reembed';
  /** How long to keep retrying a store whose files another worker still holds, in ms. */
  lockRetryMs: number;
  /** See `OpenMemoryOptions.pageCacheMb` (validated by the engine). */
  pageCacheMb?: number;
  /** See `OpenMemoryOptions.encryption` (validated by the engine). */
  encryption?: EncryptionOptions;
  /**
   * Load the model before opening the store (`openMemory`, whose `ready` means every part is),
   * rather than beside it (`connectMemory`; see `OpenMemoryOptions.onReady`).
   */
  modelFirst?: boolean;
  /**
   * Test only: make ONNX Runtime's own `requestAdapter()` calls return null while the embedder's
   * check still sees an adapter, so WebGPU session creation fails after the adapter check.
   */
  simulateWebGpuFailure?: boolean;
}

/**
 * What the worker exposes through Comlink: {@link WorkerApi} with every answer as a
 * {@link Reply} (plain data; errors in wire form), see `answering` in `worker-api.ts`.
 */
export type RemoteWorkerApi = {
  [K in keyof WorkerApi]: (
    ...args: Parameters<WorkerApi[K]>
  ) => Promise<Reply<Awaited<ReturnType<WorkerApi[K]>>>>;
};

/** The worker's functions (see `worker-api.ts`). */
export interface WorkerApi {
  /**
   * Opens the store and loads the model, beside each other or the model first (see
   * `OpenMemoryOptions.onReady`); resolves once the store is open. `onChange` hears every change
   * the store commits until the worker closes.
   */
  open(
    options: WorkerOpenOptions,
    onProgress?: (event: ProgressEvent) => void,
    onReady?: (part: ReadyPart) => void,
    onChange?: (change: StoreChange) => void,
  ): Promise<OpenInfo>;
  /**
   * Runs one engine method. `stats` is extended with the browser's storage figures. A write with
   * an `operation` id is applied at most once per id (`Engine.once`): a follower's write re-sent
   * to a new owner is answered, not applied again.
   */
  call<K extends EngineMethod>(
    method: K,
    args: MethodArgs<K>,
    onProgress?: (event: ProgressEvent) => void,
    operation?: string,
  ): Promise<K extends 'stats' ? MemoryStats : MethodResult<K>>;
  /** Closes the engine (waits for calls in flight) and disposes the model. */
  close(): Promise<void>;
  /**
   * Salvages a store no worker has open (see `recoverMemory`); with `restore`, then opens the
   * emptied store with `options` and imports what was salvaged, and closes it.
   */
  recover(
    options: WorkerOpenOptions,
    restore: boolean,
    onProgress?: (event: ProgressEvent) => void,
  ): Promise<OpfsRecoverResult>;
  /** Deletes a store no worker has open (see `deleteMemory`); false when there was none. */
  delete(options: WorkerOpenOptions): Promise<boolean>;
}
