import type { Reader } from '../store/reader.ts';
import { FTS_TOKENS } from '../store/schema.ts';
import { DocLengths } from './doc-lengths.ts';
import { KeptLists } from './kept-lists.ts';
import {
  alternative,
  ANYWHERE,
  bestWindow,
  windows,
  type Alternative,
  type PassageMatch,
  type Window,
  type WindowSlot,
} from './passage-evidence.ts';
import { phraseKey, phraseToken } from './phrase-key.ts';
import { PhraseScores } from './phrase-scores.ts';
import { ftsString } from './query/parse.ts';
import type { ResolvedSlot } from './query/resolve.ts';
import { WordsMemo } from './query/words-memo.ts';

/**
 * How well a memory answers a query, as evidence rather than rank: the lexical share of the
 * query it holds and the strength of its meaning match, each in [0, 1].
 *
 * - **Lexical coverage**: the slots of the query (`query/`) the memory matches, each weighing its
 *   inverse document frequency in the store (`ln(1 + (N − n + ½) / (n + ½))`, as BM25's) times
 *   the slot's weight, over the whole query's: a memory with every rare word of the query covers
 *   1, one sharing only a common word little, and a query word no memory has lowers every
 *   memory's coverage (the query asks for something the store does not hold).
 * - **Meaning strength**: the memory's cosine with the query against the query's cosines with the
 *   store at large (a fixed sample of its memories): how many standard deviations above what an
 *   unrelated memory gets, against what the best of the store's memories gets by chance (the
 *   expected maximum of N draws, `√(2 ln N)` standard deviations: 2.3 in a store of 15 notes, 4.8
 *   in one of 100,000), mapped to [0, 1] over {@link Z_SPAN} more. A model whose cosines all sit near 0.8 and one whose unrelated
 *   texts score 0.1 read alike, and so do small and large stores. Below {@link MIN_SAMPLE}
 *   memories the store says too little of itself, and a model-independent reference (unrelated
 *   texts near cosine 0.1, spread 0.12 — the default model's, measured on the dev corpora)
 *   stands in for part of it.
 */

/**
 * Below this match a result is `weak`: on the dev corpora, 70% of the search-box queries about
 * nothing stored get no stronger result, and 2–4% of answered short queries (more of long,
 * paraphrased questions) have a weaker best answer.
 */
export const WEAK_MATCH = 0.3;

/**
 * Standard deviations above the chance best (`√(2 ln N)`) over which meaning strength goes from 0
 * to 1 (as strong as every word of the query matched): {@link WEAK_MATCH} at 0.6 above it. Before,
 * meaning counted from a fixed 2 to 6 standard deviations whatever the store's size. On the dev
 * corpora and the search-box suite (2026-12-06): of the questions about nothing stored, those
 * answered strong went from 34% to 28% (search-box suite: 30% to 20%), of the questions whose
 * first result answers, those marked weak from 5.6% to 6.1%; a store's best memory stands above
 * chance for 4% of the questions about nothing stored and 29% of those it answers first, so
 * meaning's weak point sits low in that band (a span of 3 or 1.5 moved neither rate by more than a
 * query in a hundred, but 1.5 made one more of the suite's ten strong).
 */
export const Z_SPAN = 2;
/**
 * Candidates at most that the pruned top k looks a phrase up in, one by one (`MATCH ? AND rowid
 * = ?`, `top-bm25.ts`); for more, one read visits the phrase's matches and scores only the
 * candidates. Each lookup's `bm25()` counts all the phrase's matches again for its idf, so a
 * lookup costs a share of such a read whatever the phrase: a fifth in native SQLite (0.37 ms in a
 * word of 23k memories, 16 ns a match, against 0.08 µs a match read; 2026-11-29), a twelfth in
 * SQLite-WASM (5.8 ms in a word of 350k memories, 17 ns a match, against 0.2 µs; 2026-11-30).
 */
