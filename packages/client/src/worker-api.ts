/**
 * What the dedicated worker exposes through Comlink: open (the store, retrying while a previous
 * owner still holds its files, and the model beside it or before it), one generic `call` per
 * engine method, close.
 * Runs in any realm with an engine (a browser worker; Node in the unit tests).
 */
import {
  AnamnesisError,
  createEngine,
  createModelEmbedder,
  isAnamnesisError,
  isStaticModel,
  deleteOpfsStore,
  WRITE_METHODS,
  recoverOpfsStore,
  type Embedder,
  type Engine,
  type ProgressEvent,
  type StoreChange,
  type WriteMethod,
} from '@anamnesis/engine';
import * as Comlink from 'comlink';

import { reply } from './wire.ts';
import type {
  EngineMethod,
  RemoteWorkerApi,
  MemoryStats,
  MethodArgs,
  OpenInfo,
  ReadyPart,
  WorkerApi,
  WorkerOpenOptions,
} from './api.ts';
import { ENGINE_ARITY, isEngineMethod, PROGRESS_ARG } from './api.ts';

/**
 * The engine methods a worker runs, each written out: a call never reaches the engine by an
 * arbitrary property name.
 */
const ENGINE_CALLS: { [K in EngineMethod]: (engine: Engine, args: MethodArgs<K>) => unknown } = {
  remember: (e, a) => e.remember(...a),
  rememberMany: (e, a) => e.rememberMany(...a),
  get: (e, a) => e.get(...a),
  list: (e, a) => e.list(...a),
  update: (e, a) => e.update(...a),
  forget: (e, a) => e.forget(...a),
  link: (e, a) => e.link(...a),
  unlink: (e, a) => e.unlink(...a),
  supersede: (e, a) => e.supersede(...a),
  unsupersede: (e, a) => e.unsupersede(...a),
  history: (e, a) => e.history(...a),
  augment: (e, a) => e.augment(...a),
  learn: (e, a) => e.learn(...a),
  markUsed: (e, a) => e.markUsed(...a),
  pin: (e, a) => e.pin(...a),
  setDeviceUsage: (e, a) => e.setDeviceUsage(...a),
  recall: (e, a) => e.recall(...a),
  export: (e, a) => e.export(...a),
  import: (e, a) => e.import(...a),
  stats: (e) => e.stats(),
  verify: (e) => e.verify(),
  changePassphrase: (e, a) => e.changePassphrase(...a),
  checkEncryption: (e, a) => e.checkEncryption(...a),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Comlink proxy of a callback is released once the call it belongs to is over. */
function release(callback: unknown): void {
  const releaser = (callback as { [Comlink.releaseProxy]?: () => void } | undefined)?.[
    Comlink.releaseProxy
  ];
  if (typeof releaser === 'function') releaser.call(callback);
}

/**
 * Sends progress events to the caller's callback (a Comlink proxy: each call is a message on its
 * own port) without waiting for each; `delivered()` waits for the last one, so a call's progress
 * events all arrive before its result (which travels on another port).
 */
function forwarder<E = ProgressEvent>(
  callback: ((event: E) => unknown) | undefined,
): { send: (event: E) => void; delivered: () => Promise<void> } | undefined {
  if (!callback) return undefined;
  let last: Promise<unknown> = Promise.resolve();
  return {
    send: (event) => {
      last = Promise.resolve(callback(event)).catch(() => undefined);
    },
    delivered: () => last.then(() => undefined),
  };
}

/** The browser's storage figures (persisted, usage, quota), where it has them. */
async function storageFigures(): Promise<Pick<MemoryStats, 'persisted' | 'usage' | 'quota'>> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  const out: Pick<MemoryStats, 'persisted' | 'usage' | 'quota'> = { persisted: null };
  if (!storage) return out;
  try {
    out.persisted = await storage.persisted();
  } catch {
    // unknown
  }
  try {
    const estimate = await storage.estimate();
    if (estimate.usage !== undefined) out.usage = estimate.usage;
    if (estimate.quota !== undefined) out.quota = estimate.quota;
  } catch {
    // unknown
  }
  return out;
}

