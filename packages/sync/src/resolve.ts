/**
 * The conflict rules, pure: which of the devices' records of a memory decides its state, and
 * which memory of several with one text is kept. Every device computes the same answer from the
 * same set of records, whatever order they arrived in, so the devices converge.
 *
 * 1. **Last writer wins, part by part**, by hybrid logical clock stamp: of two edits of one
 *    memory, each part (text, kind, session, importance, links, each tag, each meta key) is the
 *    later stamp's; two concurrent text edits keep the earlier as a conflict version
 *    (`merge.ts`). Whether the memory is live or forgotten is the latest record's (`at`).
 * 2. **Forget beats a concurrent edit.** An edit made without having seen a forget of the memory
 *    (its `seen` is before the forget's stamp) loses to that forget, however late its stamp: what
 *    a person forgot on one device does not come back because another device, offline, touched
 *    it. An edit made after the device saw the forget is a deliberate return, and wins by rule 1.
 * 3. **One text, one memory.** Memories remembered with the same text on two devices (two ids)
 *    become the one with the smaller id; the other is forgotten on every device.
 */
import { mergeLive, type MergedRecord } from './merge.ts';
import { canonical, type SyncRecord } from './records.ts';

/**
 * The record that decides whether a memory is live among its records (one per device), if any
 * (rules 1 and 2): the latest of those no forget beats.
 */
export function winner(records: Iterable<SyncRecord>): SyncRecord | undefined {
  return decide([...records]).best;
}

function decide(all: SyncRecord[]): { best: SyncRecord | undefined; live: SyncRecord[] } {
  const forgets = all.filter((r) => r.forgotten);
  let best: SyncRecord | undefined;
  const live: SyncRecord[] = [];
  for (const r of all) {
    if (!r.forgotten && forgets.some((f) => f.at > r.seen)) continue; // rule 2
    if (!r.forgotten) live.push(r);
    if (!best || r.at > best.at) best = r; // rule 1
  }
  return { best, live };
}

/**
 * A memory's state from its records: the deciding tombstone when it is forgotten, else its live
 * records merged part by part (`merge.ts`).
 */
export function resolveRecords(records: Iterable<SyncRecord>): MergedRecord | undefined {
  const { best, live } = decide([...records]);
  return !best || best.forgotten ? best : mergeLive(live);
}

/**
 * The rules' answer kept up to date record by record (a record costs O(devices), not a pass over
 * every memory): each memory's records by device, its winner, and the live memories by text.
 */
export class Resolution {
  readonly #records = new Map<string, Map<string, SyncRecord>>();
  readonly #winners = new Map<string, MergedRecord>();
  /** Live winners by text hash (rule 3). */
  readonly #byText = new Map<string, Set<string>>();
  /** Live memories with concurrent text edits (`MergedRecord.conflicts`). */
  readonly conflicted = new Set<string>();
  /** Forgotten memories whose tombstone keeps their last state (the trash). */
  readonly trashed = new Set<string>();

  /** Sets `device`'s record of its memory; false (and nothing changes) unless it is newer. */
  set(device: string, record: SyncRecord): boolean {
    const byDevice = this.#records.get(record.id) ?? new Map<string, SyncRecord>();
    const old = byDevice.get(device);
    if (old && old.at >= record.at) return false;
    byDevice.set(device, record);
    this.#records.set(record.id, byDevice);
    const before = this.#winners.get(record.id);
    const after = resolveRecords(byDevice.values());
    if (after?.forgotten && after.memory) this.trashed.add(record.id);
    else this.trashed.delete(record.id);
    if (before && after && canonical(before) === canonical(after)) return true;
    if (before) this.#index(before, false);
    if (after) {
      this.#winners.set(record.id, after);
      this.#index(after, true);
    } else this.#winners.delete(record.id);
    return true;
  }

  #index(r: MergedRecord, add: boolean): void {
    if (r.forgotten || !r.textHash) return;
    if (add && r.conflicts?.length) this.conflicted.add(r.id);
    else this.conflicted.delete(r.id);
    const ids = this.#byText.get(r.textHash) ?? new Set<string>();
    if (add) ids.add(r.id);
    else ids.delete(r.id);
    if (ids.size > 0) this.#byText.set(r.textHash, ids);
    else this.#byText.delete(r.textHash);
  }

  /** Every memory with a record. */
  ids(): IterableIterator<string> {
    return this.#records.keys();
  }

  /** A memory's records, by device. */
  records(id: string): ReadonlyMap<string, SyncRecord> | undefined {
    return this.#records.get(id);
  }

  /** A memory's state: its tombstone, or its live records merged (rules 1 and 2). */
  winner(id: string): MergedRecord | undefined {
    return this.#winners.get(id);
  }

  /** The live memories with the text of `id` (itself first), or none when it is not live. */
  sameText(id: string): string[] {
    const w = this.#winners.get(id);
    if (!w || w.forgotten || !w.textHash) return [];
    return [id, ...[...this.#byText.get(w.textHash)!].filter((other) => other !== id)];
  }

  /** The memory that `id` is merged into (rule 3: the smallest id of its text), unless it is kept. */
  keeperOf(id: string): string | undefined {
    let kept = id;
    for (const other of this.sameText(id)) if (other < kept) kept = other;
    return kept === id ? undefined : kept;
  }
}
