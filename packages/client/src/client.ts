/**
 * `openMemory`: the engine in a dedicated module worker behind Comlink, one owner tab per store.
 *
 * - The tab that gets the store's Web Lock (`anamnesis:<name>`) is the owner: its worker opens the
 *   store (OPFS). Other tabs are followers: they forward calls over a BroadcastChannel of the same
 *   name and wait in the lock's queue. When the owner tab goes, the next tab in the queue starts
 *   its own worker, opens the store (retrying while the old worker's files are released) and
 *   announces itself.
 * - Calls made before the store is open (right after `connectMemory`, or during an owner
 *   hand-over) wait, in order, and run when it is; their deadline starts then.
 * - A call in flight during a hand-over is sent again to the new owner: a read as it is, a write
 *   with the operation id it was first sent with, so the new owner applies it at most once (the
 *   store records each forwarded write's id and reply in the write's own transaction) and the
 *   caller gets its real answer. Nothing settles silently: every call resolves, rejects, or times
 *   out.
 * - Errors keep their `code` across both boundaries (`wire.ts`); every call has a deadline.
 */
import type { OpfsRecoverResult, ProgressEvent } from '@anamnesis/engine';
import { MODEL_ID } from '@anamnesis/model-default';
import { AnamnesisError, isAnamnesisError } from '@anamnesis/ranking';
import * as Comlink from 'comlink';

import {
  ENGINE_METHODS,
  PROGRESS_ARG,
  type ClientDevice,
  type ClientStorage,
  type EngineApi,
  type EngineMethod,
  type MemoryStats,
  type OpenInfo,
  type ReadyPart,
  type WorkerApi,
  type WorkerOpenOptions,
} from './api.ts';
import { fromWireError, registerErrorTransfer, toWireError, type WireError } from './wire.ts';

/** URLs (absolute, or relative to the page) where the app serves the files the worker needs. */
export interface AssetUrls {
  /**
   * Root of the local models, holding `<model id>/config.json`, `…/tokenizer.json`,
   * `…/onnx/*.onnx` (what `@anamnesis/client/vite` serves). Default `'/models/'`.
   */
  models?: string;
  /**
   * Folder of ONNX Runtime's wasm files (`ort-wasm-simd-threaded[.asyncify].{mjs,wasm}`) of the
   * exact onnxruntime-web version that `@huggingface/transformers` depends on. Default `'/ort/'`.
   */
  ort?: string;
  /**
   * URL of the worker module: the app's own bundle of `@anamnesis/client/worker`, for a build
   * without Vite (esbuild, Rollup…; see the package README). Default: the worker next to this
   * module (`new URL('./worker.js', import.meta.url)`), which Vite bundles by itself.
   */
  worker?: string | URL;
}

/** Options of {@link openMemory}. */
export interface OpenMemoryOptions {
  /** Store name: one store (and one owner tab) per name; letters, digits, `.`, `-`, `_`. Default `'anamnesis'`. */
  name?: string;
  /**
   * `'opfs'` (fails with `UNSUPPORTED` where OPFS is missing), `'memory'` (a private store per tab,
   * lost on reload; no multi-tab), or `'auto'`: OPFS when it works, else memory, and
   * `stats().backendReason` says why. Default `'auto'`.
   */
  storage?: ClientStorage;
  /** Where the app serves the model and ONNX Runtime files. Defaults: `'/models/'`, `'/ort/'`. */
  assets?: AssetUrls;
  /**
   * Embedding model id, a folder under `assets.models` (or on `remoteHost`), or `'tfidf'` for the
   * zero-model TF-IDF backend (no model or ONNX Runtime is loaded). Default: the embedded default
   * model.
   */
  model?: string;
  /**
   * `'wasm'`, `'webgpu'`, or `'auto'` (loads both, keeps the faster after a short warm-up). When
   * WebGPU fails to create a session, the client starts a fresh worker on `'wasm'` (and
   * `info.fellBackFrom` says why). Default: `'wasm'` for the default model (a table lookup gains
   * nothing from a GPU), `'auto'` for any other model.
   */
  device?: ClientDevice;
  /**
   * A hub-like host to download models from (e.g. `'https://models.example.com/'`). Default: none,
   * and nothing is ever fetched from another origin.
   */
  remoteHost?: string;
  /**
   * ONNX Runtime wasm threads. Default: 1 where the page is not cross-origin isolated (e.g. an
   * extension page, which has `SharedArrayBuffer` but whose CSP forbids the blob: workers threads
   * need), else ONNX Runtime's default.
   */
  threads?: number;
  /** Ask for persistent storage (`navigator.storage.persist()`) before opening. Default `false`. */
  persist?: boolean;
  /**
   * Deadline of each call, in milliseconds: a call with no answer (and no progress event) for this
   * long rejects with `TIMEOUT`, e.g. when the worker died. `0` turns deadlines off. Default 30,000.
   */
  timeoutMs?: number;
  /** Deadline of opening (worker start, model load, store open, waiting for an owner), in ms. Default 120,000. */
  openTimeoutMs?: number;
  /**
   * How long a new owner keeps retrying a store whose files the previous owner's worker still
   * holds, in ms, before `STORE_LOCKED`. Default 10,000.
   */
  lockRetryMs?: number;
  /** When the store was embedded with another model: `'error'` (`MODEL_MISMATCH`) or `'reembed'`. Default `'error'`. */
  onModelMismatch?: 'error' | 'reembed';
  /** Progress of the model load and of a re-embedding (per-call progress: `rememberMany`/`import` options). */
  onProgress?: (event: ProgressEvent) => void;
  /** Called when this tab's role changes (a follower took over as owner). */
  onRoleChange?: (role: Role) => void;
  /**
   * Never own the store: always forward to the tab (or extension document) that does, waiting
   * for one to announce itself, and never take over when it goes. For short-lived pages (an
   * extension's popup) beside one long-lived owner. Needs Web Locks and BroadcastChannel.
   * Default `false`.
   */
  follow?: boolean;
  /**
   * Called when the client's state changes: `'ready'` once the store is open (calls run),
   * `'failed'` (with the error) when it could not be opened, `'closed'` after `close()`.
   */
  onStateChange?: (state: MemoryState, error?: unknown) => void;
  /**
   * Called as each part becomes ready, for an app to show: `'model'` (the embedding model is
   * loaded, or the TF-IDF backend is fitted), then `'store'` (the store is open). In a follower
   * tab both arrive when it finds the owner.
   */
  onReady?: (part: ReadyPart) => void;
  /** @internal Test only: make WebGPU session creation fail in the worker (to test the wasm fallback). */
  simulateWebGpuFailure?: boolean;
}

