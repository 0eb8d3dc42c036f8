import {
  halfLifeDecay,
  prepareFtsQuery,
  USAGE_HALF_LIFE_DAYS,
  type RankedList,
} from '@anamnesis/ranking';
import { EVERY_MEMORY, type SqlFilter } from '../input/filter.ts';
import { queryStopwords } from '../store/lexical.ts';
import { TFIDF_MODEL_ID } from '../similarity/tfidf-similarity.ts';
import type { Columns, Reader } from '../store/reader.ts';
import { readRidsByIds, type CandidateRow } from '../store/store.ts';
import type { PreparedQuery, SimilarityBackend } from '../similarity/similarity.ts';
import type { ExtraList } from '../types.ts';
import { phraseCount, storeSize, type MatchMemo } from './match.ts';
import type { RecallReads } from './rid-memo.ts';
import { topBm25, type TopBm25Work } from './top-bm25.ts';

/**
 * The legs of recall: each ranks memories by one signal, filters applied inside. Candidate legs
 * (fts, vector, graph, extra lists) find memories; prior legs (importance, recency, usage) only
 * rank the candidates found. Ids are row ids as strings until rows are read.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * `bm25()` of the lexical index: the text weighs 1, the tags 0.5, a page address's words 0.3 (a
 * word of the query found only in an address counts little), or 2 when the query names an
 * address or a domain ("gov.uk passport": the page from that site before a note about passports).
 */
const BM25 = 'bm25(memories_fts, 1.0, 0.5, 0.3)';
const BM25_SITE = 'bm25(memories_fts, 1.0, 0.5, 2.0)';

/**
 * Matches of the phrases together from which the top k is found without scoring every match
 * (`top-bm25.ts`); below it one `ORDER BY` query scores them all at little cost. At 100k memories
 * in SQLite-WASM, 500 gave recall a mean of 10.6 ms against 12.0 ms with 2,000 (2026-11-29; 200
 * and 1,000 in between; native SQLite the same within noise).
 */
const PRUNE_FROM = 500;
/**
 * … but while a phrase half the store holds is among them (its idf floored: the pruned top k
 * leaves it out once the rest decide, so scores within 2.2 · 10⁻⁶ may order differently), from
 * this many: in a small store (a few hundred memories of Chinese text, whose common characters
 * half of them hold) the ranking stays FTS5's own, to the last digit.
 */
const PRUNE_FLOORED_FROM = 2_000;

/** How the lexical leg reads the index. */
export interface FtsLegOptions {
  /** The query names an address or a domain: the address column weighs 2. Default false. */
  site?: boolean;
  /** Counts kept until the store changes; with them a query with many matches is pruned. */
  memo?: MatchMemo;
  /** What a pruned top-k search read (for benchmarks). */
  work?: TopBm25Work;
}

/**
 * FTS5 `bm25()` of the OR of `phrases` (FTS5 expressions: the query's slots' alternatives,
 * `query/`), as a positive magnitude; no phrase finds nothing. Unfiltered, with a `memo`, the top
 * `limit` of many matches is found by {@link topBm25} (the same ranking, exactly).
 */
export function ftsLeg(
  read: Reader,
  phrases: readonly string[],
  { where, params }: SqlFilter,
  limit: number,
  { site = false, memo, work }: FtsLegOptions = {},
): RankedList {
  if (phrases.length === 0) return { leg: 'fts', items: [] };
  const bm25 = site ? BM25_SITE : BM25;
  const match = phrases.join(' OR ');
  if (where === EVERY_MEMORY && memo && worthPruning(read, memo, phrases)) {
    const items = topBm25(read, memo, phrases, bm25, limit, work).map((t) => ({
      id: String(t.rid),
      score: t.score,
    }));
    return { leg: 'fts', items, tiesShareRank: true };
  }
  const item = (c: Columns) => ({ id: String(c.num(0)), score: -c.num(1) });
  // Without a filter the FTS table answers alone (no join with the rows: measurably faster).
  const items =
    where === EVERY_MEMORY
      ? read.all(
          `SELECT rowid, ${bm25} AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT ?`,
          [match, limit],
          item,
        )
      : read.all(
          `SELECT m.rid, ${bm25} AS s FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
           WHERE memories_fts MATCH ? AND ${where} ORDER BY s LIMIT ?`,
          [match, ...params, limit],
          item,
        );
  return { leg: 'fts', items, tiesShareRank: true };
}

/**
 * Whether the phrases' matches add up to {@link PRUNE_FROM} or more ({@link PRUNE_FLOORED_FROM}
 * where one of them half the store holds); each phrase counted once per store generation.
 */
function worthPruning(read: Reader, memo: MatchMemo, phrases: readonly string[]): boolean {
  const total = storeSize(read, memo);
  if (total < PRUNE_FROM) return false;
  let sum = 0;
  let floored = false;
  for (const phrase of phrases) {
    const n = phraseCount(read, memo, phrase);
    sum += n;
    floored ||= n >= total / 2;
  }
  return sum >= (floored ? PRUNE_FLOORED_FROM : PRUNE_FROM);
}