export const LOOKUPS_AT_MOST = 8;
/**
 * Lexical coverage's choice between looking an expression up in each candidate (`MATCH ? AND
 * rowid = ?`, no `bm25()`) and reading its matches whole: a scanned match's row id costs ~0.3 µs,
 * a lookup 0.4–1.2 ms (at 100k memories in Node, 2026-11-29: 0.4 ms in a word of 17k memories,
 * 0.8 ms in one of 27k, 1.1 ms in two words of 49k together, where most candidates are not
 * found), so the matches of an expression are read whole (and kept) unless it matches more than
 * this many memories per candidate.
 */
const MATCH_LOOKUP_COST = 2500;
/** Row ids kept over all expressions read whole for lexical coverage (4 bytes each: 4 MiB). */
const KEPT_MATCHES = 1 << 20;
/** Memories sampled for the store's cosines with a query (spread evenly over row ids). */
const SAMPLE = 256;
/** Below this many memories the reference distribution is mixed in. */
const MIN_SAMPLE = 64;
const REFERENCE_MEAN = 0.1;
const REFERENCE_SD = 0.12;

/** Per-slot counts kept until the store changes (a query typed letter by letter repeats them). */
export interface MatchMemo {
  /** Memories matching each slot's expression. */
  readonly slotCounts: Map<string, number>;
  /** Memories in the store, once counted. */
  total?: number;
  /** The sampled memories' rids, once chosen. */
  sample?: number[];
  /** Phrases' matches with their `bm25()`, as the pruned top k of the lexical legs reads them (`top-bm25.ts`). */
  readonly phrases: PhraseScores;
  /** The store's words by prefix, as the query's words are completed and corrected (`query/resolve.ts`). */
  readonly words: WordsMemo;
  /** The row ids each FTS5 expression matches (ascending), as lexical coverage reads them whole. */
  readonly matches: KeptLists<Int32Array>;
  /** The memories' lengths in the lexical index: kept from one store generation to the next, and caught up. */
  readonly lengths: DocLengths;
  /** Long memories' passages (`passage-evidence.ts`), by rid. */
  readonly windows: Map<number, readonly Window[]>;
}

/** The lexical side of a query: its slots with their expressions and weights (idf × weight). */
export interface QueryEvidence {
  slots: {
    /** The FTS5 phrases whose OR the slot is, and that OR. */
    terms: readonly string[];
    expression: string;
    weight: number;
    count: number;
    /** The model's nearest words to the slot's word (as the expansion leg searches them), if any. */
    related?: { terms: readonly string[]; expression: string; count: number };
  }[];
  /** Σ of the slots' weights: a memory matching all of them covers 1. */
  total: number;
}

/**
 * An empty {@link MatchMemo}: nothing counted or read yet, but the memories' `lengths` (those of
 * the memo of the store's last generation: they catch up themselves).
 */
export function matchMemo(lengths = new DocLengths()): MatchMemo {
  return {
    slotCounts: new Map(),
    phrases: new PhraseScores(),
    words: new WordsMemo(),
    matches: new KeptLists(KEPT_MATCHES, (rids) => rids.length),
    lengths,
    windows: new Map(),
  };
}

/** What a memory holding only the model's nearest words to a query word covers of that word. */
export const RELATED_SHARE = 0.5;

/** Memories in the store, counted once per store generation. */
export function storeSize(read: Reader, memo: MatchMemo): number {
  memo.total ??= read.all('SELECT count(*) FROM memories', [], (c) => c.num(0))[0] ?? 0;
  return memo.total;
}

/**
 * Memories matching an FTS5 expression, counted once per store generation (by {@link phraseKey}):
 * a phrase of one word looked up among the index's tokens (FTS5 counts its memories there at
 * about half the cost of counting its matches), any other expression's matches counted.
 */
export function phraseCount(read: Reader, memo: MatchMemo, expression: string): number {
  const key = phraseKey(expression);
  let n = memo.slotCounts.get(key);
  if (n === undefined) {
    const token = phraseToken(expression);
    n =
      (token === undefined
        ? read.all(
            'SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?',
            [expression],
            (c) => c.num(0),
          )
        : read.all(`SELECT doc FROM ${FTS_TOKENS} WHERE term = ?`, [token], (c) => c.num(0)))[0] ??
      0;
    memo.slotCounts.set(key, n);
  }
  return n;
}