/**
 * A client's state: `'opening'` (calls wait, in order), `'ready'`, `'failed'` (every call rejects
 * with the opening error), `'closed'`.
 */
export type MemoryState = 'opening' | 'ready' | 'failed' | 'closed';

/** Whether this tab hosts the store (`'owner'`) or forwards to the tab that does (`'follower'`). */
export type Role = 'owner' | 'follower';

/** Device, backend and model of the store, as opened by the owner's worker. */
export interface MemoryInfo extends OpenInfo {
  /** This tab's role. */
  role: Role;
  /** Set when WebGPU failed in a first worker and a fresh one runs on wasm. */
  fellBackFrom?: { code: string; message: string };
}

/** The engine's methods as the client offers them (`stats` adds the browser's storage figures). */
export type MemoryApi = Omit<EngineApi, 'stats'> & {
  /** Counts, model, backend (`'opfs'`, or `'memory'` and why), persisted, usage and quota. */
  stats(): Promise<MemoryStats>;
};

const asyncDispose: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ??
  (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose);

/** A store opened by {@link openMemory}. */
export interface MemoryClient extends MemoryApi {
  /** The store name. */
  readonly name: string;
  /** This tab's current role (a follower becomes the owner when the owner tab goes). */
  readonly role: Role;
  /** Device, backend and model, as the owner opened them (throws `CLOSED` before `ready`). */
  readonly info: MemoryInfo;
  /** Resolves when the store is open and calls run; rejects with the error when it cannot open. */
  readonly ready: Promise<void>;
  /** Where the client is: see {@link MemoryState}. */
  readonly state: MemoryState;
  /** Which parts are ready (see `onReady`). */
  readonly readiness: Readonly<Record<ReadyPart, boolean>>;
  /**
   * Waits for calls in flight, closes the store and the worker, and hands ownership to the next
   * tab. Idempotent; later calls reject with `CLOSED`.
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
  /** Test hooks; not for apps. */
  readonly debug: {
    /** This tab's id in the multi-tab protocol. */
    readonly tabId: string;
    /**
     * Terminates the owner's worker without telling anyone, as a crash would: calls in flight
     * then reject with `TIMEOUT`. Returns false in a follower (no worker).
     */
    terminateWorker(): boolean;
  };
}

// ---------------------------------------------------------------------------------------------
// The environment (browser globals by default; injected by the Node tests)

/** A started worker: a Comlink endpoint that can be terminated. */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

/** The part of `BroadcastChannel` used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** What `openMemory` needs from its realm. */
export interface ClientEnvironment {
  createWorker(): WorkerLike;
  /** Web Locks; without them every tab owns its store (a second one gets `STORE_LOCKED`). */
  locks: LockManagerLike | undefined;
  createChannel: ((name: string) => ChannelLike) | undefined;
  /** Base URL for relative asset URLs (the page's). */
  baseUrl: string | undefined;
  /** `navigator.storage.persist()`. */
  persist: (() => Promise<boolean>) | undefined;
}

