import type { Reader } from '../store/reader.ts';
import { LOOKUPS_AT_MOST, phraseCount, storeSize, type MatchMemo } from './match.ts';
import { columnWeights, instanceScores, K1 } from './phrase-instances.ts';
import { phraseKey, phraseToken } from './phrase-key.ts';
import type { PhraseMatches } from './phrase-scores.ts';

/**
 * The exact top k of FTS5's `bm25()` over an OR of phrases, without scoring every memory that
 * matches (MaxScore, Turtle and Flood 1995). A query's common words match a large share of a big
 * store ("names match 16% of notes"), and `ORDER BY bm25() LIMIT k` scores every match to keep
 * k. BM25 is a sum over the query's phrases, and each phrase adds at most `idf · (k1 + 1)`
 * (its term-frequency factor stays below `k1 + 1`, whatever the column weights), or, once its
 * matches have been read since the store last changed, its greatest score (the memo keeps it when
 * it cannot keep the matches): a memory holding a word once scores about half the first bound, so
 * the second prunes far more. So:
 *
 * 1. the phrases are taken rarest first, each scored on every memory it matches (one FTS5 query
 *    per phrase: its own `bm25()`, which is its share of the OR query's, or, for a word of many
 *    matches, the same values computed from its instances: `phrase-instances.ts`; kept in the
 *    memo's `phrases` until the store changes, and summed over rid-sorted arrays);
 * 2. as soon as the k-th best partial score exceeds what all remaining phrases together could
 *    add, no memory that matched none of the phrases scored so far can reach the top k: the rest
 *    of the phrases are scored only for the candidates that could still get there: merged from
 *    the memo where it keeps the phrase's matches, else (a word: every match computed from its
 *    instances, and kept) by one read that visits the phrase's matches and scores only the
 *    candidates among them, while more than {@link LOOKUPS_AT_MOST} candidates are left;
 * 3. the phrases left, candidates best first, one lookup each (`MATCH phrase AND rowid = ?`,
 *    which FTS5 answers by seeking in the phrase's doclist): one whose partial score plus what it
 *    could still gain cannot beat the k-th best complete score is dropped unread.
 *
 * The scores are the OR query's own (the sum of the same per-phrase terms, added in the same
 * order for every memory, so equal scores stay equal), but for a phrase that half the store
 * matches, which is left out once step 1 has stopped (it adds at most 2.2 · 10⁻⁶: see below), so
 * memories whose scores are that close may order differently, at the k-th place too; equal scores
 * at the k-th place are kept by the lower rowid first. Phrases FTS5 searches alike (two forms of
 * one English stem: `phrase-key.ts`) are one phrase given twice. Used where the phrases match many
 * memories (below that, one `ORDER BY` query is as fast); {@link TopBm25Work} says what it read.
 */

/**
 * Matches from which a one-word phrase's scores are computed from its instances (below it the
 * query for the idf's logarithm costs more than the instances save).
 */
const INSTANCES_FROM = 256;
/** What a phrase with FTS5's floored idf (10⁻⁶) adds at most. */
const FLOORED = 1e-6 * (K1 + 1);
/**
 * A phrase's greatest score, once read, bounds what it adds, raised by this factor: far above
 * the rounding of sums of a few scores added in another order (~10⁻¹⁶ of them), so a memory's
 * sum never exceeds the sum of the bounds.
 */
const EXACT_BOUND_SLACK = 1 + 1e-9;

/** What a phrase can add to a memory's score, at most: FTS5's idf (floored as FTS5 floors it) × (k1 + 1). */
export function phraseBound(total: number, matching: number): number {
  const idf = Math.log((total - matching + 0.5) / (matching + 0.5));
  return (idf <= 0 ? 1e-6 : idf) * (K1 + 1);
}

/** One memory of the top k: its rid and its score (the negated `bm25()`, higher is better). */
export interface TopItem {
  rid: number;
  score: number;
}

/** How much work a top-k search did. */
export interface TopBm25Work {
  /** Phrases scored on every memory they match (step 1). */
  scanned: number;
  /** Phrases then scored for the candidates only (step 2): merged from the memo, or read. */
  forCandidates: number;
  /** Matches of the phrases of the two steps. */
  rows: number;
  /** Lookups of one phrase in one memory. */
  lookups: number;
}

