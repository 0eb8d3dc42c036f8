import type { RankedList } from '@anamnesis/ranking';
import type { Reader } from '../store/reader.ts';
import { KeptLists } from './kept-lists.ts';
import type { PreparedQuery, SimilarityBackend } from '../similarity/similarity.ts';
import type { TimeReading } from './query/time.ts';

/**
 * The `date` leg: when the query names a time ("two days ago", "last summer", "on 3 June 2023";
 * see `query/time.ts`), the memories created then, the `limit` most similar to the query by cosine
 * (a search of the vector index restricted to the period, however many memories it holds; a cosine
 * of exactly 0, no meaning in common, is no candidate). Where the rest of the query asks for nothing
 * (`timeOnly`: "what happened yesterday"), every memory of the period is a candidate, tied. A
 * query that names no time gets an empty list, so the leg costs nothing and changes nothing; it
 * never reaches outside the recall filter (`where` over `m`).
 */
export function dateLeg(
  read: Reader,
  similarity: SimilarityBackend,
  queryVector: PreparedQuery,
  windows: readonly TimeReading[],
  where: string,
  params: readonly (string | number | null)[],
  limit: number,
  kept: WindowRids,
  timeOnly: boolean,
): RankedList {
  if (windows.length === 0) return { leg: 'date', items: [] };
  const rids = inWindows(read, windows, where, params, kept);
  if (rids.size === 0) return { leg: 'date', items: [] };
  const items = similarity
    .search(queryVector, limit, rids)
    .filter((h) => h.score !== 0)
    .map((h) => ({ id: String(h.rid), score: h.score }));
  if (timeOnly) {
    const listed = new Set(items.map((i) => i.id));
    for (const rid of rids) {
      if (items.length >= limit) break;
      if (!listed.has(String(rid))) items.push({ id: String(rid), score: 0 });
    }
  }
  return { leg: 'date', items, tiesShareRank: true };
}

/** The memories created in any of the windows (and passing the recall filter), kept until the next write. */
export function inWindows(
  read: Reader,
  windows: readonly TimeReading[],
  where: string,
  params: readonly (string | number | null)[],
  kept: WindowRids,
): ReadonlySet<number> {
  const sets = windows.map((w) =>
    kept.get(
      JSON.stringify([w.start, w.end, where, params]),
      () =>
        new Set(
          read.all(
            `SELECT m.rid FROM memories m WHERE m.created_at >= ? AND m.created_at < ? AND ${where}`,
            [w.start, w.end, ...params],
            (c) => c.num(0),
          ),
        ),
    ),
  );
  return sets.length === 1 ? sets[0]! : new Set(sets.flatMap((set) => [...set]));
}

/** Memories kept at most over all windows (the least recently used window dropped first past it). */
const KEPT_WINDOW_RIDS = 500_000;

/**
 * The memories created in each window the date leg asked for, by window and recall filter: kept
 * until the store changes (in the recall memo), as a search typed letter by letter, or questions
 * about the same month, ask for the same window again, which at a million memories is ~17,000
 * rows read through SQLite.
 */
export type WindowRids = KeptLists<ReadonlySet<number>>;

/** An empty {@link WindowRids}. */
export function windowRids(): WindowRids {
  return new KeptLists<ReadonlySet<number>>(KEPT_WINDOW_RIDS, (rids) => rids.size);
}