function browserEnvironment(workerUrl?: string | URL): ClientEnvironment {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  return {
    // `./worker.js` also in the sources: the built file's name; Vite finds `worker.ts` for it.
    createWorker: () =>
      workerUrl === undefined
        ? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
        : new Worker(workerUrl, { type: 'module' }),
    locks: nav?.locks as LockManagerLike | undefined,
    createChannel:
      typeof BroadcastChannel === 'function' ? (name) => new BroadcastChannel(name) : undefined,
    baseUrl: (globalThis as { location?: Location }).location?.href,
    persist: nav?.storage?.persist ? () => nav.storage.persist() : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Deadlines

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_OPEN_TIMEOUT_MS = 120_000;
const DEFAULT_LOCK_RETRY_MS = 10_000;

/**
 * Runs `start` with a deadline of `ms` (0: none); `start` gets a `touch` that restarts the clock
 * (progress is a sign of life).
 */
function withDeadline<T>(
  ms: number,
  what: string,
  start: (touch: () => void) => Promise<T>,
  startClock = true,
): Promise<T> {
  if (!(ms > 0) || ms === Infinity) return start(() => undefined);
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          reject(
            new AnamnesisError('TIMEOUT', `${what}: no answer for ${ms} ms`, {
              details: { call: what, ms },
            }),
          ),
        ms,
      );
    };
    if (startClock) touch();
    start(touch).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The owner's worker

/** Splits a `{ onProgress }` callback off a method's options argument (functions do not clone). */
function splitProgress(
  method: EngineMethod,
  args: readonly unknown[],
): { args: unknown[]; onProgress: ((e: ProgressEvent) => void) | undefined } {
  const at = PROGRESS_ARG[method];
  const list = [...args];
  const options = at === undefined ? undefined : list[at];
  if (
    at === undefined ||
    !options ||
    typeof options !== 'object' ||
    typeof (options as { onProgress?: unknown }).onProgress !== 'function'
  ) {
    return { args: list, onProgress: undefined };
  }
  const { onProgress, ...rest } = options as { onProgress: (e: ProgressEvent) => void };
  list[at] = rest;
  return { args: list, onProgress };
}

/** One started worker with its engine open. */
class WorkerHost {
  readonly info: OpenInfo;
  readonly fellBackFrom: { code: string; message: string } | undefined;
  readonly #worker: WorkerLike;
  readonly #remote: Comlink.Remote<WorkerApi>;
  readonly #timeoutMs: number;

  private constructor(
    worker: WorkerLike,
    remote: Comlink.Remote<WorkerApi>,
    info: OpenInfo,
    timeoutMs: number,
    fellBackFrom: { code: string; message: string } | undefined,
  ) {
    this.#worker = worker;
    this.#remote = remote;
    this.info = info;
    this.#timeoutMs = timeoutMs;
    this.fellBackFrom = fellBackFrom;
  }

  /** Starts a worker and opens the store in it; on a poisoned WebGPU, retries in a fresh worker on wasm. */
  static async start(
    env: ClientEnvironment,
    open: WorkerOpenOptions,
    settings: Settings,
  ): Promise<WorkerHost> {
    try {
      return await WorkerHost.#launch(env, open, settings, undefined);
    } catch (e) {
      if (
        !isAnamnesisError(e, 'UNSUPPORTED') ||
        e.details?.freshWorker !== true ||
        open.embedder === 'tfidf'
      )
        throw e;
      const wasm: WorkerOpenOptions = {
        ...open,
        embedder: { ...open.embedder, device: 'wasm', wasmPaths: plainRuntime(settings.ort) },
        simulateWebGpuFailure: false,
      };
      return WorkerHost.#launch(env, wasm, settings, { code: e.code, message: e.message });
    }
  }

  static async #launch(
    env: ClientEnvironment,
    open: WorkerOpenOptions,
    settings: Settings,
    fellBackFrom: { code: string; message: string } | undefined,
  ): Promise<WorkerHost> {
    const worker = env.createWorker();
    const remote = Comlink.wrap<WorkerApi>(worker);
    let onError: ((event: Event) => void) | undefined;
    try {
      const failed = new Promise<never>((_, reject) => {
        onError = (event: Event) =>
          reject(
            new AnamnesisError(
              'INTERNAL',
              `the worker failed to start: ${(event as ErrorEvent).message ?? 'error event'}`,
            ),
          );
        worker.addEventListener('error', onError);
      });
      const { onProgress, onReady } = settings;
      const info = await withDeadline(settings.openTimeoutMs, 'open', (touch) =>
        Promise.race([
          remote.open(
            open,
            onProgress
              ? Comlink.proxy((event: ProgressEvent) => {
                  touch();
                  onProgress(event);
                })
              : undefined,
            onReady
              ? Comlink.proxy((part: ReadyPart) => {
                  touch();
                  onReady(part);
                })
              : undefined,
          ),
          failed,
        ]),
      );
      return new WorkerHost(worker, remote, info, settings.timeoutMs, fellBackFrom);
    } catch (e) {
      worker.terminate();
      throw e;
    } finally {
      if (onError) worker.removeEventListener('error', onError);
    }
  }

  /** Runs one engine method in the worker, with the call deadline. */
  call(
    method: EngineMethod,
    args: unknown[],
    onProgress: ((e: ProgressEvent) => void) | undefined,
    operation?: string,
  ): Promise<unknown> {
    const call = this.#remote.call as unknown as (
      method: EngineMethod,
      args: unknown[],
      onProgress?: unknown,
      operation?: string,
    ) => Promise<unknown>;
    return withDeadline(this.#timeoutMs, method, (touch) =>
      call(
        method,
        args,
        onProgress
          ? Comlink.proxy((event: ProgressEvent) => {
              touch();
              onProgress(event);
            })
          : undefined,
        operation,
      ),
    );
  }

  /** Closes the engine (bounded by the call deadline), then terminates the worker. */
  async close(): Promise<void> {
    try {
      await withDeadline(this.#timeoutMs || DEFAULT_TIMEOUT_MS, 'close', () =>
        this.#remote.close(),
      );
    } finally {
      this.terminate();
    }
  }

  terminate(): void {
    this.#worker.terminate();
  }
}