/** Query words expanded at most (the first ones written in lower case). */
const EXPANDED_WORDS = 8;

/**
 * The `expansion` leg: {@link ftsLeg} over the model's nearest words (`SimilarityBackend.neighbours`)
 * to the query's words that are written in lower case and are no stop words, the query's own words
 * left out (and those half the store or more holds): "car accident" also searches "crash" and
 * "mishap". A word the query capitalises (a name: "Python", "Melanie") is not expanded, nor is any
 * word without a backend that has neighbours (TF-IDF, ONNX models): then the leg is empty.
 */
export function expansionLeg(
  read: Reader,
  similarity: SimilarityBackend,
  query: string,
  words: readonly string[],
  filter: SqlFilter,
  limit: number,
  memo?: MatchMemo,
): RankedList {
  const own = new Set(words.map((w) => w.toLowerCase()));
  const stopwords = queryStopwords(query);
  const extra = new Set<string>();
  if (similarity.neighbours) {
    const expandable = words.filter(
      (w) => w.length >= 3 && w === w.toLowerCase() && !stopwords.has(w),
    );
    for (const word of expandable.slice(0, EXPANDED_WORDS))
      for (const n of similarity.neighbours(word)) if (!own.has(n)) extra.add(n);
  }
  if (extra.size === 0) return { leg: 'expansion', items: [] };
  const match = prepareFtsQuery([...extra].join(' '), { keepNumbers: true, stopwords });
  let phrases = match === '' ? [] : match.split(' OR ');
  // A word half the store or more holds (FTS5 floors its idf to 10⁻⁶: it tells no memory from
  // another) is no evidence of the query's meaning; ranked alone it would score every memory that
  // holds it ("another" → "one": 100k memories read, 136 ms, for a list ordered by length alone).
  if (memo) {
    const half = storeSize(read, memo) / 2;
    phrases = phrases.filter((p) => phraseCount(read, memo, p) < half);
  }
  const list = ftsLeg(read, phrases, filter, limit, { memo });
  return { ...list, leg: 'expansion' };
}

/** The rows a filter lets through, for the legs that do not filter in SQL; undefined: all. */
export function allowedRids(read: Reader, { where, params }: SqlFilter): Set<number> | undefined {
  if (where === EVERY_MEMORY) return undefined;
  return new Set(read.all(`SELECT m.rid FROM memories m WHERE ${where}`, params, (c) => c.num(0)));
}

/** The similarity backend's nearest memories to the query. */
export function vectorLeg(
  similarity: SimilarityBackend,
  query: PreparedQuery,
  limit: number,
  allowed: ReadonlySet<number> | undefined,
): RankedList {
  // A cosine of exactly 0 says nothing (the query or the memory has no vector: no word the model
  // knows, as in a script it was not trained on), so such a memory is no candidate of this leg.
  // A model's equal cosines mean texts it sees as the same: they share a rank. TF-IDF cosines tie
  // by construction (one shared rare word), so there each keeps its position.
  return {
    leg: 'vector',
    items: similarity
      .search(query, limit, allowed)
      .filter((h) => h.score !== 0)
      .map((h) => ({ id: String(h.rid), score: h.score })),
    tiesShareRank: similarity.id !== TFIDF_MODEL_ID,
  };
}

/** Bounded-hop proximity from seed rows over links, ranked by hop distance (score = −hops). */
export function graphLeg(
  read: Reader,
  seeds: readonly number[],
  maxHops: number,
  undirected: boolean,
  allowed: ReadonlySet<number> | undefined,
  limit: number,
): RankedList {
  const dist = new Map<number, number>();
  const seedSet = new Set(seeds);
  let frontier = [...seedSet];
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const json = JSON.stringify(frontier);
    const sql = undirected
      ? 'SELECT dst FROM links WHERE src IN (SELECT value FROM json_each(?1)) UNION SELECT src FROM links WHERE dst IN (SELECT value FROM json_each(?1))'
      : 'SELECT dst FROM links WHERE src IN (SELECT value FROM json_each(?1))';
    const next: number[] = [];
    for (const r of read.all(sql, [json], (c) => c.num(0))) {
      if (seedSet.has(r) || dist.has(r)) continue;
      dist.set(r, hop);
      next.push(r);
    }
    frontier = next;
  }
  const items = [...dist]
    .filter(([rid]) => !allowed || allowed.has(rid))
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([rid, hops]) => ({ id: String(rid), score: -hops }));
  return { leg: 'graph', items };
}

/** A caller's list, on the memories that exist and pass the filter. */
export function extraLeg(
  read: Reader,
  extra: ExtraList,
  allowed: ReadonlySet<number> | undefined,
): RankedList {
  const rids = readRidsByIds(
    read,
    extra.items.map((i) => i.id),
  );
  const items = extra.items.flatMap((i) => {
    const rid = rids.get(i.id);
    return rid === undefined || (allowed && !allowed.has(rid))
      ? []
      : [{ id: String(rid), score: i.score }];
  });
  return { leg: extra.label, items };
}

