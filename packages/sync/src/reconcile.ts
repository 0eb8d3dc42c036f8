/**
 * The records and the store, brought together: what other devices recorded is applied to the
 * store here through the engine's own API (`import`, `update`, `forget`, `link`, `unlink`), and
 * what changed here is published as this device's records, where it differs from what the
 * records already say (so an apply does not echo back). The conflict rules are `resolve.ts`'s.
 *
 * Restarts: what this device changed while its sync was off is found by comparing the whole store
 * with the records once the room's key is verified (`reconcileOnce`); a memory it had applied
 * before (in its saved state) and no longer has was forgotten here.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { ZERO } from './clock.ts';
import type { AntiEntropy } from './anti-entropy.ts';
import { KEY_CHECK, LOCAL, type RoomContext } from './context.ts';
import {
  canonical,
  latest,
  sameState,
  syncedState,
  textHash,
  type ExportedMemory,
  type SyncedMemory,
  type SyncRecord,
} from './records.ts';
import { stampFields } from './merge.ts';
import { parseRecord, recordBytes } from './wire.ts';
import { Resolution } from './resolve.ts';
import { blindName, seal, unseal } from './seal.ts';
import type { UsageExchange } from './usage.ts';

/** The parts of a memory an apply edits through `engine.update` (links have their own calls). */
const EDITABLE = ['text', 'kind', 'session', 'tags', 'importance', 'meta'] as const;
type EditablePart = (typeof EDITABLE)[number];

/** Records unsealed at once when many arrive (see `readReceived`). */
const UNSEAL_AHEAD = 256;

/**
 * Memories imported per transaction when many arrive at once: a first sync of 10,000 memories in
 * Node took 1.72–1.79 s in batches of 2,000, 1.81–2.06 s in batches of 500 (three alternated pairs
 * of `bench:sync`, 2026-12-07: fewer commits, and fewer of the engine's steps after a write).
 */
const IMPORT_BATCH = 2000;

/** One room's records and this device's store, kept in step. */
export class Reconciler {
  readonly #room: RoomContext;
  readonly #usage: UsageExchange;
  readonly #entropy: AntiEntropy;
  /** Every device's record of each memory, and what the rules make of them. */
  readonly resolution = new Resolution();
  /** Ids heard changed locally, not yet looked at. */
  readonly heard = new Set<string>();
  /** Map keys received, not yet read. */
  readonly received = new Set<string>();
  /**
   * Memories whose apply failed (the engine refused a write: a full disk, a race with a local
   * write): applied again with the next apply, and at the next exchange with the server.
   */
  readonly retry = new Set<string>();
  /** Links waiting for their target to arrive: target id → ids whose links name it. */
  readonly #waiting = new Map<string, Set<string>>();
  /** Whether the whole store has been compared with the records since the key was verified. */
  reconciled = false;
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
  readonly #applyListeners = new Set<(ids: string[]) => void>();

  /** Another device's record was read (the first sight of another device in the room). */
  onOther: () => void = () => {};

  constructor(room: RoomContext, usage: UsageExchange, entropy: AntiEntropy) {
    this.#room = room;
    this.#usage = usage;
    this.#entropy = entropy;
  }

  /** Calls `listener` with the ids of each apply (see `StoreSync.onApplied`). */
  onApplied(listener: (ids: string[]) => void): () => void {
    this.#applyListeners.add(listener);
    return () => this.#applyListeners.delete(listener);
  }