/**
 * Each slot's weight in the coverage: its idf in the store times its own weight. `related(slot)`
 * gives the model's nearest words to a word slot (the expansion leg's): a memory holding one of
 * them and not the word covers {@link RELATED_SHARE} of the slot ("accident" → a note on a crash).
 */
export function queryEvidence(
  read: Reader,
  memo: MatchMemo,
  slots: readonly ResolvedSlot[],
  related: (slot: ResolvedSlot) => readonly string[] = () => [],
): QueryEvidence {
  const n = storeSize(read, memo);
  const out: QueryEvidence = { slots: [], total: 0 };
  for (const s of slots) {
    // a slot with no alternative (a stop word being typed that begins nothing) asks for nothing
    if (s.terms.length === 0) continue;
    const expression = s.terms.join(' OR ');
    const df = phraseCount(read, memo, expression);
    const weight = idf(n, df);
    const near = related(s).map((w) => ftsString([w]));
    const nearExpression = near.join(' OR ');
    out.slots.push({
      terms: s.terms,
      expression,
      weight: weight * s.weight,
      count: df,
      ...(near.length > 0
        ? {
            related: {
              terms: near,
              expression: nearExpression,
              count: phraseCount(read, memo, nearExpression),
            },
          }
        : {}),
    });
    out.total += weight * s.weight;
  }
  return out;
}

/**
 * The rids among `rids` that an expression (the OR of `terms`) matching `count` memories matches.
 * Where the pruned top k has kept every term's matches (`PhraseScores`), they answer without a
 * query: the lexical leg has just read most of the query's phrases whole.
 */
function matching(
  read: Reader,
  memo: MatchMemo,
  { terms, expression, count }: { terms: readonly string[]; expression: string; count: number },
  rids: ReadonlySet<number>,
): Set<number> {
  const out = new Set<number>();
  if (count === 0) return out;
  // an expression every memory matches ("and" in an English store) matches every one of them
  // (the store's size is known once the query's evidence is counted)
  if (memo.total !== undefined && count >= memo.total) return new Set(rids);
  let all = memo.matches.kept(expression) ?? keptUnion(memo, terms);
  if (all === undefined && count <= MATCH_LOOKUP_COST * rids.size) {
    // a rare expression: every memory it matches at once (FTS5 does not narrow a MATCH by
    // `rowid IN`), kept for the next query that asks for it
    const found = read.all(
      'SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?',
      [expression],
      (c) => c.num(0),
    );
    all = ascending(Int32Array.from(found));
    memo.matches.keep(expression, all);
  }
  if (all !== undefined) {
    for (const rid of rids) if (holds(all, rid)) out.add(rid);
    return out;
  }
  // a common one: each candidate looked up (a MATCH with `rowid =` seeks in the doclist)
  for (const rid of rids)
    if (
      read.all(
        'SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND rowid = ?',
        [expression, rid],
        () => 1,
      ).length > 0
    )
      out.add(rid);
  return out;
}

/** The union of the terms' kept matches (ascending), or undefined where one is not kept. */
function keptUnion(memo: MatchMemo, terms: readonly string[]): Int32Array | undefined {
  let union: Int32Array | undefined;
  for (const term of terms) {
    const rids = memo.phrases.rids(term);
    if (rids === undefined) return undefined;
    union = union === undefined ? rids : merged(union, rids);
  }
  return union;
}

/** Two ascending arrays of row ids as one, each rid once. */
function merged(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    out[o++] = Math.min(x, y);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out.subarray(0, o);
}

/** `rids` in ascending order (FTS5 returns a MATCH's rows so: this only checks, and sorts otherwise). */
function ascending(rids: Int32Array): Int32Array {
  for (let j = 1; j < rids.length; j++) if (rids[j - 1]! >= rids[j]!) return rids.slice().sort();
  return rids;
}