/** Candidates with an importance above 0, most important first. */
export function importanceLeg(rows: readonly CandidateRow[]): RankedList {
  return {
    leg: 'importance',
    items: rows
      .filter((r) => r.importance > 0)
      .sort((a, b) => b.importance - a.importance || a.rid - b.rid)
      .map((r) => ({ id: String(r.rid), score: r.importance })),
  };
}

/**
 * Candidates newest first; the score is minus the age in hours at `now` (ms since the epoch). A
 * pinned memory (`pinned`) never ages: it counts as made at `now`.
 */
export function recencyLeg(
  rows: readonly CandidateRow[],
  now: number,
  pinned: ReadonlySet<number> = new Set(),
): RankedList {
  const made = (r: CandidateRow) => (pinned.has(r.rid) ? Math.max(now, r.createdAt) : r.createdAt);
  return {
    leg: 'recency',
    items: [...rows]
      .sort((a, b) => made(b) - made(a) || a.rid - b.rid)
      .map((r) => ({ id: String(r.rid), score: -(now - made(r)) / HOUR })),
  };
}

/**
 * Every pinned memory (`Engine.pin`), read once per store generation (`RecallMemo.pinned`): what
 * recall treats as never aging.
 */
export function allPinned({ read, memo }: RecallReads): ReadonlySet<number> {
  memo.pinned ??= new Set(read.all('SELECT rid FROM pins', [], (c) => c.num(0)));
  return memo.pinned;
}

/** The pinned memories the filter allows: the candidates of the `pinned` leg, before they qualify. */
export function pinnedRids(reads: RecallReads, { where, params }: SqlFilter): number[] {
  const all = allPinned(reads);
  if (all.size === 0 || where === EVERY_MEMORY) return [...all].sort((a, b) => a - b);
  return reads.read.all(
    `SELECT m.rid FROM pins p JOIN memories m ON m.rid = p.rid WHERE ${where} ORDER BY m.rid`,
    params,
    (c) => c.num(0),
  );
}

/**
 * The memories with any `selected` or `used` event, through the partial indexes that hold only
 * those (schema.ts): few rows, where the usage tables hold a row per `retrieved` event.
 */
export const FEEDBACK_RIDS = `SELECT rid FROM usage WHERE event IN ('selected', 'used')
  UNION SELECT rid FROM usage_folded WHERE event IN ('selected', 'used')
  UNION SELECT rid FROM usage_devices WHERE event IN ('selected', 'used')`;

/**
 * Each candidate's decayed `selected` / `used` events (seed 002, half-life 7 days); absent: none.
 * Only the candidates among the memories with such events (`RecallMemo.feedback`) are read.
 * Events older than a week are stored folded (`store/usage-fold.ts`): a count of them and their
 * decayed sum at the time of the newest, which decays on from there, so the score is the same sum
 * up to rounding. Other devices' events (`usage_devices`, applied by a sync) count the same way.
 */
export function usageScores(
  { read, memo }: RecallReads,
  rows: readonly CandidateRow[],
  now: number,
): Map<number, number> {
  memo.feedback ??= new Set(read.all(FEEDBACK_RIDS, [], (c) => c.num(0)));
  const used = memo.feedback;
  const rids = rows.map((r) => r.rid).filter((rid) => used.has(rid));
  const scores = new Map<number, number>();
  if (rids.length === 0) return scores;
  const events = read.all(
    `SELECT rid, at, 1.0 FROM usage WHERE event IN ('selected', 'used') AND rid IN (SELECT value FROM json_each(?1))
     UNION ALL
     SELECT rid, at, decayed FROM usage_folded WHERE event IN ('selected', 'used') AND rid IN (SELECT value FROM json_each(?1))
     UNION ALL
     SELECT rid, at, decayed FROM usage_devices WHERE event IN ('selected', 'used') AND rid IN (SELECT value FROM json_each(?1))`,
    [JSON.stringify(rids)],
    (c) => [c.num(0), c.num(1), c.num(2)] as const,
  );
  for (const [rid, at, weight] of events) {
    const age = Math.max(0, (now - at) / DAY);
    scores.set(rid, (scores.get(rid) ?? 0) + weight * halfLifeDecay(age, USAGE_HALF_LIFE_DAYS));
  }
  return scores;
}

/** Candidates by their decayed `selected` / `used` events (half-life 7 days). */
export function usageLeg(
  reads: RecallReads,
  rows: readonly CandidateRow[],
  now: number,
): RankedList {
  const items = [...usageScores(reads, rows, now)]
    .map(([rid, score]) => ({ rid, score }))
    .sort((a, b) => b.score - a.score || a.rid - b.rid)
    .map((x) => ({ id: String(x.rid), score: x.score }));
  return { leg: 'usage', items };
}