/** The wasm-only ONNX Runtime build's files in the `ort` folder (smaller and faster to start). */
function plainRuntime(ort: string): { mjs: string; wasm: string } {
  return { mjs: `${ort}ort-wasm-simd-threaded.mjs`, wasm: `${ort}ort-wasm-simd-threaded.wasm` };
}

// ---------------------------------------------------------------------------------------------
// Tabs

/**
 * Version of the tab protocol. Every message carries it as `v`; a tab ignores messages of another
 * version (two versions of an app open at once do not share a store's owner).
 */
const PROTOCOL_VERSION = 2;

/** Messages between the tabs of one store, on BroadcastChannel `anamnesis:<name>`. */
type TabMessage = { v: number } & TabBody;

type TabBody =
  | { t: 'hello'; from: string }
  | { t: 'owner'; from: string; info: OpenInfo; fellBackFrom?: { code: string; message: string } }
  | { t: 'bye'; from: string }
  | {
      t: 'call';
      from: string;
      to: string;
      id: number;
      method: EngineMethod;
      args: unknown[];
      progress: boolean;
      /** A write's operation id: the owner applies it at most once. */
      op?: string;
    }
  | { t: 'progress'; to: string; id: number; event: ProgressEvent }
  | { t: 'result'; from: string; to: string; id: number; ok: true; value: unknown }
  | { t: 'result'; from: string; to: string; id: number; ok: false; error: WireError }
  | { t: 'retry'; from: string; to: string; id: number };

/** A follower's call waiting for the owner's answer. */
interface Forwarded {
  id: number;
  /** A write's operation id (the same on every send). */
  op: string | undefined;
  method: EngineMethod;
  args: unknown[];
  onProgress: ((e: ProgressEvent) => void) | undefined;
  /** The owner it was sent to (undefined: not sent yet, or safe to send again). */
  to: string | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  touch(): void;
}

/** Resolved options. */
interface Settings {
  name: string;
  timeoutMs: number;
  openTimeoutMs: number;
  ort: string;
  onProgress: ((e: ProgressEvent) => void) | undefined;
  onRoleChange: ((role: Role) => void) | undefined;
  onReady: ((part: ReadyPart) => void) | undefined;
  follow: boolean;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function randomId(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

class Client {
  readonly name: string;
  readonly tabId = randomId();
  readonly #env: ClientEnvironment;
  readonly #open: WorkerOpenOptions;
  readonly #settings: Settings;
  readonly #channel: ChannelLike | undefined;
  readonly #lockAbort = new AbortController();
  /** Set once this tab is (becoming) the owner: resolves to its worker. */
  #host: Promise<WorkerHost> | undefined;
  #hostValue: WorkerHost | undefined;
  /** Releases the Web Lock (owner). */
  #releaseLock: (() => void) | undefined;
  /** Follower: the owner's tab id and what it opened. */
  #ownerId: string | undefined;
  #ownerInfo: { info: OpenInfo; fellBackFrom?: { code: string; message: string } } | undefined;
  #ownerKnown = deferred<undefined>();
  readonly #forwarded = new Map<number, Forwarded>();
  #nextId = 1;
  /** Calls this tab is running for itself or for followers (close waits for them). */
  readonly #inflight = new Set<Promise<unknown>>();
  /** Settles when this client's last write has been answered. */
  #lastWrite: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | undefined;
  #failed: unknown;
  /** Which parts of the store are ready (see `OpenMemoryOptions.onReady`). */
  readonly readiness: Record<ReadyPart, boolean> = { model: false, store: false };

  constructor(env: ClientEnvironment, open: WorkerOpenOptions, settings: Settings) {
    this.#env = env;
    this.#open = open;
    const onReady = settings.onReady;
    this.#settings = {
      ...settings,
      onReady: (part) => {
        if (this.readiness[part]) return; // a fresh worker after a WebGPU failure says it again
        this.readiness[part] = true;
        onReady?.(part);
      },
    };
    this.name = settings.name;
    const shared = open.storage !== 'memory' && env.locks && env.createChannel;
    this.#channel = shared ? env.createChannel!(`anamnesis:${this.name}`) : undefined;
    this.#channel?.addEventListener('message', (event) =>
      this.#onMessage(event.data as TabMessage),
    );
  }

