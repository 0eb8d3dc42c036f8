/**
 * Sync of one memory store between devices through a Yjs websocket server (`y-websocket`'s
 * protocol; the server is `@y/websocket-server`, or any server of that protocol). Each device keeps
 * its whole store and works offline; the server holds one shared Yjs document per room and
 * relays it.
 *
 * The document is one map. Each device writes, per memory it changed, one entry of its own under
 * `<memory's blind name>.<device>`: a sealed record (AES-GCM, see `seal.ts`) of the memory's state
 * or of its forgetting, stamped by the device's hybrid logical clock. A device only ever replaces
 * its own entries, so Yjs never has to choose between two devices' writes; every device reads all
 * entries of a memory and applies the conflict rules of `resolve.ts`. The server sees blind
 * names, device ids, sizes and times; never a text, an id, a tag or a link.
 *
 * A device applies what it receives through the engine's own API (`import`, `update`, `forget`,
 * `link`), so every write is one of the engine's transactions, and it embeds what it imports
 * itself (vectors are not synced: every device runs the model its store was built with). It hears
 * its own changes through `engine.subscribe` and publishes those that differ from what the
 * records already say (so its own applies do not echo back).
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { DeviceUsage, StoreSync, SyncStatus } from '@anamnesis/engine';
import { foldEvents, type FoldedUsage } from '@anamnesis/ranking';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { Clock, isStamp, ZERO, type Stamp } from './clock.ts';
import {
  canonical,
  sameState,
  syncedState,
  type ExportedMemory,
  type SyncedMemory,
  type SyncRecord,
} from './records.ts';
import { Resolution } from './resolve.ts';
import { blindName, deriveKeys, seal, unseal, type SyncKeys } from './seal.ts';

/** What the sync needs of an engine (`Engine` from `@anamnesis/engine` has it). */
export interface SyncEngine {
  /** JSON Lines of these memories (their links included). */
  export(options: { ids?: readonly string[] }): Promise<string>;
  /** Adds memories received, with their ids, in one transaction. */
  import(jsonl: string, options: { onConflict: 'skip' }): Promise<number>;
  /** Applies an edit received. */
  update(
    id: string,
    patch: Pick<SyncedMemory, 'text' | 'kind' | 'session' | 'tags' | 'importance' | 'meta'>,
  ): Promise<unknown>;
  /** Applies forgets received. */
  forget(ids: string[]): Promise<number>;
  /** Adds a link received. */
  link(from: string, to: { to: string; kind: string; weight: number }): Promise<void>;
  /** Removes a link another device removed. */
  unlink(from: string, to: string, kind?: string): Promise<number>;
  /** Replaces what another device recorded of a memory's use (its `markUsed` events, folded). */
  setDeviceUsage(id: string, device: string, usage: DeviceUsage[]): Promise<unknown>;
  /**
   * Hears this device's changes (to publish them); returns the function that stops it. A change
   * of kind `'elsewhere'` (another process wrote the store) makes the sync compare the whole store.
   */
  subscribe(listener: (change: { kind?: string; ids: string[] }) => void): () => void;
}

/** Where a device keeps its sync state between runs (ciphertext and its device id only). */
export interface SyncStateStore {
  /** The state saved last, or undefined for a device that never synced. */
  load(): Promise<SavedSyncState | undefined>;
  /** Replaces the saved state (atomically: a crash keeps the old state or the new). */
  save(state: SavedSyncState): Promise<void>;
}

/** What a device keeps of its sync between runs. */
export interface SavedSyncState {
  /** This device's id in the room. */
  device: string;
  /** The room's Yjs document as this device had applied it (sealed records only). */
  doc: Uint8Array;
}

