/**
 * Sync of one memory store between devices through a Yjs websocket server (`y-websocket`'s
 * protocol; the server is `@y/websocket-server`, or any server of that protocol). Each device keeps
 * its whole store and works offline; the server holds one shared Yjs document per room and
 * relays it.
 *
 * The document's `records` map holds the memories. Each device writes, per memory it changed, one entry of its own under
 * `<memory's blind name>.<device>`: a sealed record (AES-GCM, see `seal.ts`) of the memory's state
 * or of its forgetting, stamped by the device's hybrid logical clock. A device only ever replaces
 * its own entries, so Yjs never has to choose between two devices' writes; every device reads all
 * entries of a memory and applies the conflict rules of `resolve.ts`. The server sees blind
 * names, device ids, sizes and times; never a text, an id, a tag or a link.
 *
 * This file runs one room: the connection, the work queue, the status and the saved state
 * (`sync.ts` moves a device from room to room when its code changes). The parts: `reconcile.ts`
 * (records and the store), `merge.ts` (merge per field), `usage.ts` (usage across devices),
 * `anti-entropy.ts` (entries deleted, replayed or altered in the room, put back), `trash.ts` (the
 * trash), `devices.ts` (the device list, and removing one), `join.ts` (what a join found in the
 * room).
 */
import type { SyncConflict, SyncDevice, TrashedMemory } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { AntiEntropy } from './anti-entropy.ts';
import { Clock, wallTime, ZERO } from './clock.ts';
import { createSyncCode } from './code.ts';
import { KEY_CHECK, LOCAL, type RoomContext } from './context.ts';
import { defaultDeviceName, DeviceRoster } from './devices.ts';
import type { Identity } from './identity.ts';
import { explainJoin, watchServerState } from './join.ts';
import { Reconciler } from './reconcile.ts';
import { seal, unseal, type SyncKeys } from './seal.ts';
import { Trash, TRASH_DAYS } from './trash.ts';
import type { RoomSyncStatus, SavedSyncState, Sync, SyncEngine, SyncOptions } from './types.ts';
import { UsageExchange } from './usage.ts';

/** What a room's sync does (a `Sync` that does not move: `sync.ts` moves between rooms). */
type RoomSyncApi = Omit<Sync, 'removeDevice' | 'onCodeChange'> & {
  removeDevice(id: string): Promise<string>;
};

const KEY_CHECK_TEXT = 'anamnesis sync key check';

/** How often a running sync purges what has been in the trash too long, in ms. */
const TRASH_SWEEP_MS = 3_600_000;
/** How often a device online writes that it is (its entry in the device list), in ms. */
const SEEN_EVERY_MS = 600_000;