/**
 * Counts OPFS writes refused for lack of space: a sync access handle's `write` or `truncate`
 * throwing `QuotaExceededError`, or a `write` that did not write all it was given (Chromium 156
 * at the quota returns 2^32 − 8: its "no space" error code, −8, as an unsigned count).
 * opfs-sahpool turns either into a generic SQLite I/O error, so a call that fails while this count
 * moved is a full disk, reported as `QUOTA_EXCEEDED` (SQLite has rolled the transaction back).
 *
 * Why a wrapper on the handle's prototype, in this worker only: the platform gives no other clean
 * signal. opfs-sahpool keeps the thrown error in its pool (`storeErr`) and SQLite takes it back
 * through the VFS's `xGetLastError` while handling the failure, so only `SQLITE_IOERR` and a
 * message reach the engine; Chromium's short write at the quota throws nothing at all; and
 * `navigator.storage.estimate()` is rounded and may lag behind the write that failed. The wrapper
 * only counts: it changes no argument, result or exception.
 */
const quota = { errors: 0, installed: false };
function watchQuota(): void {
  if (quota.installed) return;
  quota.installed = true;
  const Handle = (globalThis as { FileSystemSyncAccessHandle?: { prototype: object } })
    .FileSystemSyncAccessHandle;
  if (!Handle) return;
  const proto = Handle.prototype as Record<string, unknown>;
  for (const name of ['write', 'truncate']) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      let result: unknown;
      try {
        result = (original as (...a: unknown[]) => unknown).apply(this, args);
      } catch (e) {
        if ((e as { name?: string } | null)?.name === 'QuotaExceededError') quota.errors++;
        throw e;
      }
      const data = args[0] as ArrayBufferView | undefined;
      if (name === 'write' && data && result !== data.byteLength) quota.errors++;
      return result;
    };
  }
}

/** Whether a model asked to run on `device` may try WebGPU in this realm. */
function mayUseWebGpu(device: string | undefined): boolean {
  if (device === 'wasm' || device === 'cpu') return false;
  return !!(globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu;
}

/** Test only: ONNX Runtime's own `requestAdapter()` calls get no adapter (see `WorkerOpenOptions`). */
function breakWebGpu(): void {
  const gpu = (
    globalThis as {
      navigator?: { gpu?: { requestAdapter(o?: unknown): Promise<unknown> } };
    }
  ).navigator?.gpu;
  if (!gpu) return;
  const real = gpu.requestAdapter.bind(gpu);
  let calls = 0;
  gpu.requestAdapter = (options) => (calls++ === 0 ? real(options) : Promise.resolve(null));
}

/** ArrayBuffers of the typed arrays in a result (two levels deep), to transfer instead of copy. */
function buffersOf(value: unknown, depth = 0, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    // Only whole, plain buffers: never a view into a bigger one (a wasm heap, a pool).
    if (buffer instanceof ArrayBuffer && buffer.byteLength === value.byteLength) out.add(buffer);
  } else if (depth < 2 && value !== null && typeof value === 'object') {
    for (const v of Array.isArray(value) ? value : Object.values(value))
      buffersOf(v, depth + 1, out);
  }
  return [...out];
}

/**
 * Runs `attempt` until it does not fail with `STORE_LOCKED` or `ms` have passed: the previous
 * owner's worker may still hold the store's files for a moment after it was terminated.
 */
async function whileLocked<T>(ms: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + ms;
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    try {
      return await attempt();
    } catch (e) {
      if (!isAnamnesisError(e, 'STORE_LOCKED') || performance.now() + delay > deadline) throw e;
      await sleep(delay);
    }
  }
}

