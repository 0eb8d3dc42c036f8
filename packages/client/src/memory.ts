/**
 * `connectMemory` and `openMemory`: the engine in a dedicated module worker behind Comlink, one
 * owner tab per store (`tabs/coordinator.ts`); `recoverMemory` salvages a damaged store.
 */

import type {
  OpfsRecoverResult,
  RecallOptions,
  RecallResult,
  StoreSync,
  SyncPlugin,
} from '@anamnesis/engine';
import { SyncSlot } from '@anamnesis/engine/sync-plugin';
import { AnamnesisError } from '@anamnesis/errors';
import * as Comlink from 'comlink';

import {
  ENGINE_METHODS,
  type EngineApi,
  type EngineMethod,
  type MemoryInfo,
  type MemoryStats,
  type ReadyPart,
  type RemoteWorkerApi,
} from './api.ts';
import { withDeadline } from './deadline.ts';
import { liveRecall, type LiveRecall, type LiveUpdate, type MemoryChange } from './live.ts';
import { browserEnvironment, type ClientEnvironment } from './environment.ts';
import {
  resolveOptions,
  type Faults,
  type MemoryState,
  type OpenMemoryOptions,
  type Role,
} from './options.ts';
import { TabCoordinator } from './tabs/coordinator.ts';
import { unwrap, type Reply } from './wire.ts';
import { signOfLife } from './worker-host.ts';

/** The engine's methods as the client offers them (`stats` adds the browser's storage figures). */
export type MemoryApi = Omit<EngineApi, 'stats'> & {
  /** Counts, model, backend (`'opfs'`, or `'memory'` and why), persisted, usage and quota. */
  stats(): Promise<MemoryStats>;
};

const asyncDispose: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ??
  (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose);

/** A store opened by `openMemory`. */
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
   * Hears every change the store commits, whichever tab (or the extension's owner) wrote it: the
   * kind of write, the ids it changed and the owner's generation (see {@link MemoryChange}), in
   * commit order, shortly after the commit (before or after the writer's own answer). Returns the
   * function that stops it. A listener that throws is reported and fails nothing.
   */
  subscribe(listener: (change: MemoryChange) => void): () => void;
  /**
   * A recall that follows the store: runs `query` now, and again after every change any tab
   * commits (coalesced: at most one recall in flight), delivering each answer to `onResults` in
   * the order the runs started; never an answer for a query replaced by `set`, nor after `close`.
   * See {@link LiveRecall}.
   */
  live(
    query: string,
    options: RecallOptions | undefined,
    onResults: (results: RecallResult[], update: LiveUpdate) => void,
    onError?: (error: unknown) => void,
  ): LiveRecall;
  /**
   * Waits for calls in flight, closes the store and the worker, and hands ownership to the next
   * tab. Idempotent; later calls reject with `CLOSED`; live recalls and listeners stop.
   */
  close(): Promise<void>;
  /**
   * The running sync of `options.sync`: resolves once this tab runs it (at once, or when the tab
   * that syncs the store closes), rejects with what kept it from starting (or the store from
   * opening), and with `INVALID_INPUT` for a store opened without `sync`.
   */
  sync(): Promise<StoreSync>;
  /** `close()`, for `await using memory = await openMemory(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Each client's tab coordinator, for the test hooks of `@anamnesis/client/testing`. */
const coordinators = new WeakMap<MemoryClient, TabCoordinator>();

/** @internal The coordinator behind a client (`testing.ts`). */
export function coordinatorOf(memory: MemoryClient): TabCoordinator {
  const coordinator = coordinators.get(memory);
  if (!coordinator) throw new AnamnesisError('INVALID_INPUT', 'not a client of this module');
  return coordinator;
}

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
  return connectWith(options, env, {});
}

/**
 * @internal {@link connectMemory} with test faults (`testing.ts`); `modelFirst` loads the model
 * before the store opens (`openMemory`).
 */
export function connectWith(
  options: OpenMemoryOptions,
  env: ClientEnvironment,
  faults: Faults,
  modelFirst = false,
): MemoryClient {
  const resolved = resolveOptions(options, env, faults);
  const { settings } = resolved;
  const open = modelFirst ? { ...resolved.open, modelFirst } : resolved.open;
  // Not awaited: Firefox answers persist() only after the user answers its prompt.
  if (options.persist && env.persist) void env.persist().catch(() => false);
  const client = new TabCoordinator(env, open, settings);
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
    options.sync,
  );
}

/**
 * Opens a store and waits until it is ready, model included: like {@link connectMemory}, then
 * `await memory.ready`, except that the model is loaded before the store opens, so every recall is
 * answered with it and a model that cannot load rejects (`MODEL_LOAD_FAILED`).
 *
 * @internal `env` replaces the browser globals (tests).
 */
