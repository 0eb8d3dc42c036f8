import { queryDateWindows, type RankedList } from '@anamnesis/ranking';
import type { Reader } from './reader.ts';
import type { PreparedQuery, SimilarityBackend } from './similarity.ts';

/** At most this many memories of a named date are read and compared with the query. */
const MAX_IN_WINDOW = 5000;

/**
 * The `date` leg: when the query names a calendar day or month ("on 3 June, 2023", "in May 2023";
 * see `queryDateWindows`), the memories created then, ranked by cosine with the query. A query
 * that names no date gets an empty list, so the leg costs nothing and changes nothing; it never
 * reaches outside the recall filter (`where` over `m`).
 */
export function dateLeg(
  read: Reader,
  similarity: SimilarityBackend,
  queryVector: PreparedQuery,
  query: string,
  where: string,
  params: readonly (string | number | null)[],
  limit: number,
): RankedList {
  const windows = queryDateWindows(query);
  if (windows.length === 0) return { leg: 'date', items: [] };
  const rids = new Set<number>();
  for (const w of windows) {
    const rows = read.all(
      `SELECT m.rid FROM memories m WHERE m.created_at >= ? AND m.created_at < ? AND ${where} ORDER BY m.created_at LIMIT ?`,
      [w.start, w.end, ...params, MAX_IN_WINDOW],
      (c) => c.num(0),
    );
    for (const rid of rows) rids.add(rid);
  }
  const items = [...similarity.similarities([...rids], queryVector)]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([rid, score]) => ({ id: String(rid), score }));
  return { leg: 'date', items };
}
