import type { Reader } from '../store/reader.ts';
import { FTS_TOKENS } from '../store/schema.ts';
import { DocLengths } from './doc-lengths.ts';
import { KeptLists } from './kept-lists.ts';
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
 *   unrelated memory gets, mapped to [0, 1] between {@link Z_NONE} and {@link Z_FULL}. A model
 *   whose cosines all sit near 0.8 and one whose unrelated texts score 0.1 read alike. Below
 *   {@link MIN_SAMPLE} memories the store says too little of itself, and a model-independent
 *   reference (unrelated texts near cosine 0.1, spread 0.12 — the default model's, measured on
 *   the dev corpora) stands in for part of it.
 */

/**
 * Below this match a result is `weak`: on the dev corpora, 70% of the search-box queries about
 * nothing stored get no stronger result, and 2–4% of answered short queries (more of long,
 * paraphrased questions) have a weaker best answer.
 */
export const WEAK_MATCH = 0.3;

/** Standard deviations above the store's mean cosine where meaning starts to count. */
export const Z_NONE = 2;
/** … and where it is as strong as every word of the query matched. */
export const Z_FULL = 6;
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
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const near = related(s).map((w) => ftsString([w]));
    const nearExpression = near.join(' OR ');
    out.slots.push({
      terms: s.terms,
      expression,
      weight: idf * s.weight,
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
    out.total += idf * s.weight;
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

/** Each rid's lexical coverage of the query, in [0, 1] (0 for a query with no slot). */
export function lexicalCoverage(
  read: Reader,
  memo: MatchMemo,
  evidence: QueryEvidence,
  rids: readonly number[],
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
  return out;
}

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

/** The query's cosine distribution over the store: mean and standard deviation. */
export interface CosineScale {
  mean: number;
  sd: number;
}

/** Mean and spread of the sample's cosines (0 ignored: no vector), mixed with the reference below {@link MIN_SAMPLE}. */
export function cosineScale(cosines: Iterable<number>): CosineScale {
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
  const total = n + prior;
  const mean = (sum + prior * REFERENCE_MEAN) / total;
  const second = (squares + prior * (REFERENCE_SD ** 2 + REFERENCE_MEAN ** 2)) / total;
  return { mean, sd: Math.sqrt(Math.max(1e-6, second - mean * mean)) };
}

/** A cosine's meaning strength in [0, 1] on the query's scale (0 for no vector). */
export function meaningStrength(cosine: number, scale: CosineScale): number {
  if (cosine === 0) return 0;
  const z = (cosine - scale.mean) / scale.sd;
  return Math.min(1, Math.max(0, (z - Z_NONE) / (Z_FULL - Z_NONE)));
}