/** Options of {@link startSync}. */
export interface SyncOptions {
  /** The Yjs websocket server, e.g. `wss://sync.example.org` (`ws://127.0.0.1:1234` in tests). */
  url: string;
  /** The memory's name, the same on every device (with the passphrase, it makes the keys). */
  room: string;
  /**
   * The sync passphrase, the same on every device: the key every record is sealed with is derived
   * from it (scrypt, about a second at start). Never sent. 1–1,024 characters.
   */
  passphrase: string;
  /** Where this device keeps its sync state. Default: in memory (a restart syncs from scratch). */
  state?: SyncStateStore;
  /** The WebSocket class (Node 20 has none: pass `ws`'s). Default `globalThis.WebSocket`. */
  WebSocket?: unknown;
  /** Connect at start. Default true; `connect()` and `disconnect()` go on and off line. */
  connect?: boolean;
  /** The wall clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** A running sync (the engine's `StoreSync`). */
export type Sync = StoreSync;

/** Entry of the map that tells whether a device holds the room's key. */
const KEY_CHECK = 'key-check';
const KEY_CHECK_TEXT = 'anamnesis sync key check';
/** Memories imported per transaction when many arrive at once. */
const IMPORT_BATCH = 500;
/** Where local writes enter the document (remote ones come from the provider). */
const LOCAL = Symbol('local');

/** Starts syncing `engine` with the room; resolves once the keys are derived and the state loaded. */
export async function startSync(engine: SyncEngine, options: SyncOptions): Promise<Sync> {
  checkSyncOptions(options);
  const keys = await deriveKeys(options.passphrase, options.room);
  const saved = await options.state?.load();
  const sync = new RoomSync(engine, options, keys, saved);
  await sync.start(saved);
  return sync;
}

/** `INVALID_INPUT` unless `options` has a ws(s) URL, a room and a passphrase of the sizes allowed. */
export function checkSyncOptions(options: SyncOptions): void {
  if (!options || typeof options.url !== 'string' || !/^wss?:\/\//.test(options.url))
    throw new AnamnesisError('INVALID_INPUT', 'sync.url must be a ws:// or wss:// URL');
  if (typeof options.room !== 'string' || options.room.length === 0 || options.room.length > 256)
    throw new AnamnesisError('INVALID_INPUT', 'sync.room must be a string of 1–256 characters');
  if (
    typeof options.passphrase !== 'string' ||
    options.passphrase.length === 0 ||
    options.passphrase.length > 1024
  )
    throw new AnamnesisError(
      'INVALID_INPUT',
      'sync.passphrase must be a string of 1–1,024 characters',
    );
}

class RoomSync implements Sync {
  readonly #engine: SyncEngine;
  readonly #options: SyncOptions;
  readonly #keys: SyncKeys;
  readonly #device: string;
  readonly #clock: Clock;
  readonly #doc = new Y.Doc();
  readonly #map: Y.Map<Uint8Array>;
  /** Each device's own usage of each memory, sealed, under the same names as the records. */
  readonly #usageMap: Y.Map<Uint8Array>;
  #provider: WebsocketProvider | undefined;
  /** Every device's record of each memory, and what the rules make of them. */
  readonly #resolution = new Resolution();
  /** The work queue: publishing and applying run one at a time, in order. */
  #queue: Promise<void> = Promise.resolve();
  /** Ids heard changed locally, not yet looked at. */
  readonly #heard = new Set<string>();
  /** Map keys received, not yet read. */
  readonly #received = new Set<string>();
  /**
   * Memories whose apply failed (the engine refused a write: a full disk, a race with a local
   * write): applied again with the next apply, and at the next exchange with the server.
   */
  readonly #retry = new Set<string>();
  /** Every device's own usage of each memory (this device's as last published), by id then device. */
  readonly #usage = new Map<string, Map<string, DeviceUsage[]>>();
  /** Usage entries received, not yet read. */
  readonly #usageReceived = new Set<string>();
  /** Other devices' usage as applied to the store here in this run: id → device → canonical JSON. */
  readonly #usageApplied = new Map<string, Map<string, string>>();
  /** Links waiting for their target to arrive: target id → ids whose links name it. */
  readonly #waiting = new Map<string, Set<string>>();
  /** Whether this device holds the room's key (the key check opened, or it wrote it). */
  #verified = false;
  /** Whether the whole store has been compared with the records since the key was verified. */
  #reconciled = false;
  /**
   * Memories whose records this device had applied before this run (from its saved state): of
   * these alone, one missing from the store was forgotten here. Emptied by the first reconcile.
   */
  readonly #applied = new Set<string>();
  /**
   * The store was empty at the first reconcile while the saved state says this device had
   * memories: a store deleted or replaced beside its kept sync state (a `memory.db` removed, its
   * `memory.db.sync` left), far likelier than every memory forgotten while the sync was off. Then
   * nothing is forgotten for what the store lacks; the device gets the room's memories back.
   */
  #replaced = false;
  #unsent = new Set<string>();
  #status: Omit<SyncStatus, 'pending' | 'device'> = {
    connected: false,
    synced: false,
    lastSyncedAt: null,
    error: null,
  };
  readonly #listeners = new Set<(status: SyncStatus) => void>();
  readonly #applyListeners = new Set<(ids: string[]) => void>();
  #unsubscribe: (() => void) | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(
    engine: SyncEngine,
    options: SyncOptions,
    keys: SyncKeys,
    saved: SavedSyncState | undefined,
  ) {
    this.#engine = engine;
    this.#options = options;
    this.#keys = keys;
    this.#device = saved?.device ?? bytesToHex(crypto.getRandomValues(new Uint8Array(8)));
    this.#clock = new Clock(this.#device, options.now);
    this.#map = this.#doc.getMap('records');
    this.#usageMap = this.#doc.getMap('usage');
  }

