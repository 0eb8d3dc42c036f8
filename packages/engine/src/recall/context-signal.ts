import {
  bestLegRank,
  compareFused,
  contextContributions,
  contextScores,
  sumContributions,
  type ContextPair,
  type ContextWeights,
  type ScoredCandidate,
} from '@anamnesis/ranking';
import { EVERY_MEMORY } from '../input/filter.ts';
import { keptCandidateRows, type RecallReads } from './rid-memo.ts';
import type { CandidateRow } from '../store/store.ts';

/** A candidate whose session neighbours are looked up. */
export interface ContextCentre {
  rid: number;
  session: string | null;
  createdAt: number;
}

/**
 * The session neighbours (in time order, up to two on each side) of each centre with a session:
 * pairs of rids one or two turns apart, centres in ascending rid order. Neighbours are looked up
 * within the recall filter (`where` over `m`), so a filtered recall never reaches outside its
 * filter; unfiltered ones are kept in `memo.neighbours`. One statement for the centres not kept,
 * two seeks each on `memories_session(session, created_at)`.
 */
export function sessionPairs(
  store: RecallReads,
  centres: readonly ContextCentre[],
  where: string,
  params: readonly (string | number | null)[],
): ContextPair[] {
  const rids = centres.filter((c) => c.session !== null).map((c) => c.rid);
  if (rids.length === 0) return [];
  // Up to two neighbours before and after each centre in its session by (created_at, rid), nearest
  // first, as comma-separated rids.
  const read = (centreRids: readonly number[]) =>
    store.read.all(
      `SELECT x.rid,
         (SELECT group_concat(rid, ',' ORDER BY t DESC, rid DESC) FROM (
           SELECT m.rid, m.created_at AS t FROM memories m
           WHERE m.session = x.session AND m.created_at <= x.created_at
             AND (m.created_at < x.created_at OR m.rid < x.rid) AND ${where}
           ORDER BY m.created_at DESC, m.rid DESC LIMIT 2)),
         (SELECT group_concat(rid, ',' ORDER BY t, rid) FROM (
           SELECT m.rid, m.created_at AS t FROM memories m
           WHERE m.session = x.session AND m.created_at >= x.created_at
             AND (m.created_at > x.created_at OR m.rid > x.rid) AND ${where}
           ORDER BY m.created_at, m.rid LIMIT 2))
       FROM memories x WHERE x.rid IN (SELECT value FROM json_each(?))`,
      [...params, ...params, JSON.stringify(centreRids)],
      (c) => [c.num(0), [c.text(1), c.text(2)] as const] as const,
    );
  const lists =
    where === EVERY_MEMORY
      ? store.memo.neighbours.get(rids, read)
      : new Map(read(rids).sort((a, b) => a[0] - b[0]));
  const pairs: ContextPair[] = [];
  for (const [rid, sides] of lists) {
    for (const list of sides) {
      if (list === null) continue;
      list.split(',').forEach((n, i) => pairs.push({ a: String(rid), b: n, distance: i + 1 }));
    }
  }
  return pairs;
}

/** The `context` spec of a profile: weights and how much of the fused head looks up neighbours. */
export interface ContextSpec extends ContextWeights {
  /** The first `head` fused candidates look up their session neighbours. */
  head: number;
}

/**
 * Adds conversation context to fused candidates (see `contextScores`): each gains `neighbor ·` the
 * margin by which its best immediate neighbour scores above it, `near ·` the same at distance 2
 * and `session ·` the margin of its session's best; unscored neighbours of the head join with
 * those shares alone. Memories without a
 * session are unchanged; so is everything in a store without sessions. Returns the candidates
 * re-sorted; a neighbour joins only if it ranks within the first `limit` and `accept`s its row
 * (read only then, and added to `rows`).
 */
export function applyContext(
  store: RecallReads,
  scored: readonly ScoredCandidate[],
  rows: Map<number, CandidateRow>,
  spec: ContextSpec,
  filter: { where: string; params: readonly (string | number | null)[] },
  similarityOf: (rids: number[]) => Map<number, number>,
  accept: (row: CandidateRow, similarity: number) => boolean,
  limit: number,
): ScoredCandidate[] {
  const items = scored.map((c) => ({
    id: c.id,
    score: Math.max(0, c.score),
    session: rows.get(Number(c.id))!.session,
  }));
  if (!items.some((i) => i.session !== null)) return [...scored];
  const centres = scored.slice(0, spec.head).map((c) => rows.get(Number(c.id))!);
  const pairs =
    spec.neighbor !== 0 || spec.near !== 0
      ? sessionPairs(store, centres, filter.where, filter.params)
      : [];
  const context = contextScores(items, pairs);
  const known = new Set(scored.map((c) => c.id));
  const fresh = [...context.keys()].filter((id) => !known.has(id)).map(Number);
  const sims = similarityOf(fresh);
  // Entries sorted by `compareFused` (score, best leg rank, id); a candidate without context is
  // kept as it is, one with context is a new object with its context contributions appended.
  const out: { id: string; score: number; bestRank: number; fresh: boolean; c: ScoredCandidate }[] =
    [];
  const add = (base: ScoredCandidate, bestRank: number, fresh: boolean) => {
    const ctxScore = context.get(base.id);
    const extra = ctxScore ? contextContributions(ctxScore, spec) : [];
    let c = base;
    if (extra.length > 0) {
      const contributions = base.contributions.concat(extra);
      c = {
        id: base.id,
        score: sumContributions(contributions),
        similarity: base.similarity,
        legs: base.legs,
        contributions,
      };
    }
    out.push({ id: c.id, score: c.score, bestRank, fresh, c });
  };
  for (const c of scored) add(c, bestLegRank(c.legs), false);
  for (const rid of fresh) {
    const similarity = sims.get(rid) ?? 0;
    add({ id: String(rid), score: 0, similarity, legs: [], contributions: [] }, Infinity, true);
  }
  out.sort(compareFused);
  // Rows only for the neighbours that rank within the first `limit`; the others are dropped.
  const wanted = out
    .slice(0, limit)
    .filter((e) => e.fresh)
    .map((e) => Number(e.id));
  for (const [rid, row] of keptCandidateRows(store, wanted)) rows.set(rid, row);
  const kept: ScoredCandidate[] = [];
  out.forEach((e, i) => {
    if (e.fresh) {
      if (i >= limit) return;
      const row = rows.get(Number(e.id));
      if (row === undefined || !accept(row, e.c.similarity)) return;
    }
    kept.push(e.c);
  });
  return kept;
}