/**
 * The top `limit` memories for the OR of `phrases` by `bm25Call` (an engine-fixed `bm25(…)`
 * expression), best first, exactly as `ORDER BY bm25 LIMIT limit` ranks them. `lookupsAtMost`:
 * see {@link LOOKUPS_AT_MOST} (tests raise it to reach step 3 in small stores).
 */
export function topBm25(
  read: Reader,
  memo: MatchMemo,
  phrases: readonly string[],
  bm25Call: string,
  limit: number,
  work?: TopBm25Work,
  lookupsAtMost = LOOKUPS_AT_MOST,
): TopItem[] {
  const total = storeSize(read, memo);
  // a phrase given twice counts twice, as FTS5's bm25() counts each phrase of the query; so do
  // two phrases FTS5 searches alike (`phraseKey`: "official" and "officials"), read as the first
  const times = new Map<string, { phrase: string; repeats: number }>();
  for (const phrase of phrases) {
    const key = phraseKey(phrase);
    const seen = times.get(key);
    if (seen) seen.repeats++;
    else times.set(key, { phrase, repeats: 1 });
  }
  const counted = [...times]
    .map(([key, { phrase, repeats }]) => {
      const n = phraseCount(read, memo, phrase);
      const most = memo.phrases.most(bm25Call, phrase);
      const bound = most === undefined ? phraseBound(total, n) : most * EXACT_BOUND_SLACK;
      return { key, phrase, n, repeats, bound: bound * repeats };
    })
    .filter((p) => p.n > 0)
    // rarest first; the key breaks ties so that the order (and the sums) never vary
    .sort((a, b) => a.n - b.n || (a.key < b.key ? -1 : 1));
  // `left[i]`: what the phrases from i on can add at most
  const left = new Array<number>(counted.length + 1).fill(0);
  for (let i = counted.length - 1; i >= 0; i--) left[i] = left[i + 1]! + counted[i]!.bound;

  /** Each memory's score over the phrases read so far, by ascending rid. */
  let partial: Scores = { rids: new Int32Array(0), scores: new Float64Array(0) };
  const matches = ({ phrase, n }: (typeof counted)[number]) =>
    memo.phrases.get(bm25Call, phrase, () => phraseMatches(read, memo, phrase, n, bm25Call));
  let i = 0;
  // 1. Rarest first, every match, until no memory unseen so far can reach the top k.
  for (; i < counted.length; i++) {
    if (partial.rids.length >= limit && kthBest(partial.scores, limit) > left[i]!) break;
    partial = added(partial, matches(counted[i]!), counted[i]!.repeats);
    if (work) {
      work.scanned++;
      work.rows += counted[i]!.n;
    }
  }
  // 2. The rest only for the candidates that could still get there: a phrase's matches scored for
  //    them alone while that costs less than a lookup in each of them, then lookups.
  const live = new Uint8Array(partial.rids.length).fill(1);
  let candidates = live.length;
  for (; i < counted.length; i++) {
    const floor = kthBest(partial.scores, limit);
    for (let j = 0; j < live.length; j++)
      if (live[j] && partial.scores[j]! + left[i]! < floor) {
        live[j] = 0;
        candidates--;
      }
    // a phrase whose matches are kept is merged, whatever their number: no query at all; one
    // with FTS5's floored idf is not read (below), nor are the phrases after it (as common)
    const { n, phrase, bound, repeats } = counted[i]!;
    if (memo.phrases.holds(bm25Call, phrase)) {
      addToLive(partial, live, matches(counted[i]!), repeats);
    } else {
      if (candidates <= lookupsAtMost || bound <= FLOORED) break;
      // every match computed from the word's instances costs about 1.5× scoring the candidates
      // among them, and is kept for the next search with the word: worth it while it stays kept
      const whole = memo.phrases.lasting(n)
        ? computedMatches(read, memo, phrase, n, bm25Call, false)
        : undefined;
      addToLive(
        partial,
        live,
        whole
          ? memo.phrases.get(bm25Call, phrase, () => whole)
          : scoredFor(read, phrase, bm25Call, partial.rids, live),
        repeats,
      );
    }
    if (work) {
      work.forCandidates++;
      work.rows += n;
    }
  }
  if (i === counted.length) return best(partial, limit);
  // A phrase that half the store or more matches gets FTS5's floored idf (10⁻⁶): it adds at most
  // 2.2 · 10⁻⁶ to a score, and looking it up costs most (its doclist is most of the index: "ones"
  // is the stem "on"). Memories it alone matches cannot reach the top k (step 1 stopped); for the
  // candidates it is left out, so equal scores to within 2.2 · 10⁻⁶ may order differently.
  const rest = counted.slice(i).filter((p) => p.bound > FLOORED);
  if (rest.length === 0) return best(partial, limit);
  const gain = left[i]!;
  // 3. Best partial score first; stop where even the greatest gain cannot reach the k-th complete score.
  const order: number[] = [];
  for (let j = 0; j < live.length; j++) if (live[j]) order.push(j);
  order.sort(
    (a, b) => partial.scores[b]! - partial.scores[a]! || partial.rids[a]! - partial.rids[b]!,
  );
  const done = new Map<number, number>();
  const top = new TopScores(limit);
  for (const j of order) {
    const rid = partial.rids[j]!;
    const start = partial.scores[j]!;
    if (top.full && start + gain < top.floor) break;
    let score = start;
    for (const { phrase, repeats } of rest) {
      const [add] = read.all(
        `SELECT ${bm25Call} FROM memories_fts WHERE memories_fts MATCH ? AND rowid = ?`,
        [phrase, rid],
        (c) => -repeats * c.num(0),
      );
      if (add !== undefined) score += add;
      if (work) work.lookups++;
    }
    done.set(rid, score);
    top.add(score);
  }
  return best(
    { rids: Int32Array.from(done.keys()), scores: Float64Array.from(done.values()) },
    limit,
  );
}

