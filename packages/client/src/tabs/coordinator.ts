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

import type { ProgressEvent, StoreChange } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

import {
  ENGINE_METHODS,
  type EngineMethod,
  type MemoryInfo,
  type OpenInfo,
  type ReadyPart,
  type WorkerOpenOptions,
} from '../api.ts';
import { withDeadline } from '../deadline.ts';
import type {
  ChannelLike,
  ClientEnvironment,
  LockManagerLike,
  WorkerLike,
} from '../environment.ts';
import type { MemoryChange } from '../live.ts';
import type { Role, Settings } from '../options.ts';
import { fromWireError, toWireError } from '../wire.ts';
import { splitProgress, WorkerHost } from '../worker-host.ts';
import {
  LEGACY_VERSIONS,
  parseOtherVersion,
  parseTabMessage,
  PROTOCOL_VERSION,
  type OtherVersion,
  type TabBody,
  type TabMessage,
} from './protocol.ts';

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
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  touch: () => void;
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

export function randomId(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export class TabCoordinator {
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
  /** Why the store could not be opened here (see {@link fail}); set once. */
  #failed: { error: unknown } | undefined;
  /** Which parts of the store are ready (see `OpenMemoryOptions.onReady`). */
  readonly readiness: Record<ReadyPart, boolean> = { model: false, store: false };
  /** Who hears the store's changes (see {@link subscribe}). */
  readonly #listeners = new Set<(change: MemoryChange) => void>();
  /** Whether an owner was known before: a later one is a hand-over (an `'owner'` change). */
  #hadOwner = false;
  /**
   * Follower: whether the first owner found said this tab's `encryption` opens the store (see
   * {@link #admit}); until then only that check is sent, and every other call waits.
   */
  #admitted = false;
  /** Follower: the admission's check is out. */
  #admitting = false;

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
    this.#channel?.addEventListener('message', (event) => this.#onMessage(event.data));
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
      this.#hello();
      await withDeadline(
        this.#settings.openTimeoutMs,
        'waiting for the owner',
        () => this.#ownerKnown.promise,
      );
      return;
    }
    // The worker starts while the lock is asked for: on a first visit the browser answers the
    // origin's first storage request (this lock) only once it has set up the origin's storage,
    // about as long as the worker takes to download and start. A tab that turns out to follow
    // stops it before sending it anything.
    const worker = this.#env.createWorker();
    let granted: boolean;
    try {
      granted = await this.#askLock(locks, lockName);
    } catch (e) {
      worker.terminate();
      throw e;
    }
    if (granted) {
      await this.#becomeOwner(worker);
      return;
    }
    worker.terminate();
    // A follower: queue for the lock (taking over when the owner goes), find the owner.
    locks
      .request(lockName, { signal: this.#lockAbort.signal }, () => {
        if (this.#closing) return Promise.resolve();
        const held = new Promise<void>((release) => (this.#releaseLock = release));
        void this.#promote();
        return held;
      })
      .catch(() => undefined); // aborted by close() or a version mismatch
    this.#hello();
    await withDeadline(
      this.#settings.openTimeoutMs,
      'waiting for the owner tab',
      () => this.#ownerKnown.promise,
    );
  }

  /**
   * Asks for the store's owner: a hello of this version, and one of each legacy version, which an
   * owner of that version answers by announcing itself (then this tab knows it cannot open here).
   */
  #hello(): void {
    this.#post({ t: 'hello', from: this.tabId });
    for (const v of LEGACY_VERSIONS) {
      try {
        this.#channel?.postMessage({ v, t: 'hello', from: this.tabId });
      } catch {
        // a closed channel: the tab is going
      }
    }
  }

  /**
   * A message of a tab of another version. An owner answers a hello with its version (so that tab
   * is told it cannot open here); a tab without the store learns that another version owns it and
   * fails with `VERSION_MISMATCH` (see {@link #versionMismatch}).
   */
  #otherVersion(m: OtherVersion): void {
    if (m.kind === 'hello') {
      if (this.#hostValue && !this.#closing)
        this.#post({ t: 'version', from: this.tabId, role: 'owner' });
      return;
    }
    if (!this.#host) this.#versionMismatch(m.version);
  }

  /**
   * Another version's tab owns the store: this tab cannot use it until one of them is reloaded. It
   * stops queueing for the store's lock (it would open the store under the other's feet once that
   * tab goes, and later be found by neither version) and fails its open and every call with
   * `VERSION_MISMATCH`, saying which tab to reload.
   */
  #versionMismatch(other: number): void {
    if (this.#failed || this.#closing) return;
    const message =
      other < PROTOCOL_VERSION
        ? `a tab of an older version of this app owns the store "${this.name}" (tab protocol ${other}, this tab ${PROTOCOL_VERSION}): close or reload that tab, then reload this one`
        : `a tab of a newer version of this app owns the store "${this.name}" (tab protocol ${other}, this tab ${PROTOCOL_VERSION}): reload this tab`;
    const error = new AnamnesisError('VERSION_MISMATCH', message, {
      details: { protocol: PROTOCOL_VERSION, other },
    });
    this.#lockAbort.abort();
    this.fail(error);
    this.#ownerKnown.reject(error);
  }

  /** Takes the store's lock if no other tab holds it (held until released); false if one does. */
  #askLock(locks: LockManagerLike, lockName: string): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
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
  }

  /**
   * Starts this tab's worker (or opens the store in `worker`, already started) and announces it
   * (first owner, or a follower taking over).
   */
  async #becomeOwner(worker?: WorkerLike): Promise<void> {
    const host = WorkerHost.start(
      this.#env,
      this.#open,
      this.#settings,
      (change) => this.#ownerChanged(change),
      worker,
    );
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
    this.#ownerIsNew();
  }

  /**
   * Adds a listener of every change the store commits, whichever tab wrote it; returns the
   * function that removes it. See `MemoryClient.subscribe`.
   */
  subscribe(listener: (change: MemoryChange) => void): () => void {
    if (typeof listener !== 'function')
      throw new AnamnesisError('INVALID_INPUT', 'subscribe takes a function');
    const entry = (change: MemoryChange) => listener(change);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Tells this tab's listeners; one that throws is reported and the others still hear it. */
  #tell(change: MemoryChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener({ ...change, ids: [...change.ids] });
      } catch (e) {
        console.error('anamnesis: a change listener threw', e);
      }
    }
  }

  /** The owner's worker committed a change: this tab hears it, then the followers. */
  #ownerChanged(change: StoreChange): void {
    if (this.#closing) return;
    this.#tell(change);
    this.#post({ t: 'change', from: this.tabId, change });
  }

  /**
   * A new owner after another (a hand-over): what this tab heard may have missed the gap between
   * them, so listeners hear an `'owner'` change (live recalls run again).
   */
  #ownerIsNew(): void {
    if (this.#hadOwner) this.#tell({ kind: 'owner', ids: [], generation: 0 });
    this.#hadOwner = true;
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

  /**
   * Every message is checked against the protocol first (`parseTabMessage`); another version's
   * owner or hello is `parseOtherVersion`'s; others are ignored.
   */
  #onMessage(data: unknown): void {
    const other = parseOtherVersion(data);
    if (other) {
      this.#otherVersion(other);
      return;
    }
    const m = parseTabMessage(data);
    if (!m) return;
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
      case 'refused':
        // A call no follower sends (a method off the allowlist, malformed arguments): answered
        // with an error, never run.
        if (m.to !== this.tabId || !this.#host) return;
        this.#answerError(m, new AnamnesisError(m.code, m.reason));
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
      case 'change':
        if (!this.#host && m.from === this.#ownerId) this.#tell(m.change);
        return;
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
    if (this.#admitted) {
      this.#ownerFound(owner);
      return;
    }
    if (this.#admitting) {
      // a new owner while the check was out: the check goes to it
      for (const f of this.#forwarded.values())
        if (f.method === 'checkEncryption' && f.to !== owner) this.#send(f);
      return;
    }
    this.#admitting = true;
    void this.#admit();
  }

  /**
   * Before a follower forwards anything, the owner checks that this tab's `encryption` option
   * would open the store itself (`checkEncryption`): a wrong passphrase, or one too many or too
   * few, fails this tab's open as it would fail an owner's, and no call of it is sent. An owner of
   * an earlier version, which has no encrypted stores, does not know the check: a tab without
   * `encryption` is admitted by it.
   */
  async #admit(): Promise<void> {
    const encryption = this.#open.encryption;
    try {
      await this.#dispatch(
        'checkEncryption',
        encryption === undefined ? [] : [encryption],
        undefined,
      );
    } catch (e) {
      const unknownMethod =
        encryption === undefined &&
        e instanceof AnamnesisError &&
        (e.code === 'UNSUPPORTED' || e.code === 'INVALID_INPUT');
      if (!unknownMethod) {
        this.fail(e);
        this.#ownerKnown.reject(e);
        return;
      }
    }
    this.#admitted = true;
    if (this.#ownerId) this.#ownerFound(this.#ownerId);
  }

  /** A follower's owner is known and admitted it: its calls go there. */
  #ownerFound(owner: string): void {
    // Unsent calls go now; those the old owner had go again (a write with its operation id).
    for (const f of [...this.#forwarded.values()]) if (f.to !== owner) this.#send(f);
    this.#settings.onReady?.('model');
    this.#settings.onReady?.('store');
    this.#ownerKnown.resolve(undefined);
    this.#ownerIsNew();
  }

  #send(f: Forwarded): void {
    if (!this.#ownerId) return;
    // Until admitted, only the admission's own check goes (the rest wait, unsent).
    if (!this.#admitted && f.method !== 'checkEncryption') return;
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

  /** Answers a follower's call `m` with `error`. */
  #answerError(m: { from: string; id: number }, error: unknown): void {
    this.#post({
      t: 'result',
      from: this.tabId,
      to: m.from,
      id: m.id,
      ok: false,
      error: toWireError(error),
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
    void this.#track(
      this.#runLocal(m.method, m.args, progress, m.op).then(
        (value) =>
          this.#post({ t: 'result', from: this.tabId, to: m.from, id: m.id, ok: true, value }),
        (error: unknown) => this.#answerError(m, error),
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
    if (this.#failed) return Promise.reject(this.#failed.error);
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
    if (this.#failed) return Promise.reject(this.#failed.error);
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
    this.#failed ??= { error };
    for (const f of this.#forwarded.values()) f.reject(error);
    this.#forwarded.clear();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#listeners.clear();
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