  async start(saved: SavedSyncState | undefined): Promise<void> {
    if (saved) Y.applyUpdate(this.#doc, saved.doc, 'saved');
    // A new device keeps its id from the first moment (an empty document: nothing applied yet),
    // so that after a restart, however soon, its own records are known as its own.
    else
      await this.#options.state?.save({
        device: this.#device,
        doc: Y.encodeStateAsUpdate(this.#doc),
      });
    // What this device had synced and applied before (the state is saved only then): read whole,
    // so a memory it had and has no more is told as forgotten here while the sync was not running.
    for (const key of this.#map.keys()) if (key !== KEY_CHECK) this.#received.add(key);
    await this.#readReceived();
    for (const id of this.#resolution.ids()) this.#applied.add(id);
    // read once the key is verified (see #reconcileOnce)
    for (const key of this.#usageMap.keys()) this.#usageReceived.add(key);
    if (this.#map.has(KEY_CHECK)) await this.#checkKey();
    this.#map.observe((event, tx) => {
      if (tx.origin === LOCAL) return;
      for (const key of event.keysChanged as Set<string>) this.#received.add(key);
      this.#enqueue(async () => {
        if (!this.#verified && this.#map.has(KEY_CHECK)) await this.#checkKey();
        await this.#readReceived();
        await this.#reconcileOnce();
      });
    });
    this.#usageMap.observe((event, tx) => {
      if (tx.origin === LOCAL) return;
      for (const key of event.keysChanged as Set<string>) this.#usageReceived.add(key);
      this.#enqueue(async () => {
        if (this.#reconciled) await this.#readUsage();
      });
    });
    this.#doc.on('update', () => this.#scheduleSave());
    this.#unsubscribe = this.#engine.subscribe(({ kind, ids }) => {
      if (kind === 'elsewhere') {
        // another process (the CLI beside the MCP server) wrote: what, it does not all say
        this.#enqueue(() => this.#compareAll());
        return;
      }
      for (const id of ids) this.#heard.add(id);
      this.#enqueue(() => this.#publishHeard());
    });
    if (this.#verified) this.#enqueue(() => this.#reconcileOnce());
    const provider = new WebsocketProvider(
      this.#options.url,
      roomName(this.#options.room),
      this.#doc,
      {
        connect: this.#options.connect ?? true,
        disableBc: true,
        ...(this.#options.WebSocket
          ? { WebSocketPolyfill: this.#options.WebSocket as typeof WebSocket }
          : {}),
      },
    );
    this.#provider = provider;
    provider.on('status', ({ status }) => {
      this.#setStatus({ connected: status === 'connected', synced: provider.synced });
    });
    provider.on('sync', (synced: boolean) => {
      if (!synced) {
        this.#setStatus({ synced: false });
        return;
      }
      this.#enqueue(async () => {
        if (!this.#verified) {
          if (this.#map.has(KEY_CHECK)) await this.#checkKey();
          else await this.#writeKeyCheck();
        }
        await this.#reconcileOnce();
        if (this.#retry.size > 0 && this.#reconciled) await this.#apply(new Set());
        this.#unsent.clear();
        this.#setStatus({ synced: true, lastSyncedAt: Date.now(), error: this.#status.error });
      });
    });
  }

  status(): SyncStatus {
    return { device: this.#device, ...this.#status, pending: this.#unsent.size };
  }

  onStatus(listener: (status: SyncStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onApplied(listener: (ids: string[]) => void): () => void {
    this.#applyListeners.add(listener);
    return () => this.#applyListeners.delete(listener);
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
      if (s.synced && s.pending === 0 && this.#heard.size === 0) return;
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
    this.#provider?.destroy();
    clearTimeout(this.#saveTimer);
    await this.#save();
    this.#doc.destroy();
  }

  #setStatus(patch: Partial<SyncStatus>): void {
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
    this.#queue = this.#queue.then(work).catch((e: unknown) => this.#fail(e));
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
    // Only a state whose every record is applied is saved (see `#applied`): not one with
    // records received and not read yet, nor with applies to try again.
    if (
      !this.#reconciled ||
      this.#received.size > 0 ||
      this.#usageReceived.size > 0 ||
      this.#retry.size > 0
    )
      return;
    await this.#options.state?.save({
      device: this.#device,
      doc: Y.encodeStateAsUpdate(this.#doc),
    });
  }

  async #checkKey(): Promise<void> {
    try {
      const text = new TextDecoder().decode(
        await unseal(this.#keys, KEY_CHECK, this.#map.get(KEY_CHECK)),
      );
      if (text !== KEY_CHECK_TEXT) throw new Error('unexpected key check');
      this.#verified = true;
    } catch (cause) {
      this.#verified = false;
      throw new AnamnesisError(
        'WRONG_PASSPHRASE',
        'the sync passphrase does not open this room (its key check does not authenticate): nothing is sent or applied',
        { cause },
      );
    }
  }

  async #writeKeyCheck(): Promise<void> {
    const sealed = await seal(this.#keys, KEY_CHECK, utf8ToBytes(KEY_CHECK_TEXT));
    this.#doc.transact(() => this.#map.set(KEY_CHECK, sealed), LOCAL);
    this.#verified = true;
  }

  /** Reads the entries received (and the saved ones at start) into the records. */
  async #readReceived(): Promise<void> {
    const keys = [...this.#received];
    this.#received.clear();
    const changed = new Set<string>();
    let tampered: AnamnesisError | undefined;
    for (const key of keys) {
      if (key === KEY_CHECK) continue;
      const dot = key.indexOf('.');
      const device = key.slice(dot + 1);
      const sealed = this.#map.get(key);
      if (sealed === undefined) continue;
      let record: SyncRecord;
      try {
        record = parseRecord(await unseal(this.#keys, key, sealed), key);
        if (blindName(this.#keys, record.id) !== key.slice(0, dot))
          throw new AnamnesisError(
            'SYNC_TAMPERED',
            `the synced record ${key} names another memory`,
            {
              details: { key },
            },
          );
      } catch (e) {
        if (!(e instanceof AnamnesisError)) throw e;
        tampered = e;
        continue;
      }
      this.#clock.see(record.at);
      if (this.#resolution.set(device, record)) changed.add(record.id);
    }
    if (tampered) this.#setStatus({ error: tampered });
    if (this.#reconciled && changed.size > 0) await this.#apply(changed);
  }

  /** The engine's state of `ids` (those it has), or of every memory. */
  async #local(ids: readonly string[] | undefined): Promise<Map<string, ExportedMemory>> {
    const out = new Map<string, ExportedMemory>();
    if (ids?.length === 0) return out;
    const jsonl = await this.#engine.export(ids ? { ids } : {});
    for (const line of jsonl.split('\n')) {
      if (!line) continue;
      const value = JSON.parse(line) as ExportedMemory | { type: string };
      if (value.type === 'memory') out.set((value as ExportedMemory).id, value as ExportedMemory);
    }
    return out;
  }

  /** Brings the engine to what the records say for `ids` (and what waited on them). */
  async #apply(ids: Set<string>): Promise<void> {
    for (const id of this.#retry) ids.add(id);
    this.#retry.clear();
    for (const id of [...ids]) for (const from of this.#waiting.get(id) ?? []) ids.add(from);
    // A memory merged into another goes with the one kept: either changed, both are applied.
    for (const id of [...ids]) for (const other of this.#resolution.sameText(id)) ids.add(other);
    const list = [...ids];
    const local = await this.#local(list);
    const forget: string[] = [];
    const add: SyncRecord[] = [];
    const edit: SyncRecord[] = [];
    const forgottenHere: string[] = [];
    for (const id of list) {
      const w = this.#resolution.winner(id);
      if (!w) continue;
      const have = local.get(id);
      if (w.forgotten || this.#resolution.keeperOf(id) !== undefined) {
        if (have) forget.push(id);
      } else if (!have) {
        // This device's own record says it had the memory: it was forgotten here, and the forget
        // is not published yet (a reload right after it, or its change still in the queue).
        const own = this.#resolution.records(id)?.get(this.#device);
        if (own && !own.forgotten && !this.#replaced) forgottenHere.push(id);
        else add.push(w);
      } else if (!sameState(syncedState(have), w.memory!)) edit.push(w);
    }
    if (forgottenHere.length > 0) await this.#publish(forgottenHere, local);
    if (forget.length > 0) await this.#attempt(forget, () => this.#engine.forget(forget));
    // In batches: each is one transaction of the engine, and a first sync of many memories shows
    // its progress (and keeps what arrived if the device stops half-way).
    for (let start = 0; start < add.length; start += IMPORT_BATCH) {
      const batch = add.slice(start, start + IMPORT_BATCH);
      const lines = batch.map((r) => {
        const { links: _links, ...m } = r.memory!;
        return JSON.stringify({ type: 'memory', id: r.id, ...m, updatedAt: m.createdAt });
      });
      await this.#attempt(
        batch.map((r) => r.id),
        () => this.#engine.import(lines.join('\n'), { onConflict: 'skip' }),
      );
    }
    for (const r of edit) {
      const m = r.memory!;
      const have = syncedState(local.get(r.id)!);
      if (canonical({ ...have, links: [] }) !== canonical({ ...m, links: [] }))
        await this.#attempt([r.id], () =>
          this.#engine.update(r.id, {
            text: m.text,
            kind: m.kind,
            session: m.session,
            tags: m.tags,
            importance: m.importance,
            meta: m.meta,
          }),
        );
    }
    const linked = [...add, ...edit].filter((r) => !this.#retry.has(r.id));
    if (linked.length > 0) await this.#applyLinks(linked, local);
    await this.#applyUsage(add.map((r) => r.id).filter((id) => !this.#retry.has(id)));
    const applied = [...forget, ...linked.map((r) => r.id)].filter((id) => !this.#retry.has(id));
    if (applied.length === 0) return;
    for (const listener of this.#applyListeners) {
      try {
        listener(applied);
      } catch (e) {
        console.error('anamnesis sync: an applied listener threw', e);
      }
    }
  }

  /**
   * Runs one write of an apply; when the engine refuses it, `ids` are kept to apply again (see
   * {@link #retry}) and the error is the status's, and the apply goes on with the others.
   */
  async #attempt(ids: string[], write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (e) {
      for (const id of ids) this.#retry.add(id);
      this.#fail(e);
    }
  }

  /** Makes each memory's links what its record says (targets not here yet wait for them). */
  async #applyLinks(records: SyncRecord[], local: Map<string, ExportedMemory>): Promise<void> {
    const kept = (id: string) => this.#resolution.keeperOf(id) ?? id;
    const targets = new Set<string>();
    for (const r of records) for (const l of r.memory!.links) targets.add(kept(l.to));
    const present = await this.#local([...targets]);
    for (const r of records) {
      const want = r.memory!.links.map((l) => ({ ...l, to: kept(l.to) }));
      const have = local.get(r.id)?.links ?? [];
      const key = (l: { to: string; kind: string; weight: number }) =>
        `${l.to}\0${l.kind}\0${l.weight}`;
      const wanted = new Set(want.map(key));
      for (const l of have)
        if (!wanted.has(key(l)))
          await this.#attempt([r.id], () => this.#engine.unlink(r.id, l.to, l.kind));
      const had = new Set(have.map(key));
      for (const l of want) {
        if (had.has(key(l))) continue;
        if (!present.has(l.to)) {
          const waiting = this.#waiting.get(l.to) ?? new Set<string>();
          waiting.add(r.id);
          this.#waiting.set(l.to, waiting);
          continue;
        }
        this.#waiting.get(l.to)?.delete(r.id);
        await this.#attempt([r.id], () => this.#engine.link(r.id, l));
      }
    }
  }

  /** Publishes the local changes heard, where they differ from what the records say. */
  async #publishHeard(): Promise<void> {
    if (!this.#reconciled || this.#heard.size === 0) return;
    const ids = [...this.#heard];
    this.#heard.clear();
    await this.#publish(ids);
  }

  /**
   * Once the key is verified: every local memory and every memory the records know, compared.
   * What changed here while the sync was not running (or before this device first synced) is
   * published; what the records say and this device lacks is applied.
   */
  async #reconcileOnce(): Promise<void> {
    if (!this.#verified || this.#reconciled) return;
    this.#heard.clear();
    await this.#readUsage(); // before publishing: this device's own usage as it last published it
    const all = await this.#local(undefined);
    if (all.size === 0 && this.#applied.size > 0) {
      this.#replaced = true;
      this.#applied.clear();
    }
    await this.#publish([...new Set([...all.keys(), ...this.#applied])], all);
    this.#applied.clear();
    this.#reconciled = true;
    await this.#apply(new Set(this.#resolution.ids()));
    await this.#applyUsage(this.#usage.keys());
  }

  /**
   * After another process wrote the store: every memory here and every live one the records know,
   * compared, and what differs published (a memory gone here, and applied here before, was
   * forgotten here: every record received has been applied when this runs, in the queue, except
   * those waiting to be tried again).
   */
  async #compareAll(): Promise<void> {
    if (!this.#reconciled) return; // the first reconcile compares everything anyway
    const all = await this.#local(undefined);
    const known = [...this.#resolution.ids()].filter(
      (id) =>
        !all.has(id) && !this.#retry.has(id) && this.#resolution.winner(id)?.forgotten !== true,
    );
    await this.#publish([...all.keys(), ...known], all);
  }

  async #publish(ids: string[], known?: Map<string, ExportedMemory>): Promise<void> {
    const local = known ?? (await this.#local(ids));
    await this.#publishUsage(ids, local);
    const writes: [string, SyncRecord][] = [];
    for (const id of ids) {
      const have = local.get(id);
      const w = this.#resolution.winner(id);
      const merged = this.#resolution.keeperOf(id) !== undefined;
      const seen = latest(this.#resolution.records(id));
      if (!have) {
        // Gone here: a forget to publish, unless the records already say so.
        if (w && !w.forgotten && !merged)
          writes.push([id, { id, at: this.#clock.tick(), seen, forgotten: true }]);
        continue;
      }
      if (merged) continue; // kept elsewhere under another id: forgotten when applied
      if (w?.forgotten) continue; // forget beats the edit this device has not applied yet
      const state = syncedState(have);
      if (w && sameState(w.memory!, state)) continue;
      writes.push([
        id,
        {
          id,
          at: this.#clock.tick(),
          seen,
          textHash: bytesToHex(sha256(utf8ToBytes(`${state.session ?? ''}\0${state.text}`))),
          memory: state,
        },
      ]);
    }
    if (writes.length === 0) return;
    const sealed: [string, Uint8Array][] = [];
    for (const [id, record] of writes) {
      const key = `${blindName(this.#keys, id)}.${this.#device}`;
      sealed.push([key, await seal(this.#keys, key, utf8ToBytes(JSON.stringify(record)))]);
      this.#resolution.set(this.#device, record);
    }
    this.#doc.transact(() => {
      for (const [key, bytes] of sealed) this.#map.set(key, bytes);
    }, LOCAL);
    if (!this.#status.synced) for (const [key] of sealed) this.#unsent.add(key);
    this.#setStatus({});
    // A memory this device remembered with a text another device's memory has: apply the merge.
    const touched = new Set(
      writes.flatMap(([id]) => {
        const same = this.#resolution.sameText(id);
        return same.length > 1 ? same : [];
      }),
    );
    if (touched.size > 0) await this.#apply(touched);
  }

  /** Reads the usage entries received (and the saved ones at start); applies other devices'. */
  async #readUsage(): Promise<void> {
    const keys = [...this.#usageReceived];
    this.#usageReceived.clear();
    const changed = new Set<string>();
    let tampered: AnamnesisError | undefined;
    for (const key of keys) {
      const sealed = this.#usageMap.get(key);
      if (sealed === undefined) continue;
      const dot = key.indexOf('.');
      try {
        const record = parseUsage(await unseal(this.#keys, `usage:${key}`, sealed), key);
        if (blindName(this.#keys, record.id) !== key.slice(0, dot))
          throw new AnamnesisError(
            'SYNC_TAMPERED',
            `the synced usage ${key} names another memory`,
            {
              details: { key },
            },
          );
        const byDevice = this.#usage.get(record.id) ?? new Map<string, DeviceUsage[]>();
        byDevice.set(key.slice(dot + 1), record.usage);
        this.#usage.set(record.id, byDevice);
        changed.add(record.id);
      } catch (e) {
        if (!(e instanceof AnamnesisError)) throw e;
        tampered = e;
      }
    }
    if (tampered) this.#setStatus({ error: tampered });
    if (this.#reconciled) await this.#applyUsage(changed);
  }

  /** Brings other devices' usage of `ids` into the store here (those it has). */
  async #applyUsage(ids: Iterable<string>): Promise<void> {
    for (const id of ids) {
      for (const [device, usage] of this.#usage.get(id) ?? []) {
        if (device === this.#device) continue;
        const applied = this.#usageApplied.get(id) ?? new Map<string, string>();
        const text = canonical(usage);
        if (applied.get(device) === text) continue;
        try {
          await this.#engine.setDeviceUsage(id, device, usage);
        } catch (e) {
          if ((e as { code?: string }).code === 'NOT_FOUND') continue; // applied when it arrives
          this.#fail(e);
          continue;
        }
        applied.set(device, text);
        this.#usageApplied.set(id, applied);
      }
    }
  }

  /** Publishes this device's own usage of the memories in `local` where it changed. */
  async #publishUsage(ids: string[], local: Map<string, ExportedMemory>): Promise<void> {
    const writes: [string, Uint8Array][] = [];
    for (const id of ids) {
      const have = local.get(id);
      if (!have) continue;
      const usage = ownUsage(have);
      const published = this.#usage.get(id)?.get(this.#device);
      if (published ? sameUsage(published, usage) : usage.length === 0) continue;
      const key = `${blindName(this.#keys, id)}.${this.#device}`;
      const bytes = utf8ToBytes(JSON.stringify({ id, usage }));
      writes.push([key, await seal(this.#keys, `usage:${key}`, bytes)]);
      const byDevice = this.#usage.get(id) ?? new Map<string, DeviceUsage[]>();
      byDevice.set(this.#device, usage);
      this.#usage.set(id, byDevice);
    }
    if (writes.length === 0) return;
    this.#doc.transact(() => {
      for (const [key, bytes] of writes) this.#usageMap.set(key, bytes);
    }, LOCAL);
    if (!this.#status.synced) for (const [key] of writes) this.#unsent.add(`usage:${key}`);
  }
}

/**
 * The room's name on the server: a hash of the room alone (not of the passphrase), so a device
 * with a wrong passphrase meets the room, fails its key check and is told.
 */
function roomName(room: string): string {
  return bytesToHex(sha256(utf8ToBytes(`anamnesis-sync-room\0${room}`))).slice(0, 32);
}

/** The latest stamp of a memory's records. */
function latest(byDevice: ReadonlyMap<string, SyncRecord> | undefined): Stamp {
  let max: Stamp = ZERO;
  for (const r of byDevice?.values() ?? []) if (r.at > max) max = r.at;
  return max;
}

/** A record's JSON, checked: `SYNC_TAMPERED` if it is not one (it authenticated, so a bug or a hostile peer). */
function parseRecord(bytes: Uint8Array, key: string): SyncRecord {
  let r: SyncRecord;
  try {
    r = JSON.parse(new TextDecoder().decode(bytes)) as SyncRecord;
  } catch (cause) {
    throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${key} is not JSON`, {
      cause,
      details: { key },
    });
  }
  const ok =
    r &&
    typeof r.id === 'string' &&
    isStamp(r.at) &&
    (r.seen === ZERO || isStamp(r.seen)) &&
    (r.forgotten === true
      ? r.memory === undefined
      : !!r.memory && typeof r.memory.text === 'string' && Array.isArray(r.memory.links));
  if (!ok)
    throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${key} is not a memory record`, {
      details: { key },
    });
  return r;
}

/** The `markUsed` kinds that travel (a recall's `retrieved` events stay on the device). */
const SYNCED_USAGE = new Set(['selected', 'used', 'discarded']);

/** A memory's own usage as the engine exports it, folded per kind (sorted by kind). */
function ownUsage(line: ExportedMemory): DeviceUsage[] {
  const folds = new Map<string, FoldedUsage>();
  for (const f of line.usageFolded ?? [])
    if (SYNCED_USAGE.has(f.event)) folds.set(f.event, { ...f });
  foldEvents(
    folds,
    (line.usage ?? []).filter((u) => SYNCED_USAGE.has(u.event)),
  );
  return [...folds.values()]
    .sort((a, b) => (a.event < b.event ? -1 : 1))
    .map((f) => ({ ...f, event: f.event as DeviceUsage['event'] }));
}

/** Whether two usages are the same (the decayed sums up to rounding: a fold of old events). */
function sameUsage(a: DeviceUsage[], b: DeviceUsage[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (u, i) =>
        u.event === b[i]!.event &&
        u.count === b[i]!.count &&
        u.at === b[i]!.at &&
        Math.abs(u.decayed - b[i]!.decayed) <= 1e-9 * Math.max(1, u.decayed),
    )
  );
}

/** A usage entry's JSON, checked: `SYNC_TAMPERED` if it is not one. */
function parseUsage(bytes: Uint8Array, key: string): { id: string; usage: DeviceUsage[] } {
  let r: { id?: unknown; usage?: unknown };
  try {
    r = JSON.parse(new TextDecoder().decode(bytes)) as typeof r;
  } catch (cause) {
    throw new AnamnesisError('SYNC_TAMPERED', `the synced usage ${key} is not JSON`, {
      cause,
      details: { key },
    });
  }
  const ok =
    r !== null &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    Array.isArray(r.usage) &&
    r.usage.every(
      (u: Partial<DeviceUsage> | null) =>
        u !== null &&
        typeof u === 'object' &&
        SYNCED_USAGE.has(u.event as string) &&
        Number.isSafeInteger(u.count) &&
        Number.isFinite(u.decayed) &&
        Number.isFinite(u.at),
    );
  if (!ok)
    throw new AnamnesisError('SYNC_TAMPERED', `the synced usage ${key} is not a usage record`, {
      details: { key },
    });
  return r as { id: string; usage: DeviceUsage[] };
}