/**
 * Every memory a phrase of one word matches (`n` of them, {@link INSTANCES_FROM} or more) with
 * its `bm25()`, computed from the word's instances (`phrase-instances.ts`) while the memories'
 * lengths are current; else undefined, and where the caller would score every match with
 * `bm25()` instead (`owed`), that much is owed to the lengths' next read (`doc-lengths.ts`).
 */
function computedMatches(
  read: Reader,
  memo: MatchMemo,
  phrase: string,
  n: number,
  bm25Call: string,
  owed: boolean,
): PhraseMatches | undefined {
  const token = n >= INSTANCES_FROM ? phraseToken(phrase) : undefined;
  const weights = token === undefined ? undefined : columnWeights(bm25Call);
  if (token === undefined || weights === undefined) return undefined;
  const lengths = memo.lengths.current(read, memo, storeSize(read, memo));
  const computed = lengths && instanceScores(read, token, n, weights, lengths);
  if (!computed && owed) memo.lengths.owe(n);
  return computed;
}

/**
 * Every memory `phrase` matches (`n` of them) with its `bm25()`: a phrase of one word of
 * {@link INSTANCES_FROM} matches or more computed from the word's instances while the memories'
 * lengths are current (`phrase-instances.ts`: the same values), else read with FTS5's `bm25()`.
 */
function phraseMatches(
  read: Reader,
  memo: MatchMemo,
  phrase: string,
  n: number,
  bm25Call: string,
): PhraseMatches {
  const computed = computedMatches(read, memo, phrase, n, bm25Call, true);
  if (computed) return computed;
  const rids = new Int32Array(n);
  const bm25 = new Float64Array(n);
  let at = 0;
  read.each(
    `SELECT rowid, ${bm25Call} FROM memories_fts WHERE memories_fts MATCH ?`,
    [phrase],
    (c) => {
      rids[at] = c.num(0);
      bm25[at++] = c.num(1);
    },
  );
  return byRid(rids.subarray(0, at), bm25.subarray(0, at));
}

/**
 * A phrase's `bm25()` for the memories among `rids` still `live` that it matches, by ascending rid.
 * FTS5 visits every match (a rowid constraint would make it seek each one: slower), but `bm25()`
 * runs only on the rows the `+rowid IN` filter lets through (the `+` keeps the constraint from
 * FTS5): at 100k memories about a sixth of the time of scoring every match in SQLite-WASM, a
 * fifteenth in native SQLite. The values are the same call's on the same rows.
 */
