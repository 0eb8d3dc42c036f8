import type { Reader } from '../store/reader.ts';
import { FTS_INSTANCES } from '../store/schema.ts';
import type { IndexLengths } from './doc-lengths.ts';
import type { PhraseMatches } from './phrase-scores.ts';

/**
 * A one-word phrase's `bm25()` on every memory it matches, computed from the word's instances
 * in the lexical index (FTS5's `fts5vocab` instance table: `FTS_INSTANCES`) and the memories'
 * lengths kept in memory (`doc-lengths.ts`), to the last bit what FTS5's `bm25()` gives each
 * (`fts5Bm25Function` in SQLite's `fts5_aux.c`: the same operations in the same order, the idf's
 * logarithm taken by SQLite's own `ln()`). Reading a word's instances costs about a fifth of
 * reading its matches with their `bm25()` (which looks each memory's length up): 0.22 against
 * 0.95 µs a match in SQLite-WASM, 0.18 against 1.1 µs in native SQLite through better-sqlite3
 * (2026-11-30).
 */

/** The lexical index's columns, in order (`memories_fts`: `schema.ts`). */
const COLUMNS = ['text', 'tags', 'site'] as const;
const COLUMN_OF = `CASE col ${COLUMNS.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} END`;
/** FTS5's `bm25()` constants (fixed in FTS5). */
export const K1 = 1.2;
const B = 0.75;

/**
 * The columns' weights a `bm25(memories_fts, w0, w1, …)` call gives (1 for a column it leaves
 * out), or undefined for any other call.
 */
export function columnWeights(bm25Call: string): number[] | undefined {
  const args = /^bm25\(memories_fts((?:,\s*\d+(?:\.\d+)?)*)\)$/.exec(bm25Call)?.[1];
  if (args === undefined) return undefined;
  const given = args.split(',').slice(1).map(Number);
  return COLUMNS.map((_, i) => given[i] ?? 1);
}

/**
 * The `bm25()` (FTS5's sign: lower is better) that a `MATCH` of the phrase of one `token`, with
 * `weights`, gives each memory it matches, by ascending rid; `matching`: the memories it matches
 * (FTS5 counts them for the idf). Undefined where the index does not agree with what is known of
 * it (a memory whose length was not read, another count of memories): then only `bm25()` knows.
 */
export function instanceScores(
  read: Reader,
  token: string,
  matching: number,
  weights: readonly number[],
  { rows, mean, tokens }: IndexLengths,
): PhraseMatches | undefined {
  const rids = new Int32Array(matching);
  const freq = new Float64Array(matching);
  let at = -1;
  let last = -1;
  // the instances of each memory in the order FTS5 reads them (by column, then offset), each
  // adding its column's weight to the phrase's frequency, as `bm25()` adds them (one value a
  // row, read at once: better-sqlite3 reads rows one by one 4× slower)
  const instances = read.all(
    `SELECT doc * 4 + ${COLUMN_OF} FROM ${FTS_INSTANCES} WHERE term = ?`,
    [token],
    (c) => c.num(0),
  );
  for (const value of instances) {
    const rid = Math.floor(value / 4);
    if (rid !== last) {
      // FTS5 lists a token's instances by ascending rid
      if (rid < last || ++at >= matching) return undefined;
      last = rid;
      rids[at] = rid;
    }
    freq[at] = freq[at]! + (weights[value - 4 * rid] ?? NaN);
  }
  if (at + 1 !== matching) return undefined;
  const [ln = NaN] = read.all(
    'SELECT ln((? - ? + 0.5) / (? + 0.5))',
    [rows, matching, matching],
    (c) => c.num(0),
  );
  const idf = ln <= 0 ? 1e-6 : ln;
  const bm25 = new Float64Array(matching);
  for (let j = 0; j < matching; j++) {
    const length = tokens[rids[j]!] ?? 0;
    const f = freq[j]!;
    if (length === 0 || !(f > 0)) return undefined;
    const score = 0.0 + idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * length) / mean)));
    bm25[j] = -1.0 * score;
  }
  return { rids, bm25 };
}