export async function openMemory(
  options: OpenMemoryOptions = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<MemoryClient> {
  const memory = connectWith(options, env, {}, true);
  await memory.ready;
  return memory;
}

/** Options of `recoverMemory`: those of `openMemory`, plus `restore`. */
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
 * must not be open in any tab (`STORE_LOCKED` otherwise); `NOT_FOUND` when it does not exist;
 * `UNSUPPORTED` with `encryption` (an encrypted store is read only through SQLite, with its key).
 *
 * @internal `env` replaces the browser globals (tests).
 */
export async function recoverMemory(
  options: RecoverMemoryOptions = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<OpfsRecoverResult> {
  if (options.encryption !== undefined)
    throw new AnamnesisError(
      'UNSUPPORTED',
      'an encrypted store cannot be salvaged: its pages are read only through SQLite with the key (export() it while it opens)',
    );
  const { open, settings } = resolveOptions(options, env);
  const run = async () => {
    const worker = env.createWorker();
    try {
      const remote = Comlink.wrap<RemoteWorkerApi>(worker);
      return await withDeadline(settings.openTimeoutMs, 'recover', (touch) =>
        remote
          .recover(open, options.restore === true, signOfLife(settings.onProgress, touch))
          .then((r) => unwrap(r as Reply<OpfsRecoverResult>)),
      );
    } finally {
      worker.terminate();
    }
  };
  return withStoreLock(env, open.name, run);
}

/**
 * Deletes store `options.name` from OPFS (its database and journal, plain or encrypted): for an
 * app that moves its notes to another store (say, an encrypted one) and must not leave the old
 * copy behind. Runs in a worker of its own; the store must not be open in any tab
 * (`STORE_LOCKED`, and nothing is deleted). Resolves `false` when there was no such store.
 *
 * @internal `env` replaces the browser globals (tests).
 */
export async function deleteMemory(
  options: Pick<OpenMemoryOptions, 'name' | 'assets' | 'lockRetryMs' | 'openTimeoutMs'> = {},
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<boolean> {
  const { open, settings } = resolveOptions(options, env);
  // No worker for a store that does not exist (the usual case of a clean-up at start).
  if (!(await storeExists(open.name))) return false;
  const run = async () => {
    const worker = env.createWorker();
    try {
      const remote = Comlink.wrap<RemoteWorkerApi>(worker);
      return await withDeadline(settings.openTimeoutMs, 'delete', () =>
        remote.delete(open).then((r) => unwrap(r as Reply<boolean>)),
      );
    } finally {
      worker.terminate();
    }
  };
  return withStoreLock(env, open.name, run);
}

/**
 * Whether OPFS holds store `name`'s folder (`.anamnesis/<name>`), looked up from the page; true
 * where the page cannot look (the worker then decides).
 */
async function storeExists(name: string): Promise<boolean> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (typeof storage?.getDirectory !== 'function') return true;
  try {
    const root = await storage.getDirectory();
    await (await root.getDirectoryHandle('.anamnesis')).getDirectoryHandle(name);
    return true;
  } catch (e) {
    return !(e instanceof DOMException && e.name === 'NotFoundError');
  }
}

/**
 * Runs `fn` holding the store's Web Lock (the one its owner tab holds while it is open), or fails
 * with `STORE_LOCKED` when a tab has it; runs it directly where Web Locks are missing.
 */
async function withStoreLock<T>(
  env: ClientEnvironment,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (!env.locks) return fn();
  let result: T | undefined;
  await env.locks.request(`anamnesis:${name}`, { ifAvailable: true }, async (lock) => {
    if (!lock) throw new AnamnesisError('STORE_LOCKED', `the store ${name} is open in another tab`);
    result = await fn();
  });
  return result!;
}

/** The public object: the engine's methods forwarded through `client.call`. */
function memoryOf(
  client: TabCoordinator,
  ready: Promise<void>,
  state: () => MemoryState,
  closed: () => void,
  plugin: SyncPlugin | undefined,
): MemoryClient {
  // Started once the store is ready (`sync` is set before anyone holds the memory).
  let sync: SyncSlot | undefined;
  const methods = {} as Record<EngineMethod, (...args: unknown[]) => Promise<unknown>>;
  for (const method of Object.keys(ENGINE_METHODS) as EngineMethod[]) {
    methods[method] = (...args: unknown[]) => client.call(method, args);
  }
  const lives = new Set<LiveRecall>();
  const close = async () => {
    for (const live of lives) live.close();
    await sync?.stop();
    return client.close().finally(closed);
  };
  const subscribe = (listener: (change: MemoryChange) => void) => client.subscribe(listener);
  const live: MemoryClient['live'] = (query, options, onResults, onError) => {
    const handle = liveRecall(
      { recall: methods.recall as MemoryApi['recall'], subscribe },
      query,
      options,
      onResults,
      onError,
    );
    lives.add(handle);
    return {
      ...handle,
      close: () => {
        lives.delete(handle);
        handle.close();
      },
    };
  };
  const memory: MemoryClient = Object.freeze({
    ...(methods as unknown as MemoryApi),
    subscribe,
    live,
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
    sync: () =>
      ready.then(() => {
        if (sync) return sync.get();
        throw plugin
          ? new AnamnesisError('CLOSED', 'the store closed before its sync started')
          : new AnamnesisError('INVALID_INPUT', 'this store was opened without a sync');
      }),
    close,
    [asyncDispose]: close,
  });
  coordinators.set(memory, client);
  if (plugin)
    ready.then(
      () => {
        if (state() === 'ready') sync = new SyncSlot(plugin, memory, { name: client.name });
      },
      () => undefined,
    );
  return memory;
}