  get role(): Role {
    return this.#host ? 'owner' : 'follower';
  }

  get info(): MemoryInfo {
    const source = this.#hostValue
      ? { info: this.#hostValue.info, fellBackFrom: this.#hostValue.fellBackFrom }
      : this.#ownerInfo;
    if (!source) throw new AnamnesisError('CLOSED', 'the store is not open');
    return {
      ...source.info,
      role: this.role,
      ...(source.fellBackFrom ? { fellBackFrom: source.fellBackFrom } : {}),
    };
  }

  /** Elects this tab owner or follower and waits until the store can be used. */
  async start(): Promise<void> {
    const locks = this.#env.locks;
    if (!this.#channel || !locks) {
      if (this.#settings.follow)
        throw new AnamnesisError(
          'UNSUPPORTED',
          "follow needs Web Locks, BroadcastChannel and a shared store (not storage: 'memory')",
        );
      await this.#becomeOwner();
      return;
    }
    const lockName = `anamnesis:${this.name}`;
    if (this.#settings.follow) {
      // Never an owner: find the one there is (or wait for it), and never queue for the lock.
      this.#post({ t: 'hello', from: this.tabId });
      await withDeadline(
        this.#settings.openTimeoutMs,
        'waiting for the owner',
        () => this.#ownerKnown.promise,
      );
      return;
    }
    const granted = await new Promise<boolean>((resolve, reject) => {
      locks
        .request(lockName, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(false);
            return Promise.resolve();
          }
          resolve(true);
          return new Promise<void>((release) => (this.#releaseLock = release));
        })
        .catch(reject);
    });
    if (granted) {
      await this.#becomeOwner();
      return;
    }
    // A follower: queue for the lock (taking over when the owner goes), find the owner.
    locks
      .request(lockName, { signal: this.#lockAbort.signal }, () => {
        if (this.#closing) return Promise.resolve();
        const held = new Promise<void>((release) => (this.#releaseLock = release));
        void this.#promote();
        return held;
      })
      .catch(() => undefined); // aborted by close()
    this.#post({ t: 'hello', from: this.tabId });
    await withDeadline(
      this.#settings.openTimeoutMs,
      'waiting for the owner tab',
      () => this.#ownerKnown.promise,
    );
  }

  /** Starts this tab's worker and announces it (first owner, or a follower taking over). */
  async #becomeOwner(): Promise<void> {
    const host = WorkerHost.start(this.#env, this.#open, this.#settings);
    this.#host = host;
    // Calls waiting for an owner (never sent, or sent to an owner that went) run here, in order;
    // a write keeps its operation id, so one the old owner applied is answered, not re-applied.
    for (const f of [...this.#forwarded.values()]) {
      this.#forwarded.delete(f.id);
      this.#track(this.#runLocal(f.method, f.args, f.onProgress, f.op)).then(f.resolve, f.reject);
    }
    try {
      this.#hostValue = await host;
    } catch (e) {
      this.#host = undefined;
      this.#releaseLock?.();
      this.#releaseLock = undefined;
      throw e;
    }
    this.#announce();
  }

  /** A follower got the lock: the owner is gone. */
  async #promote(): Promise<void> {
    this.#ownerId = undefined;
    try {
      await this.#becomeOwner();
    } catch (e) {
      // Cannot host the store: fail everything here, let another tab try.
      this.fail(e);
      this.#ownerKnown.reject(e);
      this.#channel?.close();
      return;
    }
    this.#ownerKnown.resolve(undefined);
    this.#settings.onRoleChange?.('owner');
  }

  #announce(): void {
    const host = this.#hostValue;
    if (!host || this.#closing) return;
    this.#post({
      t: 'owner',
      from: this.tabId,
      info: host.info,
      ...(host.fellBackFrom ? { fellBackFrom: host.fellBackFrom } : {}),
    });
  }

  #post(message: TabBody): void {
    try {
      this.#channel?.postMessage({ v: PROTOCOL_VERSION, ...message });
    } catch {
      // a closed channel: the tab is going
    }
  }

  #onMessage(m: TabMessage): void {
    if (!m || typeof m !== 'object' || m.v !== PROTOCOL_VERSION) return;
    switch (m.t) {
      case 'hello':
        this.#announce();
        return;
      case 'owner':
        if (this.#host || m.from === this.#ownerId) return;
        this.#ownerChangedTo(m.from, { info: m.info, fellBackFrom: m.fellBackFrom });
        return;
      case 'bye':
        if (m.from !== this.#ownerId) return;
        // The old owner answered everything it ran before saying bye: the rest never ran.
        this.#ownerId = undefined;
        this.#ownerKnown = deferred<undefined>();
        for (const f of this.#forwarded.values()) if (f.to === m.from) f.to = undefined;
        return;
      case 'call':
        if (m.to === this.tabId) this.#serve(m);
        return;
      case 'progress': {
        if (m.to !== this.tabId) return;
        const f = this.#forwarded.get(m.id);
        f?.touch();
        f?.onProgress?.(m.event);
        return;
      }
      case 'result': {
        if (m.to !== this.tabId) return;
        const f = this.#forwarded.get(m.id);
        if (!f || f.to !== m.from) return;
        this.#forwarded.delete(m.id);
        if (m.ok) f.resolve(m.value);
        else f.reject(fromWireError(m.error));
        return;
      }
      case 'retry': {
        if (m.to !== this.tabId) return;
        const f = this.#forwarded.get(m.id);
        if (!f || f.to !== m.from) return;
        f.to = undefined; // never ran: send again to the next owner
        if (this.#ownerId === m.from) {
          this.#ownerId = undefined;
          this.#ownerKnown = deferred<undefined>();
        }
        return;
      }
    }
  }

  /** A follower learned of a (new) owner: send waiting calls; settle those the old one had. */
  #ownerChangedTo(
    owner: string,
    info: { info: OpenInfo; fellBackFrom?: { code: string; message: string } },
  ): void {
    this.#ownerId = owner;
    this.#ownerInfo = info;
    // Unsent calls go now; those the old owner had go again (a write with its operation id).
    for (const f of [...this.#forwarded.values()]) if (f.to !== owner) this.#send(f);
    this.#settings.onReady?.('model');
    this.#settings.onReady?.('store');
    this.#ownerKnown.resolve(undefined);
  }

  #send(f: Forwarded): void {
    if (!this.#ownerId) return;
    f.to = this.#ownerId;
    f.touch(); // the deadline runs from the first send
    this.#post({
      t: 'call',
      from: this.tabId,
      to: f.to,
      id: f.id,
      method: f.method,
      args: f.args,
      progress: f.onProgress !== undefined,
      ...(f.op !== undefined ? { op: f.op } : {}),
    });
  }

  /** The owner runs a follower's call and answers it. */
  #serve(m: Extract<TabMessage, { t: 'call' }>): void {
    if (this.#closing || !this.#host) {
      this.#post({ t: 'retry', from: this.tabId, to: m.from, id: m.id });
      return;
    }
    const progress = m.progress
      ? (event: ProgressEvent) => this.#post({ t: 'progress', to: m.from, id: m.id, event })
      : undefined;
    this.#track(
      this.#runLocal(m.method, m.args, progress, m.op).then(
        (value) =>
          this.#post({ t: 'result', from: this.tabId, to: m.from, id: m.id, ok: true, value }),
        (error: unknown) =>
          this.#post({
            t: 'result',
            from: this.tabId,
            to: m.from,
            id: m.id,
            ok: false,
            error: toWireError(error),
          }),
      ),
    );
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inflight.add(p);
    const done = () => this.#inflight.delete(p);
    p.then(done, done);
    return p;
  }

  async #runLocal(
    method: EngineMethod,
    args: unknown[],
    onProgress: ((e: ProgressEvent) => void) | undefined,
    operation?: string,
  ): Promise<unknown> {
    const host = await this.#host!;
    return host.call(method, args, onProgress, operation);
  }

  /**
   * Runs one engine method here (owner) or in the owner tab (follower). Before this tab knows its
   * role, or while no owner is known, the call waits in order; its deadline starts when it is
   * sent (the owner's worker: when the store is open). Writes reach the store in the order they
   * were made; a read waits for the writes this client made before it, so it sees them.
   */
  call(method: EngineMethod, rawArgs: readonly unknown[]): Promise<unknown> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#closing) return Promise.reject(new AnamnesisError('CLOSED'));
    const { args, onProgress } = splitProgress(method, rawArgs);
    if (ENGINE_METHODS[method] === 'write') {
      const done = this.#dispatch(method, args, onProgress);
      this.#lastWrite = done.catch(() => undefined);
      return done;
    }
    // A read waits for this client's earlier writes (and only those): it sees them.
    return this.#lastWrite.then(() => this.#dispatch(method, args, onProgress));
  }

  #dispatch(
    method: EngineMethod,
    args: unknown[],
    onProgress: ((e: ProgressEvent) => void) | undefined,
  ): Promise<unknown> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#host) return this.#track(this.#runLocal(method, args, onProgress));
    const id = this.#nextId++;
    const op = ENGINE_METHODS[method] === 'write' ? randomId() : undefined;
    return withDeadline(
      this.#settings.timeoutMs,
      method,
      (touch) => {
        return new Promise((resolve, reject) => {
          const f: Forwarded = {
            id,
            op,
            method,
            args,
            onProgress,
            to: undefined,
            touch,
            resolve,
            reject,
          };
          this.#forwarded.set(id, f);
          this.#send(f);
        });
      },
      false,
    ).finally(() => this.#forwarded.delete(id)); // a timed-out call is not answered later
  }

  /** The store could not be opened here: every waiting and later call fails with `error`. */
  fail(error: unknown): void {
    this.#failed ??= error;
    for (const f of this.#forwarded.values()) f.reject(error);
    this.#forwarded.clear();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#lockAbort.abort();
      for (const f of this.#forwarded.values()) f.reject(new AnamnesisError('CLOSED'));
      this.#forwarded.clear();
      try {
        await this.#host?.catch(() => undefined);
        await Promise.allSettled([...this.#inflight]);
        if (this.#hostValue) {
          await this.#hostValue.close().catch(() => undefined);
          this.#post({ t: 'bye', from: this.tabId });
        }
      } finally {
        this.#releaseLock?.();
        this.#releaseLock = undefined;
        this.#channel?.close();
      }
    })();
    return this.#closing;
  }

  terminateWorker(): boolean {
    if (!this.#hostValue) return false;
    this.#hostValue.terminate();
    return true;
  }
}

function resolveUrl(url: string, base: string | undefined): string {
  if (base === undefined) return url;
  try {
    return new URL(url, base).href;
  } catch {
    throw new AnamnesisError('INVALID_INPUT', `not a URL: ${url}`);
  }
}

function checkMs(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a non-negative number of ms`);
  }
  return value;
}

let registered = false;

/**
 * Opens a store in a dedicated worker (this tab's, or the owner tab's) and returns the engine's
 * API plus `close`, `role` and `info` at once, without waiting: calls made before the store is
 * open wait, in order, and run when it is (their deadlines start then); `ready` and `state` say
 * where it is. Bad options throw `INVALID_INPUT` here; an open that fails rejects `ready` and
 * every call with its error. See {@link OpenMemoryOptions}.
 *
 * @internal `env` replaces the browser globals (tests).
 */
export function connectMemory(
  options: OpenMemoryOptions = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): MemoryClient {
  const { open, settings } = resolveOptions(options, env);
  // Not awaited: Firefox answers persist() only after the user answers its prompt.
  if (options.persist && env.persist) void env.persist().catch(() => false);
  const client = new Client(env, open, settings);
  let state: MemoryState = 'opening';
  const setState = (next: MemoryState, error?: unknown) => {
    if (state === next || state === 'closed') return;
    state = next;
    options.onStateChange?.(next, error);
  };
  const ready = client.start().then(
    () => setState('ready'),
    async (e: unknown) => {
      client.fail(e);
      setState('failed', e);
      await client.close();
      throw e;
    },
  );
  ready.catch(() => undefined); // an app that never looks at `ready` sees the error on its calls
  return memoryOf(
    client,
    ready,
    () => state,
    () => setState('closed'),
  );
}

/**
 * Opens a store and waits until it is ready: {@link connectMemory}, then `await memory.ready`.
 *
 * @internal `env` replaces the browser globals (tests).
 */
export async function openMemory(
  options: OpenMemoryOptions = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<MemoryClient> {
  const memory = connectMemory(options, env);
  await memory.ready;
  return memory;
}

/** Options of {@link recoverMemory}: those of `openMemory`, plus `restore`. */
export interface RecoverMemoryOptions extends OpenMemoryOptions {
  /**
   * After salvaging, keep a copy of the damaged file in OPFS (`result.backup`), start the store
   * afresh and import what was salvaged (re-embedded with the options' model), so the next
   * `openMemory` opens it. Default false: the store is only read.
   */
  restore?: boolean;
}

/**
 * Salvages a damaged store (one whose open failed with `STORE_CORRUPT`): reads its OPFS file in a
 * worker of its own without opening it as a database, and returns the memories it could read as
 * JSON Lines (`import` takes them), with counts and the problems found; see `restore`. The store
 * must not be open in any tab (`STORE_LOCKED` otherwise); `NOT_FOUND` when it does not exist.
 *
 * @internal `env` replaces the browser globals (tests).
 */
export async function recoverMemory(
  options: RecoverMemoryOptions = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<OpfsRecoverResult> {
  const { open, settings } = resolveOptions(options, env);
  const run = async () => {
    const worker = env.createWorker();
    try {
      const remote = Comlink.wrap<WorkerApi>(worker);
      const progress = settings.onProgress;
      return await withDeadline(settings.openTimeoutMs, 'recover', (touch) =>
        remote.recover(
          open,
          options.restore === true,
          progress
            ? Comlink.proxy((event: ProgressEvent) => {
                touch();
                progress(event);
              })
            : undefined,
        ),
      );
    } finally {
      worker.terminate();
    }
  };
  if (!env.locks) return run();
  let result: OpfsRecoverResult | undefined;
  await env.locks.request(`anamnesis:${open.name}`, { ifAvailable: true }, async (lock) => {
    if (!lock)
      throw new AnamnesisError('STORE_LOCKED', `the store ${open.name} is open in another tab`);
    result = await run();
  });
  return result!;
}

/** Validates `openMemory`'s options: what the worker opens with, and the page's settings. */
function resolveOptions(
  options: OpenMemoryOptions,
  env: ClientEnvironment,
): { open: WorkerOpenOptions; settings: Settings } {
  if (!registered) {
    registerErrorTransfer();
    registered = true;
  }
  if (options === null || typeof options !== 'object') {
    throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
  }
  const name = options.name ?? 'anamnesis';
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'name must be 1-128 letters, digits, dots, dashes or underscores',
    );
  }
  const storage = options.storage ?? 'auto';
  if (!['auto', 'opfs', 'memory'].includes(storage)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown storage ${String(storage)}`);
  }
  const model = options.model ?? MODEL_ID;
  const device = options.device ?? (model === MODEL_ID ? 'wasm' : 'auto');
  if (!['auto', 'webgpu', 'wasm'].includes(device)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown device ${String(device)}`);
  }
  let ort = resolveUrl(options.assets?.ort ?? '/ort/', env.baseUrl);
  if (!ort.endsWith('/')) ort += '/';
  const models = resolveUrl(options.assets?.models ?? '/models/', env.baseUrl);
  const settings: Settings = {
    name,
    timeoutMs: checkMs(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    openTimeoutMs: checkMs(options.openTimeoutMs, DEFAULT_OPEN_TIMEOUT_MS, 'openTimeoutMs'),
    ort,
    onProgress: options.onProgress,
    onRoleChange: options.onRoleChange,
    onReady: options.onReady,
    follow: options.follow === true,
  };
  const threads =
    options.threads ??
    ((globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false
      ? 1
      : undefined);
  const open: WorkerOpenOptions = {
    name,
    storage,
    embedder:
      model === 'tfidf'
        ? 'tfidf'
        : {
            model,
            localModelPath: models,
            device,
            // wasm only: the plain build (14 MB, about half the start-up); WebGPU needs asyncify's.
            wasmPaths: device === 'wasm' ? plainRuntime(ort) : ort,
            ...(options.remoteHost !== undefined ? { remoteHost: options.remoteHost } : {}),
            ...(threads !== undefined ? { threads } : {}),
          },
    onModelMismatch: options.onModelMismatch ?? 'error',
    lockRetryMs: checkMs(options.lockRetryMs, DEFAULT_LOCK_RETRY_MS, 'lockRetryMs'),
    ...(options.simulateWebGpuFailure ? { simulateWebGpuFailure: true } : {}),
  };
  return { open, settings };
}

/** The public object: the engine's methods forwarded through `client.call`. */
function memoryOf(
  client: Client,
  ready: Promise<void>,
  state: () => MemoryState,
  closed: () => void,
): MemoryClient {
  const methods = {} as Record<EngineMethod, (...args: unknown[]) => Promise<unknown>>;
  for (const method of Object.keys(ENGINE_METHODS) as EngineMethod[]) {
    methods[method] = (...args: unknown[]) => client.call(method, args);
  }
  const close = () => client.close().finally(closed);
  return Object.freeze({
    ...(methods as unknown as MemoryApi),
    name: client.name,
    ready,
    get state() {
      return state();
    },
    get readiness() {
      return { ...client.readiness };
    },
    get role() {
      return client.role;
    },
    get info() {
      return client.info;
    },
    close,
    [asyncDispose]: close,
    debug: Object.freeze({
      tabId: client.tabId,
      terminateWorker: () => client.terminateWorker(),
    }),
  });
}