/** Creates the API a worker exposes (one engine per worker). */
export function createWorkerApi(): WorkerApi {
  let engine: Engine | undefined;
  let embedder: Embedder | undefined;
  let opening: Promise<OpenInfo> | undefined;
  let closed = false;

  function ready(): Engine {
    if (closed) throw new AnamnesisError('CLOSED');
    if (!engine) throw new AnamnesisError('INTERNAL', 'the worker has not opened a store');
    return engine;
  }

  async function open(
    options: WorkerOpenOptions,
    onProgress?: (event: ProgressEvent) => void,
    onReady?: (part: ReadyPart) => void,
    onChange?: (change: StoreChange) => void,
  ): Promise<OpenInfo> {
    const start = performance.now();
    watchQuota();
    if (options.simulateWebGpuFailure) breakWebGpu();
    const forward = forwarder(onProgress);
    const progress = forward?.send;
    const ready = forwarder(onReady);
    const model = options.embedder === 'tfidf' ? undefined : options.embedder;
    // The store opens while the model loads (`beside`), unless the model may need a fresh worker
    // (a WebGPU session of ONNX Runtime that fails can poison the worker's runtime; a static model
    // runs in plain JavaScript) or WebGPU was asked for (loaded first, so that the open says where
    // it runs, wasm where there is no adapter). Beside it, an open asked for model first
    // (`openMemory`) still answers once the model is ready; otherwise (`connectMemory`) recalls
    // meanwhile are lexical and `partial`, writes are embedded once it is ready.
    const beside =
      model !== undefined &&
      model.device !== 'webgpu' &&
      (!mayUseWebGpu(model.device) || (await isStaticModel(model)));
    const early = beside && !options.modelFirst;
    let loading: Promise<Embedder> | undefined;
    let waitingForModel = false;
    let failed = false;
    // Early, the store opens first and the model loads once it is open: both share the worker's
    // thread, and the store's open would otherwise wait for the model's parsing, so recalls asked
    // meanwhile would wait too instead of answering from the lexical legs.
    let startModel: () => void = () => undefined;
    const modelGate = early ? new Promise<void>((go) => (startModel = go)) : undefined;
    try {
      if (model) {
        loading = modelGate
          ? modelGate.then(() => createModelEmbedder({ ...model, onProgress: progress }))
          : createModelEmbedder({ ...model, onProgress: progress });
        loading.then(
          (e) => {
            if (closed || failed) void e.dispose?.().catch(() => undefined);
            else embedder = e;
          },
          () => undefined, // the engine's `model` rejects with it
        );
        if (!beside) {
          await loading;
          ready?.send('model');
        }
      }
      const modelDone = performance.now();
      let attempts = 0;
      engine = await whileLocked(options.lockRetryMs, () => {
        attempts++;
        return createEngine({
          name: options.name,
          storage: options.storage,
          embedder: beside ? loading! : (embedder ?? 'tfidf'),
          onModelMismatch: options.onModelMismatch,
          // Kept until the worker closes (never released): every committed change, in order.
          ...(onChange ? { onChange: forwarder(onChange)!.send } : {}),
          ...(options.pageCacheMb !== undefined ? { pageCacheMb: options.pageCacheMb } : {}),
          ...(options.encryption !== undefined ? { encryption: options.encryption } : {}),
          onProgress: progress,
        });
      });
      startModel();
      if (beside && !early) {
        await engine.model; // a model that fails (or does not fit the store) fails the open
        ready?.send('model');
      }
      const about = engine.about; // not `stats()`: its counts read the store, which an open need not
      if (!model) ready?.send('model'); // TF-IDF: fitted as the store opened
      ready?.send('store');
      if (early) {
        waitingForModel = true;
        // A model that fails sends nothing: recalls stay `partial` and say why.
        void engine.model
          .then(
            () => ready?.send('model'),
            () => undefined,
          )
          .then(async () => {
            // Released once every event sent has been answered (a proxy released with a call in
            // flight leaves that call unanswered).
            await forward?.delivered();
            await ready?.delivered();
            release(onProgress);
            release(onReady);
          });
      }
      await forward?.delivered();
      await ready?.delivered();
      return {
        device: embedder?.device ?? (early ? (model.device ?? 'auto') : 'none'),
        ...(embedder?.runtime ? { runtime: embedder.runtime } : {}),
        ...(embedder?.selection ? { selection: embedder.selection } : {}),
        backend: about.backend,
        ...(about.backendReason ? { backendReason: about.backendReason } : {}),
        model: { id: model?.model ?? about.model.id, dims: about.model.dims },
        openMs: performance.now() - start,
        timings: {
          modelMs: modelDone - start,
          storeMs: performance.now() - modelDone,
          ...engine.openTimings,
        },
        lockRetries: attempts - 1,
      };
    } catch (e) {
      failed = true; // a model still loading is disposed when it arrives
      await engine?.close().catch(() => undefined);
      engine = undefined;
      await embedder?.dispose?.().catch(() => undefined);
      embedder = undefined;
      throw e;
    } finally {
      if (!waitingForModel) {
        release(onProgress);
        release(onReady);
      }
    }
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await opening?.catch(() => undefined);
    try {
      await engine?.close();
    } finally {
      await embedder?.dispose?.().catch(() => undefined);
      engine = undefined;
      embedder = undefined;
    }
  }

  return {
    open(options, onProgress, onReady, onChange) {
      if (opening) return Promise.reject(new AnamnesisError('INVALID_INPUT', 'already opened'));
      opening = open(options, onProgress, onReady, onChange);
      return opening;
    },

    async call<K extends EngineMethod>(
      method: K,
      args: MethodArgs<K>,
      onProgress?: (event: ProgressEvent) => void,
      operation?: string,
    ) {
      // Only the engine's forwarded methods, by an own key of the allowlist: never `close`,
      // `once` or a prototype member, whatever name reaches the worker.
      if (!isEngineMethod(method)) {
        throw new AnamnesisError(
          'UNSUPPORTED',
          `${typeof method === 'string' ? JSON.stringify(String(method).slice(0, 64)) : typeof method} is not a method the worker runs`,
        );
      }
      if (!Array.isArray(args) || args.length > ENGINE_ARITY[method]) {
        throw new AnamnesisError(
          'INVALID_INPUT',
          `${method}: args must be an array of its arguments`,
        );
      }
      if (operation !== undefined && (typeof operation !== 'string' || operation.length === 0)) {
        throw new AnamnesisError(
          'INVALID_INPUT',
          `${method}: operation must be a non-empty string`,
        );
      }
      const target = ready();
      const list = [...args] as unknown[];
      const at = PROGRESS_ARG[method];
      const progress = forwarder(onProgress);
      if (progress && at !== undefined) {
        const options = (list[at] ?? {}) as Record<string, unknown>;
        list[at] = { ...options, onProgress: progress.send };
      }
      const quotaBefore = quota.errors;
      try {
        let result =
          // a write that is one transaction is applied at most once per operation id; the others
          // (`learn`, which reads and embeds before it writes and skips facts already stored;
          // `changePassphrase`) run as sent
          operation !== undefined && Object.hasOwn(WRITE_METHODS, method)
            ? await target.once(operation, method as WriteMethod, list as never)
            : await (ENGINE_CALLS[method] as (e: Engine, a: unknown[]) => Promise<unknown>)(
                target,
                list,
              );
        await progress?.delivered();
        if (method === 'stats') result = { ...(result as object), ...(await storageFigures()) };
        return result as never;
      } catch (e) {
        if (quota.errors !== quotaBefore && !isAnamnesisError(e, 'QUOTA_EXCEEDED')) {
          throw new AnamnesisError('QUOTA_EXCEEDED', `${method}: the browser refused to write`, {
            cause: e,
          });
        }
        throw e;
      } finally {
        release(onProgress);
      }
    },

    async recover(options, restore, onProgress) {
      if (opening) throw new AnamnesisError('INVALID_INPUT', 'this worker has a store open');
      const result = await whileLocked(options.lockRetryMs, () =>
        recoverOpfsStore(options.name, { reset: restore }),
      );
      if (restore) {
        opening = open(options);
        await opening;
        const progress = forwarder(onProgress);
        try {
          await ready().import(result.jsonl, progress ? { onProgress: progress.send } : {});
          await progress?.delivered();
        } finally {
          release(onProgress);
          await close();
        }
      }
      return result;
    },

    async delete(options) {
      if (opening) throw new AnamnesisError('INVALID_INPUT', 'this worker has a store open');
      return whileLocked(options.lockRetryMs, () => deleteOpfsStore(options.name));
    },

    close,
  };
}

/**
 * The worker API as the worker exposes it: every function answers with a {@link Reply} (its value,
 * or its error as plain data), so errors keep their codes without any global Comlink handler; the
 * typed arrays of a value are transferred, not copied.
 */
export function answering(api: WorkerApi): RemoteWorkerApi {
  const out = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of Object.keys(api) as (keyof WorkerApi)[]) {
    out[name] = async (...args) => {
      const answer = await reply(() =>
        (api[name] as (...a: unknown[]) => Promise<unknown>).apply(api, args),
      );
      const buffers = answer.ok ? buffersOf(answer.value) : [];
      return buffers.length ? Comlink.transfer(answer, buffers) : answer;
    };
  }
  return out as unknown as RemoteWorkerApi;
}
