/**
 * Anti-entropy: each online device keeps the room's entries as new as the newest records it has
 * seen. Anyone who knows the room's name (the server, or a client it lets in) can delete an
 * entry, write an older sealed record back over a newer one (a replay: it authenticates, it was
 * sealed by a device), or write bytes that do not authenticate. A device that was online keeps its
 * copy and ignores all three, but a device that joins later reads the room as it is: a replayed
 * record would bring a forgotten memory back there, a deleted or unreadable one would leave a
 * memory out. So a device keeps, per map key, the newest record it has read or written (its stamp
 * and its sealed bytes, verbatim: it can put back another device's record, which it cannot seal),
 * and when the room's entry is behind it (missing, older, unreadable) it writes that record back.
 *
 * Two honest devices do not rewrite each other: one key's records are all stamped by the one
 * device that owns the key, so their stamps are totally ordered; a device repairs only an entry
 * strictly older than one it holds, and takes a newer one as its own newest. Repairs of the same
 * bytes by two devices at once leave the same entry, whichever Yjs keeps.
 */
import type { Stamp } from './clock.ts';
import { LOCAL, type RoomContext } from './context.ts';
import type { RepairKind } from './types.ts';

/** The newest record seen under one map key. */
interface Kept {
  at: Stamp;
  bytes: Uint8Array;
}

/** One room's entries compared with the newest records this device has seen, and put back. */
export class AntiEntropy {
  readonly #room: RoomContext;
  readonly #newest = new Map<string, Kept>();
  /** Keys whose entry in the room is behind the newest record seen, and why. */
  readonly #due = new Map<string, RepairKind>();
  /** Entries put back in this run, by why. */
  readonly repaired: Record<RepairKind, number> = { replayed: 0, deleted: 0, tampered: 0 };

  constructor(room: RoomContext) {
    this.#room = room;
  }

  /** Whether some entry of the room is behind what this device holds (a repair is due). */
  get due(): boolean {
    return this.#due.size > 0;
  }

  /**
   * A record that authenticated under `key` (read from the room, or written here), stamped `at`
   * (the key check, unstamped: the empty stamp): kept when it is the newest seen; false when it is older than a
   * record seen before, a replay, whose key is then due.
   */
  saw(key: string, at: Stamp, bytes: Uint8Array): boolean {
    const kept = this.#newest.get(key);
    if (kept && kept.at > at) {
      this.#due.set(key, 'replayed');
      return false;
    }
    if (!kept || at > kept.at) this.#newest.set(key, { at, bytes });
    this.#due.delete(key);
    return true;
  }

  /** The entry under `key` is gone or does not authenticate: due, if this device holds a record of it. */
  lost(key: string, why: 'deleted' | 'tampered'): void {
    if (this.#newest.has(key)) this.#due.set(key, why);
  }

  /** At a join: every entry this device holds a record of and the room lacks is due. */
  sweep(): void {
    const { records } = this.#room;
    for (const key of this.#newest.keys()) if (!records.has(key)) this.#due.set(key, 'deleted');
  }

  /**
   * Writes back the newest record of every key due whose entry is not already it (another device
   * may have put it back first); returns how many entries it wrote.
   */
  repair(): number {
    const { doc, records } = this.#room;
    const writes: [string, Uint8Array][] = [];
    for (const [key, why] of this.#due) {
      const kept = this.#newest.get(key)!;
      const now = records.get(key);
      if (now !== undefined && sameBytes(now, kept.bytes)) continue;
      writes.push([key, kept.bytes]);
      this.repaired[why]++;
    }
    this.#due.clear();
    if (writes.length === 0) return 0;
    doc.transact(() => {
      for (const [key, bytes] of writes) records.set(key, bytes);
    }, LOCAL);
    this.#room.wrote(writes.map(([key]) => key));
    return writes.length;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (!(a instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