/** Whether ascending `rids` holds `rid` (binary search). */
function holds(rids: Int32Array, rid: number): boolean {
  let lo = 0;
  let hi = rids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = rids[mid]!;
    if (v === rid) return true;
    if (v < rid) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Each rid's lexical coverage of the query, in [0, 1] (0 for a query with no slot); a memory among
 * `long` covers what its best passage covers ({@link bestPassages}).
 */
export function lexicalCoverage(
  read: Reader,
  memo: MatchMemo,
  evidence: QueryEvidence,
  rids: readonly number[],
  long: readonly number[] = [],
): Map<number, number> {
  const out = new Map<number, number>(rids.map((r) => [r, 0]));
  if (evidence.total <= 0 || rids.length === 0) return out;
  const all = new Set(rids);
  for (const slot of evidence.slots) {
    if (slot.weight <= 0) continue;
    const share = slot.weight / evidence.total;
    const direct = matching(read, memo, slot, all);
    for (const rid of direct) out.set(rid, out.get(rid)! + share);
    if (!slot.related) continue;
    const rest = new Set(rids.filter((r) => !direct.has(r)));
    for (const rid of matching(read, memo, slot.related, rest))
      out.set(rid, out.get(rid)! + RELATED_SHARE * share);
  }
  for (const [rid, v] of out) out.set(rid, Math.min(1, v));
  const partly = long.filter((rid) => out.get(rid)! > 0);
  for (const [rid, p] of bestPassages(read, memo, evidence, partly))
    out.set(rid, Math.min(out.get(rid)!, p.coverage));
  return out;
}

/** Long memories' passages kept at most (cleared whole past it). */
const KEPT_WINDOWS = 2_000;

/**
 * The passage of each of these long memories that covers most of the query (`passage-evidence.ts`):
 * its words searched in each window of one or two sentences, as the lexical index matches them.
 * The memories' texts are read and cut into windows once per store generation.
 */
export function bestPassages(
  read: Reader,
  memo: MatchMemo,
  evidence: QueryEvidence,
  rids: readonly number[],
): Map<number, PassageMatch> {
  const out = new Map<number, PassageMatch>();
  if (rids.length === 0 || evidence.total <= 0) return out;
  const missing = rids.filter((rid) => !memo.windows.has(rid));
  if (missing.length > 0) {
    if (memo.windows.size + missing.length > KEPT_WINDOWS) memo.windows.clear();
    read.all(
      'SELECT rid, text FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
      [JSON.stringify(missing)],
      (c) => memo.windows.set(c.num(0), windows(c.text(1) ?? '')),
    );
  }
  const slots = evidence.slots
    .filter((s) => s.weight > 0)
    .map((s) => ({
      slot: s,
      alternatives: s.terms.map(alternative),
      related: s.related?.terms.map(alternative).filter((a) => a !== undefined),
    }));
  for (const rid of rids) {
    const held: WindowSlot[] = slots.map(({ slot, alternatives, related }) => ({
      // a term the text cannot show (an address's site) holds in every window of a memory it matches
      alternatives: alternatives.map(
        (a) => a ?? (matching(read, memo, slot, new Set([rid])).has(rid) ? ANYWHERE : NOWHERE),
      ),
      share: slot.weight / evidence.total,
      ...(related ? { related, relatedShare: RELATED_SHARE } : {}),
    }));
    out.set(rid, bestWindow(memo.windows.get(rid) ?? [], held));
  }
  return out;
}

/** An alternative no window holds. */
const NOWHERE: Alternative = { kind: 'phrase', stems: [], prefix: false };

/**
 * The rids of the store's sample: up to {@link SAMPLE}, spread evenly (every step-th in rid
 * order). `held`: every memory's rid in no order, where something in memory holds them (the vector
 * index, which holds one vector per memory): used when it holds as many as the store, sorted here.
 * Otherwise the rids are read from the smallest index that holds them all and sorted here: read in
 * rid order, they would come from the table itself, every page of every memory's text (at 100k
 * memories a first recall read ~40 MB from OPFS for them). The sample is recomputed after every
 * write; at 100k in SQLite-WASM reading the rids took 10.4 ms and sorting them as doubles 3.7 ms:
 * with the index's copy sorted as 32-bit integers, the vector stage of the first recall after a
 * write went from 16.2 to 3.6 ms (2.0 ms in a recall with the sample kept; 2026-11-29).
 */
export function sampleRids(read: Reader, memo: MatchMemo, held?: () => Int32Array): number[] {
  if (memo.sample) return memo.sample;
  const total = storeSize(read, memo);
  let sorted: Int32Array | Float64Array | undefined = held?.();
  if (sorted?.length === total) {
    sorted.sort();
  } else {
    const rids: number[] = [];
    read.each('SELECT rid FROM memories', [], (c) => {
      rids.push(c.num(0));
    });
    sorted = Float64Array.from(rids).sort();
  }
  const step = Math.max(1, Math.floor(total / SAMPLE));
  const sample: number[] = [];
  for (let i = step - 1; i < sorted.length && sample.length < SAMPLE; i += step)
    sample.push(sorted[i]!);
  memo.sample = sample;
  return sample;
}

/** The query's cosine distribution over the store's unrelated memories, and what chance reaches. */
export interface CosineScale {
  mean: number;
  sd: number;
  /** Standard deviations the best of the store's memories reaches by chance: `√(2 ln N)`. */
  chance: number;
}

/**
 * Mean and spread of the sample's cosines (0 ignored: no vector), mixed with the reference below
 * {@link MIN_SAMPLE}; `total`: the memories in the store, whose best sets the chance level.
 */
export function cosineScale(cosines: Iterable<number>, total: number): CosineScale {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const c of cosines) {
    if (c === 0) continue;
    n++;
    sum += c;
    squares += c * c;
  }
  const prior = Math.max(0, MIN_SAMPLE - n);
  const all = n + prior;
  const mean = (sum + prior * REFERENCE_MEAN) / all;
  const second = (squares + prior * (REFERENCE_SD ** 2 + REFERENCE_MEAN ** 2)) / all;
  return {
    mean,
    sd: Math.sqrt(Math.max(1e-6, second - mean * mean)),
    chance: Math.sqrt(2 * Math.log(Math.max(2, total))),
  };
}

