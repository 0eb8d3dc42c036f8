/**
 * The trash. A memory forgotten on any device is gone from every store at once, but its
 * tombstone in the room keeps its last state, sealed under the room's key, for 30 days
 * (`SyncOptions.trashDays`): any device can list it (`Sync.trash()`) and bring it back
 * (`restore`), which is an edit made over the forget and so wins over it on every device. Then,
 * or at once with "Empty trash" (`emptyTrash`), the memory is purged: every entry of the room
 * that still holds its text (the tombstone, and any device's older record of it) is replaced by
 * a tombstone without it, whichever device wrote that entry, so the room and every device's
 * saved copy of it lose the text, including the entries of devices that are away.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { TrashedMemory } from '@anamnesis/engine';
import { wallTime } from './clock.ts';
import type { RoomContext } from './context.ts';
import { latest, type SyncRecord } from './records.ts';
import type { Reconciler } from './reconcile.ts';

/** How long a forgotten memory stays in the trash by default, in days. */
export const TRASH_DAYS = 30;

/** One room's trash. */
export class Trash {
  readonly #room: RoomContext;
  readonly #records: Reconciler;
  readonly #keepMs: number;
  readonly #now: () => number;

  constructor(room: RoomContext, records: Reconciler, keepDays: number, now: () => number) {
    this.#room = room;
    this.#records = records;
    this.#keepMs = keepDays * 86_400_000;
    this.#now = now;
  }

  /** The memories in the trash, the latest forgotten first. */
  list(): TrashedMemory[] {
    const { resolution } = this.#records;
    return [...resolution.trashed]
      .map((id) => {
        const w = resolution.winner(id)!;
        const { text, tags } = w.memory!;
        return { id, text, tags, forgottenAt: wallTime(w.at) };
      })
      .sort((a, b) => b.forgottenAt - a.forgottenAt || (a.id < b.id ? -1 : 1));
  }

  /** Brings a memory back from the trash, here and (as an edit over its forget) everywhere. */
  async restore(id: string): Promise<void> {
    const w = this.#records.resolution.winner(id);
    if (!w?.forgotten || !w.memory)
      throw new AnamnesisError('NOT_FOUND', `memory ${id} is not in the trash`, {
        details: { id },
      });
    const { links, ...m } = w.memory;
    const { engine } = this.#room;
    const line = JSON.stringify({ type: 'memory', id, ...m, updatedAt: this.#now() });
    await engine.import(line, { onConflict: 'skip' });
    // its links to memories still here (one to a memory forgotten since is not made)
    for (const link of links)
      await engine.link(id, link).catch((e: unknown) => {
        if (!(e instanceof AnamnesisError && e.code === 'NOT_FOUND')) throw e;
      });
    await this.#records.publish([id], undefined, { restore: new Set([id]) });
  }

  /**
   * Purges memories of the trash (all of it when `ids` is undefined): every entry of the room
   * that holds their text becomes a tombstone without it. Returns how many were purged.
   */
  async purge(ids?: readonly string[]): Promise<number> {
    const { resolution } = this.#records;
    const { clock } = this.#room;
    const writes: [string, SyncRecord][] = [];
    let purged = 0;
    for (const id of ids ?? [...resolution.trashed]) {
      if (!resolution.trashed.has(id)) continue;
      const records = resolution.records(id)!;
      const seen = latest(records);
      for (const [device, r] of records)
        if (r.memory) writes.push([device, { id, at: clock.tick(), seen, forgotten: true }]);
      purged++;
    }
    if (writes.length > 0) await this.#records.write(writes);
    return purged;
  }

  /** Purges what has been in the trash longer than it keeps things. */
  purgeExpired(): Promise<number> {
    const before = this.#now() - this.#keepMs;
    const expired = this.list()
      .filter((t) => t.forgottenAt <= before)
      .map((t) => t.id);
    return expired.length > 0 ? this.purge(expired) : Promise.resolve(0);
  }
}