/** One room's sync (see the file's comment); `MovingSync` (`sync.ts`) is what callers hold. */
export class RoomSync implements RoomSyncApi {
  readonly #options: SyncOptions;
  readonly #identity: Identity;
  readonly #room: RoomContext;
  readonly #usage: UsageExchange;
  readonly #records: Reconciler;
  readonly #entropy: AntiEntropy;
  readonly #trash: Trash;
  readonly #roster: DeviceRoster;
  /** Called with the new code when the room was closed and this device was sealed one. */
  readonly #onMove: (code: string) => void;
  /** The room's code was changed (`devices.ts`): nothing more is read, written or repaired here. */
  #roomClosed = false;
  #trashTimer: ReturnType<typeof setInterval> | undefined;
  #seenTimer: ReturnType<typeof setInterval> | undefined;
  #repairTimer: ReturnType<typeof setTimeout> | undefined;
  /** The saved state held records of this room (this device's or others'): the room is not new to it. */
  #expected = false;
  /** Whether the server's copy of the room was empty when this connection began (if known). */
  #serverEmpty: boolean | undefined;
  #provider: WebsocketProvider | undefined;
  /** The work queue: publishing and applying run one at a time, in order. */
  #queue: Promise<void> = Promise.resolve();
  /** Whether this device holds the room's key (the key check opened, or it wrote it). */
  #verified = false;
  #unsent = new Set<string>();
  #status: Omit<RoomSyncStatus, 'pending' | 'device' | 'repaired' | 'conflicts'> = {
    connected: false,
    synced: false,
    lastSyncedAt: null,
    error: null,
    explain: null,
  };
  readonly #listeners = new Set<(status: RoomSyncStatus) => void>();
  #unsubscribe: (() => void) | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(
    engine: SyncEngine,
    options: SyncOptions,
    keys: SyncKeys,
    saved: SavedSyncState | undefined,
    identity: Identity,
    onMove: (code: string) => void,
  ) {
    this.#options = options;
    this.#identity = identity;
    this.#onMove = onMove;
    const device = saved?.device ?? bytesToHex(crypto.getRandomValues(new Uint8Array(8)));
    const doc = new Y.Doc();
    this.#room = {
      engine,
      keys,
      device,
      clock: new Clock(device, options.now),
      doc,
      records: doc.getMap('records'),
      usage: doc.getMap('usage'),
      devices: doc.getMap('devices'),
      fail: (e) => this.#fail(e),
      wrote: (keys) => {
        if (!this.#status.synced) for (const key of keys) this.#unsent.add(key);
        this.#setStatus({});
      },
    };
    this.#usage = new UsageExchange(this.#room);
    this.#entropy = new AntiEntropy(this.#room);
    this.#records = new Reconciler(this.#room, this.#usage, this.#entropy);
    this.#roster = new DeviceRoster(
      this.#room,
      identity,
      options.deviceName ?? defaultDeviceName(),
      options.now ?? Date.now,
    );
    this.#trash = new Trash(
      this.#room,
      this.#records,
      options.trashDays ?? TRASH_DAYS,
      options.now ?? Date.now,
    );
    this.#records.onOther = () => {
      if (this.#status.explain !== null) this.#setStatus({ explain: null });
    };
  }

  async start(saved: SavedSyncState | undefined): Promise<void> {
    const { doc, records, usage, engine, device } = this.#room;
    if (saved) Y.applyUpdate(doc, saved.doc, 'saved');
    // A new device keeps its id from the first moment (an empty document: nothing applied yet),
    // so that after a restart, however soon, its own records are known as its own.
    else
      await this.#options.state?.save({
        device,
        identity: this.#identity.saved,
        room: this.#room.keys.room,
        doc: Y.encodeStateAsUpdate(doc),
      });
    this.#expected = [...records.keys()].some((key) => key !== KEY_CHECK);
    await this.#records.readSaved();
    // read once the key is verified (see Reconciler.reconcileOnce)
    for (const key of usage.keys()) this.#usage.received.add(key);
    if (records.has(KEY_CHECK)) await this.#checkKey();
    records.observe((event, tx) => {
      if (tx.origin === LOCAL) return;
      const changed = event.keysChanged as Set<string>;
      for (const key of changed) this.#records.received.add(key);
      this.#enqueue(async () => {
        if (!this.#verified && records.has(KEY_CHECK)) await this.#checkKey();
        else if (this.#verified && changed.has(KEY_CHECK)) await this.#recheckKey();
        // what changed here first, over the records as they were: an apply then merges it
        await this.#records.publishHeard();
        // what a person sees beside the status: the conflicts and the trash
        const { conflicted, trashed } = this.#records.resolution;
        const before = [conflicted.size, trashed.size].join();
        await this.#records.readReceived();
        await this.#reconcileOnce();
        if ([conflicted.size, trashed.size].join() !== before) this.#setStatus({});
        this.#scheduleRepair();
      });
    });
    usage.observe((event, tx) => {
      if (tx.origin === LOCAL) return;
      for (const key of event.keysChanged as Set<string>) this.#usage.received.add(key);
      this.#enqueue(async () => {
        if (this.#records.reconciled) await this.#usage.read(true);
      });
    });
    doc.on('update', () => this.#scheduleSave());
    this.#trashTimer = setInterval(() => this.#enqueue(() => this.#sweepTrash()), TRASH_SWEEP_MS);
    // Node: the sweep alone does not keep a process running
    (this.#trashTimer as { unref?: () => void }).unref?.();
    this.#unsubscribe = engine.subscribe(({ kind, ids }) => {
      if (kind === 'elsewhere') {
        // another process (the CLI beside the MCP server) wrote: what, it does not all say
        this.#enqueue(() => this.#records.compareAll());
        return;
      }
      for (const id of ids) this.#records.heard.add(id);
      this.#enqueue(async () => {
        await this.#records.publishHeard();
        if (this.#options.trashDays === 0) await this.#sweepTrash();
      });
    });
    if (this.#verified)
      this.#enqueue(async () => {
        await this.#roster.read();
        if (!(await this.#checkClosed())) await this.#reconcileOnce();
      });
    this.#room.devices.observe((_event, tx) => {
      if (tx.origin === LOCAL) return;
      this.#enqueue(async () => {
        if (!this.#verified) return;
        await this.#roster.read();
        await this.#checkClosed();
        this.#setStatus({});
      });
    });
    this.#seenTimer = setInterval(
      () =>
        this.#enqueue(async () => {
          if (this.#verified && this.#status.connected) await this.#roster.publish();
        }),
      SEEN_EVERY_MS,
    );
    (this.#seenTimer as { unref?: () => void }).unref?.();
    const provider = new WebsocketProvider(this.#options.url, this.#room.keys.room, doc, {
      connect: this.#options.connect ?? true,
      disableBc: true,
      ...(this.#options.WebSocket
        ? { WebSocketPolyfill: this.#options.WebSocket as typeof WebSocket }
        : {}),
    });
    this.#provider = provider;
    watchServerState(provider, (empty) => (this.#serverEmpty = empty));
    provider.on('status', ({ status }) => {
      this.#setStatus({ connected: status === 'connected', synced: provider.synced });
    });
    provider.on('sync', (synced: boolean) => {
      if (!synced) {
        this.#setStatus({ synced: false });
        return;
      }
      const serverEmpty = this.#serverEmpty;
      this.#enqueue(async () => {
        const wroteKeyCheck = !this.#verified && !records.has(KEY_CHECK);
        if (!this.#verified) {
          if (records.has(KEY_CHECK)) await this.#checkKey();
          else await this.#writeKeyCheck();
        }
        // a room whose code was changed: move, or say why not; nothing of this device goes there
        await this.#roster.read();
        if (await this.#checkClosed()) return;
        await this.#reconcileOnce();
        if (this.#records.retry.size > 0 && this.#records.reconciled)
          await this.#records.apply(new Set());
        // anti-entropy at every join: what the room lost while this device was away, put back
        this.#entropy.sweep();
        this.#repair();
        await this.#sweepTrash();
        await this.#roster.publish(); // this device is online: its entry in the device list
        this.#unsent.clear();
        this.#setStatus({
          synced: true,
          lastSyncedAt: Date.now(),
          error: this.#status.error,
          explain: explainJoin({ serverEmpty, wroteKeyCheck, expected: this.#expected }),
        });
      });
    });
  }

  status(): RoomSyncStatus {
    return {
      device: this.#room.device,
      ...this.#status,
      pending: this.#unsent.size,
      repaired: { ...this.#entropy.repaired },
      conflicts: this.#records.resolution.conflicted.size,
    };
  }

  conflicts(): SyncConflict[] {
    const out: SyncConflict[] = [];
    for (const id of this.#records.resolution.conflicted) {
      const w = this.#records.resolution.winner(id)!;
      out.push({
        id,
        text: w.memory!.text,
        others: w.conflicts!.map((v) => ({ text: v.text, at: wallTime(v.at) })),
      });
    }
    return out;
  }

  async resolveConflict(id: string, text: string): Promise<void> {
    if (typeof text !== 'string' || text.length === 0 || text.length > 100_000)
      throw new AnamnesisError('INVALID_INPUT', 'a text of 1–100,000 characters is required');
    await this.settled();
    if (!this.#records.resolution.conflicted.has(id))
      throw new AnamnesisError('NOT_FOUND', `memory ${id} has no conflict to resolve`, {
        details: { id },
      });
    await this.#run(async () => {
      if (this.#records.resolution.winner(id)?.memory?.text !== text)
        await this.#room.engine.update(id, { text });
      // stamped now even when the text is the one kept: an edit made over both versions
      await this.#records.publish([id], undefined, { renewText: new Set([id]) });
    });
  }

  devices(): SyncDevice[] {
    return this.#roster.list();
  }

  renameDevice(name: string): Promise<void> {
    return this.#run(() => this.#roster.rename(name));
  }

  /**
   * Closes this room for `id` (`devices.ts`) and resolves with the new code, once the closing
   * write went to the server; the caller moves this device (`sync.ts`).
   */
  async removeDevice(id: string): Promise<string> {
    const end = Date.now() + 10_000;
    while (!this.#status.synced) {
      if (Date.now() > end)
        throw new AnamnesisError('TIMEOUT', 'not connected to the sync server: no device removed');
      await new Promise((r) => setTimeout(r, 50));
    }
    const code = createSyncCode();
    await this.#run(async () => {
      await this.#roster.read();
      await this.#roster.close(id, code);
      this.#roomClosed = true;
    });
    return code;
  }

  trash(): TrashedMemory[] {
    return this.#trash.list();
  }

  restore(id: string): Promise<void> {
    return this.#run(() => this.#trash.restore(id));
  }

  emptyTrash(ids?: readonly string[]): Promise<number> {
    if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string')))
      return Promise.reject(new AnamnesisError('INVALID_INPUT', 'ids must be an array of ids'));
    return this.#run(() => this.#trash.purge(ids));
  }

  /** Runs `work` in the queue (after what was heard or received before it); its result or error. */
  #run<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#queue.then(async () => {
      if (this.#roomClosed)
        throw new AnamnesisError('CLOSED', "the sync left this room: the device's code changed");
      return work();
    });
    this.#queue = done.then(
      () => this.#setStatus({}),
      () => undefined,
    );
    return done;
  }

  /** Purges what has been in the trash too long (only with the key verified and the store compared). */
  async #sweepTrash(): Promise<void> {
    if (this.#verified && this.#records.reconciled) await this.#trash.purgeExpired();
  }

  onStatus(listener: (status: RoomSyncStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onApplied(listener: (ids: string[]) => void): () => void {
    return this.#records.onApplied(listener);
  }

  connect(): void {
    this.#provider?.connect();
  }

  disconnect(): void {
    this.#provider?.disconnect();
    this.#setStatus({ connected: false, synced: false });
  }

  async settled(): Promise<void> {
    for (;;) {
      const queue = this.#queue;
      await queue;
      if (queue === this.#queue) return;
    }
  }

  async synced(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.settled();
      const s = this.status();
      if (s.synced && s.pending === 0 && this.#records.heard.size === 0) return;
      if (this.#closed) throw new AnamnesisError('CLOSED', 'the sync is closed');
      if (Date.now() > end)
        throw new AnamnesisError('TIMEOUT', `not synced after ${timeoutMs} ms`, {
          details: { status: s },
        });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    await this.settled();
    clearTimeout(this.#repairTimer);
    clearInterval(this.#trashTimer);
    clearInterval(this.#seenTimer);
    this.#repair(); // a repair due goes out before the connection closes
    this.#provider?.destroy();
    clearTimeout(this.#saveTimer);
    await this.#save();
    this.#room.doc.destroy();
  }

  #setStatus(patch: Partial<RoomSyncStatus>): void {
    this.#status = { ...this.#status, ...patch };
    const status = this.status();
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch (e) {
        console.error('anamnesis sync: a status listener threw', e);
      }
    }
  }

  #fail(error: unknown): void {
    const e =
      error instanceof AnamnesisError
        ? error
        : new AnamnesisError('INTERNAL', 'sync failed', { cause: error });
    this.#setStatus({ error: e });
  }

  #enqueue(work: () => Promise<void>): void {
    this.#queue = this.#queue
      .then(() => (this.#roomClosed ? undefined : work()))
      .catch((e: unknown) => this.#fail(e));
  }

  /**
   * When the room is closed (its code changed): this device moves if it was sealed the new code,
   * is told `SYNC_REMOVED` if it is the device removed, or is told to type the new code. True
   * when closed.
   */
  async #checkClosed(): Promise<boolean> {
    const closed = this.#roster.closed;
    if (!closed) return false;
    this.#roomClosed = true;
    clearTimeout(this.#repairTimer);
    if (closed.removed === this.#room.device) {
      this.#provider?.disconnect();
      this.#fail(
        new AnamnesisError(
          'SYNC_REMOVED',
          'another device removed this one from the sync: its code was changed, and nothing new reaches this device',
          { details: { by: closed.by } },
        ),
      );
      return true;
    }
    const code = await this.#roster.newCode();
    if (code) this.#onMove(code);
    else {
      this.#provider?.disconnect();
      this.#setStatus({
        explain:
          'The sync code was changed on another device, and no new code was left for this one: type the new code here.',
      });
    }
    return true;
  }

  async #reconcileOnce(): Promise<void> {
    if (this.#verified) await this.#records.reconcileOnce();
  }

  /**
   * A repair after a change seen in the room: after `repairDelayMs` and up to as much again at
   * random, so that of the devices online one puts the entry back and the others find it there.
   */
  #scheduleRepair(): void {
    if (!this.#entropy.due || this.#repairTimer !== undefined || this.#closed) return;
    const delay = this.#options.repairDelayMs ?? 1000;
    this.#repairTimer = setTimeout(
      () => {
        this.#repairTimer = undefined;
        this.#enqueue(async () => this.#repair());
      },
      delay * (1 + Math.random()),
    );
  }

  /** Puts back what the room lost (only with the room's key verified: nothing is sent before). */
  #repair(): void {
    if (!this.#verified || this.#roomClosed) return;
    if (this.#entropy.repair() > 0) this.#setStatus({});
  }

  #scheduleSave(): void {
    if (!this.#options.state || this.#closed) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => {
      // after the queue: what was received is applied before it is saved as known
      this.#enqueue(() => this.#save());
    }, 200);
  }

  async #save(): Promise<void> {
    // Only a state whose every record is applied is saved (see Reconciler's `applied`): not one
    // with records received and not read yet, nor with applies to try again.
    // Nor one with an entry behind what this device holds (a replay would be saved as known).
    if (
      !this.#records.reconciled ||
      this.#entropy.due ||
      this.#records.received.size > 0 ||
      this.#usage.received.size > 0 ||
      this.#records.retry.size > 0
    )
      return;
    await this.#options.state?.save({
      device: this.#room.device,
      identity: this.#identity.saved,
      room: this.#room.keys.room,
      doc: Y.encodeStateAsUpdate(this.#room.doc),
    });
  }

  async #checkKey(): Promise<void> {
    try {
      const text = new TextDecoder().decode(
        await unseal(this.#room.keys, KEY_CHECK, this.#room.records.get(KEY_CHECK)),
      );
      if (text !== KEY_CHECK_TEXT) throw new Error('unexpected key check');
      this.#verified = true;
      this.#entropy.saw(KEY_CHECK, ZERO, this.#room.records.get(KEY_CHECK)!);
    } catch (cause) {
      this.#verified = false;
      throw new AnamnesisError(
        'WRONG_PASSPHRASE',
        'the sync passphrase does not open this room (its key check does not authenticate): nothing is sent or applied',
        { cause },
      );
    }
  }

  /**
   * The key check changed in the room once this device holds the key: one that opens is kept as
   * the newest; one deleted or that does not open (it would stop every device that joins later
   * with `WRONG_PASSPHRASE`) is put back by anti-entropy.
   */
  async #recheckKey(): Promise<void> {
    const sealed = this.#room.records.get(KEY_CHECK);
    if (sealed === undefined) {
      this.#entropy.lost(KEY_CHECK, 'deleted');
      return;
    }
    try {
      await unseal(this.#room.keys, KEY_CHECK, sealed);
      this.#entropy.saw(KEY_CHECK, ZERO, sealed);
    } catch (e) {
      this.#entropy.lost(KEY_CHECK, 'tampered');
      this.#fail(e);
    }
  }

  async #writeKeyCheck(): Promise<void> {
    const sealed = await seal(this.#room.keys, KEY_CHECK, utf8ToBytes(KEY_CHECK_TEXT));
    this.#room.doc.transact(() => this.#room.records.set(KEY_CHECK, sealed), LOCAL);
    this.#verified = true;
    this.#entropy.saw(KEY_CHECK, ZERO, sealed);
  }
}