  /**
   * At start, with the saved document loaded: reads its records, which this device had applied
   * (the state is saved only then), so that a memory it had and has no more is told as forgotten
   * here while the sync was not running.
   */
  async readSaved(): Promise<void> {
    for (const key of this.#room.records.keys()) if (key !== KEY_CHECK) this.received.add(key);
    await this.readReceived();
    for (const id of this.resolution.ids()) this.#applied.add(id);
  }

  /** Reads the entries received (and the saved ones at start) into the records. */
  async readReceived(): Promise<void> {
    const { keys, records } = this.#room;
    const names = [...this.received];
    this.received.clear();
    const changed = new Set<string>();
    let tampered: AnamnesisError | undefined;
    // Opened many at a time: WebCrypto decrypts off the main thread, so one at a time would
    // leave it waiting on each (a first sync reads thousands).
    const opened = new Map<string, { sealed: Uint8Array; bytes: Promise<Uint8Array> }>();
    const open = (from: number) => {
      for (const key of names.slice(from, from + UNSEAL_AHEAD)) {
        const sealed = records.get(key);
        if (key !== KEY_CHECK && sealed !== undefined) {
          const bytes = unseal(keys, key, sealed);
          bytes.catch(() => undefined); // read (and told) in order below
          opened.set(key, { sealed, bytes });
        }
      }
    };
    for (let i = 0; i < names.length; i++) {
      if (i % UNSEAL_AHEAD === 0) open(i);
      const key = names[i]!;
      if (key === KEY_CHECK) continue;
      const dot = key.indexOf('.');
      const device = key.slice(dot + 1);
      // the entry as it was opened (one changed since is read again: its key is received again)
      const entry = opened.get(key);
      opened.delete(key);
      if (entry === undefined) {
        this.#entropy.lost(key, 'deleted');
        continue;
      }
      const { sealed } = entry;
      let record: SyncRecord;
      try {
        record = parseRecord(await entry.bytes, key);
        if (blindName(keys, record.id) !== key.slice(0, dot))
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
        this.#entropy.lost(key, 'tampered');
        continue;
      }
      // an older record than one seen under this key: a replay, put right by anti-entropy
      if (!this.#entropy.saw(key, record.at, sealed)) continue;
      if (device !== this.#room.device) this.onOther();
      this.#room.clock.see(record.at);
      if (this.resolution.set(device, record)) changed.add(record.id);
    }
    if (tampered) this.#room.fail(tampered);
    if (this.reconciled && changed.size > 0) await this.apply(changed);
  }

  /** The engine's state of `ids` (those it has), or of every memory. */
  async #local(ids: readonly string[] | undefined): Promise<Map<string, ExportedMemory>> {
    const out = new Map<string, ExportedMemory>();
    if (ids?.length === 0) return out;
    const jsonl = await this.#room.engine.export(ids ? { ids } : {});
    for (const line of jsonl.split('\n')) {
      if (!line) continue;
      const value = JSON.parse(line) as ExportedMemory | { type: string };
      if (value.type === 'memory') out.set((value as ExportedMemory).id, value as ExportedMemory);
    }
    return out;
  }

  /** Brings the engine to what the records say for `ids` (and what waited on them). */
  async apply(ids: Set<string>): Promise<void> {
    const { engine, device } = this.#room;
    for (const id of this.retry) ids.add(id);
    this.retry.clear();
    for (const id of [...ids]) for (const from of this.#waiting.get(id) ?? []) ids.add(from);
    // A memory merged into another goes with the one kept: either changed, both are applied.
    for (const id of [...ids]) for (const other of this.resolution.sameText(id)) ids.add(other);
    const list = [...ids];
    const local = await this.#local(list);
    const forget: string[] = [];
    const add: SyncRecord[] = [];
    const edit: SyncRecord[] = [];
    const forgottenHere: string[] = [];
    const purge: [string, SyncRecord][] = [];
    for (const id of list) {
      const w = this.resolution.winner(id);
      if (!w) continue;
      const have = local.get(id);
      if (w.forgotten || this.resolution.keeperOf(id) !== undefined) {
        if (have) forget.push(id);
        // purged, while this device's own entry still holds the text (it wrote it while away)
        if (w.forgotten && !w.memory && this.resolution.records(id)?.get(device)?.memory)
          purge.push([
            device,
            {
              id,
              at: this.#room.clock.tick(),
              seen: latest(this.resolution.records(id)),
              forgotten: true,
            },
          ]);
      } else if (!have) {
        // This device's own record says it had the memory: it was forgotten here, and the forget
        // is not published yet (a reload right after it, or its change still in the queue).
        // Unless another device forgot it after that record (this device applied that forget)
        // and it is back from the trash.
        const records = this.resolution.records(id)!;
        const own = records.get(device);
        const forgottenSince =
          own &&
          ((w.restored ?? ZERO) > own.at ||
            [...records.values()].some((r) => r.forgotten && r.at > own.at));
        if (own && !own.forgotten && !this.#replaced && !forgottenSince) forgottenHere.push(id);
        else add.push(w);
      } else if (!sameState(syncedState(have), w.memory!)) edit.push(w);
    }
    if (forgottenHere.length > 0) await this.publish(forgottenHere, local);
    if (purge.length > 0) await this.write(purge);
    if (forget.length > 0) await this.#attempt(forget, () => engine.forget(forget));
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
        () => engine.import(lines.join('\n'), { onConflict: 'skip' }),
      );
    }
    for (const r of edit) {
      // only the parts that differ: a part edited here meanwhile and not heard yet is left alone
      const m = r.memory!;
      const have = syncedState(local.get(r.id)!);
      const patch: Partial<Pick<SyncedMemory, EditablePart>> = {};
      for (const part of EDITABLE)
        if (canonical(have[part]) !== canonical(m[part])) Object.assign(patch, { [part]: m[part] });
      if (Object.keys(patch).length > 0)
        await this.#attempt([r.id], () => engine.update(r.id, patch));
    }
    const linked = [...add, ...edit].filter((r) => !this.retry.has(r.id));
    if (linked.length > 0) await this.#applyLinks(linked, local);
    await this.#usage.apply(add.map((r) => r.id).filter((id) => !this.retry.has(id)));
    const applied = [...forget, ...linked.map((r) => r.id)].filter((id) => !this.retry.has(id));
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
   * {@link retry}) and the error is the status's, and the apply goes on with the others.
   */
  async #attempt(ids: string[], write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (e) {
      for (const id of ids) this.retry.add(id);
      this.#room.fail(e);
    }
  }