/** A cosine's meaning strength in [0, 1] on the query's scale (0 for no vector). */
export function meaningStrength(cosine: number, scale: CosineScale): number {
  if (cosine === 0) return 0;
  const z = (cosine - scale.mean) / scale.sd;
  return Math.min(1, Math.max(0, (z - scale.chance) / Z_SPAN));
}

/** A slot's weight by the memories it matches: its idf in the store, as BM25's. */
export function idf(total: number, matching: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

/**
 * A match with the time the query names ("what did I cook two days ago"): the time is one more
 * slot of the query, weighing its idf in the store (`timeWeight`, by the memories made then)
 * against the rest's slots (`restWeight`, their Σ). A memory made then holds that slot in
 * proportion to how well it matches the rest of the query (`rest`, the greater of lexical
 * coverage and meaning), fully from {@link WEAK_MATCH} on: a memory of that day on another topic
 * is no answer, one on the topic is a whole one. One made at another time is weak however well it
 * matches the rest (its match is the rest's, below {@link WEAK_MATCH}): it is related, but not what
 * was asked ("what did I cook two days ago" is not answered by last month's risotto). A query that
 * asks for nothing but a time is answered by every memory made then.
 */
export function timedMatch(
  rest: number,
  inWindow: boolean,
  restWeight: number,
  timeWeight: number,
): number {
  if (restWeight <= 0) return inWindow ? 1 : 0;
  if (!inWindow) return Math.min(BELOW_WEAK, rest);
  const time = timeWeight * Math.min(1, rest / WEAK_MATCH);
  return (rest * restWeight + time) / (restWeight + timeWeight);
}

/** The greatest match below {@link WEAK_MATCH}. */
const BELOW_WEAK = WEAK_MATCH - 1e-6;
