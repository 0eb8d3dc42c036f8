import { queryDateWindows, type RankedList } from '@anamnesis/ranking';
import type { Reader } from '../store/reader.ts';
import type { PreparedQuery, SimilarityBackend } from '../similarity/similarity.ts';

/**
 * The `date` leg: when the query names a calendar day or month ("on 3 June, 2023", "in May 2023";
 * see `queryDateWindows`), the memories created then, the `limit` most similar to the query by
 * cosine (a search of the vector index restricted to the period, however many memories it holds;
 * a cosine of exactly 0, no meaning in common, is no candidate). A query that names no date gets
 * an empty list, so the leg costs nothing and changes nothing; it never reaches outside the recall
 * filter (`where` over `m`).
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
      `SELECT m.rid FROM memories m WHERE m.created_at >= ? AND m.created_at < ? AND ${where}`,
      [w.start, w.end, ...params],
      (c) => c.num(0),
    );
    for (const rid of rows) rids.add(rid);
  }
  if (rids.size === 0) return { leg: 'date', items: [] };
  const items = similarity
    .search(queryVector, limit, rids)
    .filter((h) => h.score !== 0)
    .map((h) => ({ id: String(h.rid), score: h.score }));
  return { leg: 'date', items, tiesShareRank: true };
}