function scoredFor(
  read: Reader,
  phrase: string,
  bm25Call: string,
  rids: Int32Array,
  live: Uint8Array,
): PhraseMatches {
  const wanted: number[] = [];
  for (let j = 0; j < rids.length; j++) if (live[j]) wanted.push(rids[j]!);
  const out: number[] = [];
  const bm25: number[] = [];
  read.each(
    `SELECT rowid, ${bm25Call} FROM memories_fts WHERE memories_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    [phrase, JSON.stringify(wanted)],
    (c) => {
      out.push(c.num(0));
      bm25.push(c.num(1));
    },
  );
  return byRid(Int32Array.from(out), Float64Array.from(bm25));
}

/** The k greatest scores seen, as a min-heap: `floor` is the k-th greatest once `full`. */
class TopScores {
  readonly #k: number;
  readonly #heap: number[] = [];
  constructor(k: number) {
    this.#k = k;
  }
  get full(): boolean {
    return this.#heap.length >= this.#k;
  }
  get floor(): number {
    return this.#heap[0] ?? -Infinity;
  }
  add(score: number): void {
    const h = this.#heap;
    if (h.length < this.#k) {
      h.push(score);
      for (let c = h.length - 1; c > 0;) {
        const p = (c - 1) >> 1;
        if (h[p]! <= h[c]!) break;
        [h[p], h[c]] = [h[c]!, h[p]!];
        c = p;
      }
    } else if (score > h[0]!) {
      h[0] = score;
      for (let p = 0; ;) {
        const l = 2 * p + 1;
        const r = l + 1;
        let m = p;
        if (l < h.length && h[l]! < h[m]!) m = l;
        if (r < h.length && h[r]! < h[m]!) m = r;
        if (m === p) break;
        [h[p], h[m]] = [h[m]!, h[p]!];
        p = m;
      }
    }
  }
}

/** Memories' scores: rids (ascending, but in {@link best}) and their scores. */
interface Scores {
  rids: Int32Array;
  scores: Float64Array;
}

/**
 * A phrase's matches by ascending rid. FTS5 returns a MATCH's rows in rowid order, so this only
 * checks; matches in another order are sorted.
 */
function byRid(rids: Int32Array, bm25: Float64Array): PhraseMatches {
  let sorted = true;
  for (let j = 1; j < rids.length && sorted; j++) sorted = rids[j - 1]! < rids[j]!;
  if (sorted) return { rids, bm25 };
  const order = Array.from(rids.keys()).sort((a, b) => rids[a]! - rids[b]!);
  return {
    rids: Int32Array.from(order, (j) => rids[j]!),
    bm25: Float64Array.from(order, (j) => bm25[j]!),
  };
}

/** `partial` with a phrase's matches added (`repeats` × its score), memories it alone matches included. */
function added(partial: Scores, { rids, bm25 }: PhraseMatches, repeats: number): Scores {
  const n = partial.rids.length;
  const outRids = new Int32Array(n + rids.length);
  const outScores = new Float64Array(n + rids.length);
  let a = 0;
  let b = 0;
  let o = 0;
  while (a < n || b < rids.length) {
    const ra = a < n ? partial.rids[a]! : Infinity;
    const rb = b < rids.length ? rids[b]! : Infinity;
    outRids[o] = Math.min(ra, rb);
    if (ra < rb) outScores[o++] = partial.scores[a++]!;
    else if (rb < ra) outScores[o++] = 0 - repeats * bm25[b++]!;
    else outScores[o++] = partial.scores[a++]! - repeats * bm25[b++]!;
  }
  return { rids: outRids.subarray(0, o), scores: outScores.subarray(0, o) };
}

/** A phrase's matches added to the memories of `partial` still `live` (in place). */
function addToLive(
  partial: Scores,
  live: Uint8Array,
  { rids, bm25 }: PhraseMatches,
  repeats: number,
): void {
  for (let a = 0, b = 0; a < partial.rids.length && b < rids.length;) {
    const ra = partial.rids[a]!;
    const rb = rids[b]!;
    if (ra < rb) a++;
    else if (rb < ra) b++;
    else {
      if (live[a]) partial.scores[a] = partial.scores[a]! - repeats * bm25[b]!;
      a++;
      b++;
    }
  }
}

/** The k-th greatest of the values (−∞ when there are fewer). */
function kthBest(values: Iterable<number>, k: number): number {
  const top = new TopScores(k);
  for (const v of values) top.add(v);
  return top.full ? top.floor : -Infinity;
}

/** The `limit` best, by score, then lower rowid (only those at or above the k-th score sorted). */
function best({ rids, scores }: Scores, limit: number): TopItem[] {
  const floor = kthBest(scores, limit);
  const out: TopItem[] = [];
  for (let j = 0; j < rids.length; j++)
    if (scores[j]! >= floor) out.push({ rid: rids[j]!, score: scores[j]! });
  return out.sort((a, b) => b.score - a.score || a.rid - b.rid).slice(0, limit);
}
