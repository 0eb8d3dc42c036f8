/**
 * The conflict rules, pure: which of the devices' records of a memory decides its state, and
 * which memory of several with one text is kept. Every device computes the same answer from the
 * same set of records, whatever order they arrived in, so the devices converge.
 *
 * 1. **Last writer wins**, by hybrid logical clock stamp (`at`): of two edits of one memory, the
 *    later stamp's state is kept whole (text, tags, meta, importance, links).
 * 2. **Forget beats a concurrent edit.** An edit made without having seen a forget of the memory
 *    (its `seen` is before the forget's stamp) loses to that forget, however late its stamp: what
 *    a person forgot on one device does not come back because another device, offline, touched
 *    it. An edit made after the device saw the forget is a deliberate return, and wins by rule 1.
 * 3. **One text, one memory.** Memories remembered with the same text on two devices (two ids)
 *    become the one with the smaller id; the other is forgotten on every device.
 */
import type { SyncRecord } from './records.ts';

/** The record that decides a memory's state among its records (one per device), if any. */
export function winner(records: Iterable<SyncRecord>): SyncRecord | undefined {
  const all = [...records];
  const forgets = all.filter((r) => r.forgotten);
  let best: SyncRecord | undefined;
  for (const r of all) {
    if (!r.forgotten && forgets.some((f) => f.at > r.seen)) continue; // rule 2
    if (!best || r.at > best.at) best = r; // rule 1
  }
  return best;
}

/**
 * The memory kept for each text held by more than one live memory (rule 3): from the live
 * winners, a map of each id that is not kept to the id that is.
 */
export function duplicates(live: Iterable<SyncRecord>): Map<string, string> {
  const keeper = new Map<string, string>();
  for (const r of live) {
    if (!r.textHash) continue;
    const kept = keeper.get(r.textHash);
    if (kept === undefined || r.id < kept) keeper.set(r.textHash, r.id);
  }
  const merged = new Map<string, string>();
  for (const r of live) {
    const kept = r.textHash && keeper.get(r.textHash);
    if (kept && kept !== r.id) merged.set(r.id, kept);
  }
  return merged;
}
