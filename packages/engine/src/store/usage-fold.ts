import { foldEvents, mergeFolded, type FoldedUsage } from '@anamnesis/ranking';
import type { Database } from './database.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * How long usage events (`retrieved` by recall, `selected` / `used` / `discarded` by `markUsed`)
 * stay in the `usage` table as events, in ms: 7 days. Older ones are folded into one row per
 * memory and event kind (`usage_folded`: how many, and their decayed sum at a reference time), so
 * the table holds a week of events, never a permanent log of what was read when.
 */
export const USAGE_EVENT_WINDOW_MS = 7 * DAY;

/** Events of one memory an import keeps as events; older ones are folded (see `foldEvents`). */
export const IMPORTED_EVENTS_PER_MEMORY = 1000;

/** One event as stored: its kind and time (ms since the epoch). */
export interface UsageEventRow {
  event: string;
  at: number;
}

/** Merges folded rows of one memory into its stored ones (inside a transaction). */
export function writeFolded(db: Database, rid: number, folded: Iterable<FoldedUsage>): void {
  for (const f of folded) {
    const [count, decayed, at] = (db.selectArray(
      'SELECT count, decayed, at FROM usage_folded WHERE rid = ? AND event = ?',
      [rid, f.event],
    ) ?? [0, 0, f.at]) as [number, number, number];
    const merged = mergeFolded({ event: f.event, count, decayed, at }, f);
    db.exec({
      sql: 'INSERT OR REPLACE INTO usage_folded(rid, event, count, decayed, at) VALUES (?, ?, ?, ?, ?)',
      bind: [rid, f.event, merged.count, merged.decayed, merged.at],
    });
  }
}

/**
 * Inside a write transaction: folds the usage events older than {@link USAGE_EVENT_WINDOW_MS}
 * before `now` into `usage_folded` and deletes them. Costs one index lookup when there is nothing
 * to fold. Returns how many events were folded.
 */
export function foldOldUsage(db: Database, now: number): number {
  const cutoff = now - USAGE_EVENT_WINDOW_MS;
  const oldest = db.selectValue('SELECT min(at) FROM usage');
  if (typeof oldest !== 'number' || oldest >= cutoff) return 0;
  const byRid = new Map<number, Map<string, FoldedUsage>>();
  let n = 0;
  for (const [rid, event, at] of db.selectArrays(
    'SELECT rid, event, at FROM usage WHERE at < ? ORDER BY rid',
    [cutoff],
  ) as [number, string, number][]) {
    let folded = byRid.get(rid);
    if (!folded) byRid.set(rid, (folded = new Map<string, FoldedUsage>()));
    foldEvents(folded, [{ event, at }]);
    n++;
  }
  for (const [rid, folded] of byRid) writeFolded(db, rid, folded.values());
  db.exec({ sql: 'DELETE FROM usage WHERE at < ?', bind: [cutoff] });
  return n;
}