  /** Makes each memory's links what its record says (targets not here yet wait for them). */
  async #applyLinks(records: SyncRecord[], local: Map<string, ExportedMemory>): Promise<void> {
    const { engine } = this.#room;
    const kept = (id: string) => this.resolution.keeperOf(id) ?? id;
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
          await this.#attempt([r.id], () => engine.unlink(r.id, l.to, l.kind));
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
        await this.#attempt([r.id], () => engine.link(r.id, l));
      }
    }
  }

  /** Publishes the local changes heard, where they differ from what the records say. */
  async publishHeard(): Promise<void> {
    if (!this.reconciled || this.heard.size === 0) return;
    const ids = [...this.heard];
    this.heard.clear();
    await this.publish(ids);
  }

  /**
   * Once the key is verified: every local memory and every memory the records know, compared.
   * What changed here while the sync was not running (or before this device first synced) is
   * published; what the records say and this device lacks is applied.
   */
  async reconcileOnce(): Promise<void> {
    if (this.reconciled) return;
    this.heard.clear();
    await this.#usage.read(false); // before publishing: this device's own usage as it last published it
    const all = await this.#local(undefined);
    if (all.size === 0 && this.#applied.size > 0) {
      this.#replaced = true;
      this.#applied.clear();
    }
    await this.publish([...new Set([...all.keys(), ...this.#applied])], all);
    this.#applied.clear();
    this.reconciled = true;
    await this.apply(new Set(this.resolution.ids()));
    await this.#usage.apply(this.#usage.ids());
  }

  /**
   * After another process wrote the store: every memory here and every live one the records know,
   * compared, and what differs published (a memory gone here, and applied here before, was
   * forgotten here: every record received has been applied when this runs, in the queue, except
   * those waiting to be tried again).
   */
  async compareAll(): Promise<void> {
    if (!this.reconciled) return; // the first reconcile compares everything anyway
    const all = await this.#local(undefined);
    const known = [...this.resolution.ids()].filter(
      (id) => !all.has(id) && !this.retry.has(id) && this.resolution.winner(id)?.forgotten !== true,
    );
    await this.publish([...all.keys(), ...known], all);
  }

  /**
   * Publishes this device's records of `ids` where the store differs from what the records say.
   * `renewText`: memories whose text is published as chosen now even where it is unchanged (a
   * person kept it over a concurrent edit: see `resolveConflict`). `restore`: memories in the
   * trash brought back here (published live over their forget, see `trash.ts`).
   */
  async publish(
    ids: string[],
    known?: Map<string, ExportedMemory>,
    { renewText = new Set(), restore = new Set() }: PublishOptions = {},
  ): Promise<void> {
    const { clock, device } = this.#room;
    const local = known ?? (await this.#local(ids));
    await this.#usage.publish(ids, local);
    const writes: [string, SyncRecord][] = [];
    for (const id of ids) {
      const have = local.get(id);
      const w = this.resolution.winner(id);
      const merged = this.resolution.keeperOf(id) !== undefined;
      const seen = latest(this.resolution.records(id));
      if (!have) {
        // Gone here: a forget to publish, unless the records already say so. The tombstone keeps
        // the memory's last state, sealed, for the trash (until it is purged).
        if (w && !w.forgotten && !merged)
          writes.push([
            device,
            { id, at: clock.tick(), seen, forgotten: true, memory: w.memory, fields: w.fields },
          ]);
        continue;
      }
      if (merged) continue; // kept elsewhere under another id: forgotten when applied
      // forget beats the edit this device has not applied yet, unless it is a restore
      if (w?.forgotten && !restore.has(id)) continue;
      const state = syncedState(have);
      if (w && !w.forgotten && sameState(w.memory!, state) && !renewText.has(id)) continue;
      const at = clock.tick();
      const fields = stampFields(state, w?.memory ? w : undefined, at, renewText.has(id));
      // a restore undoes the forget it is written over; later records carry that on
      const restored = restore.has(id) && w?.forgotten ? w.at : w?.restored;
      writes.push([
        device,
        {
          id,
          at,
          seen,
          textHash: textHash(state),
          memory: state,
          fields,
          ...(restored ? { restored } : {}),
        },
      ]);
    }
    if (writes.length === 0) return;
    await this.write(writes);
    // A memory this device remembered with a text another device's memory has: apply the merge.
    const touched = new Set(
      writes.flatMap(([, { id }]) => {
        const same = this.resolution.sameText(id);
        return same.length > 1 ? same : [];
      }),
    );
    if (touched.size > 0) await this.apply(touched);
  }

  /**
   * Seals and writes records into the room, each under its memory's blind name and the device
   * given (this device's own, or, for a purge, the device whose entry it replaces), in one Yjs
   * transaction, and takes them into the records.
   */
  async write(writes: readonly [device: string, record: SyncRecord][]): Promise<void> {
    const { keys, doc, records } = this.#room;
    const sealed: [string, Uint8Array][] = [];
    for (const [device, record] of writes) {
      const key = `${blindName(keys, record.id)}.${device}`;
      const bytes = await seal(keys, key, recordBytes(record));
      sealed.push([key, bytes]);
      this.resolution.set(device, record);
      this.#entropy.saw(key, record.at, bytes);
    }
    doc.transact(() => {
      for (const [key, bytes] of sealed) records.set(key, bytes);
    }, LOCAL);
    this.#room.wrote(sealed.map(([key]) => key));
  }
}

/** Options of {@link Reconciler.publish}. */
export interface PublishOptions {
  renewText?: ReadonlySet<string>;
  restore?: ReadonlySet<string>;
}
