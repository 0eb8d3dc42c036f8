/**
 * The pruned top k of BM25 (`recall/top-bm25.ts`) against the exhaustive ranking FTS5 gives
 * (`ORDER BY bm25() LIMIT k`), on generated stores: the same scores in the same order, the same
 * memories but for equal scores at the k-th place; and less read than every match.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Reader } from '../src/store/reader.ts';
import { recordingReader, textStore } from './helpers.ts';
import { topBm25, type TopBm25Work } from '../src/recall/top-bm25.ts';
import { LOOKUPS_AT_MOST, matchMemo, type MatchMemo } from '../src/recall/match.ts';
import { PhraseScores } from '../src/recall/phrase-scores.ts';

const BM25 = 'bm25(memories_fts, 1.0, 0.5, 0.3)';
/** Words of a Zipf-like vocabulary: the first ones match most memories. */
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i}x`);

/** Every 7th memory tagged "w1x" (so the tags column's weight counts). */
const tagged = (i: number) => (i % 7 === 0 ? '["w1x"]' : '[]');

/**
 * A property run and its shrinking stop themselves, as a failure, before the test's own timeout:
 * a failure on a store of a few hundred texts shrinks for many minutes, and a timed-out test's
 * runs would go on in the worker.
 */
const BOUNDED = { interruptAfterTimeLimit: 90_000, markInterruptAsFailure: true };

/** FTS5's own ranking of the OR of the phrases: every match scored. */
function exhaustive(read: Reader, phrases: readonly string[], k: number) {
  return read.all(
    `SELECT rowid, ${BM25} AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s, rowid LIMIT ?`,
    [phrases.join(' OR '), k],
    (c) => ({ rid: c.num(0), score: -c.num(1) }),
  );
}

/** A text of 3–40 words drawn from the vocabulary, common words more often. */
const text = fc
  .array(fc.nat({ max: 10_000 }), { minLength: 3, maxLength: 40 })
  .map((draws) => draws.map((d) => WORDS[Math.floor(WORDS.length * (d / 10_001) ** 3)]!).join(' '));

/**
 * The pruned top k against FTS5's exhaustive ranking: the same scores, to within what phrases
 * half the store matches add (≤ 2.2e-6 each, every time the query gives them), the same memories
 * in the same order but where scores are that close; and the same answer again from the memo.
 */
function expectRankedAsFts5(
  read: Reader,
  memo: MatchMemo,
  phrases: readonly string[],
  k: number,
  lookupsAtMost: number,
): void {
  const pruned = topBm25(read, memo, phrases, BM25, k, undefined, lookupsAtMost);
  const full = exhaustive(read, phrases, k);
  // the same scores, to within what phrases half the store matches add (≤ 2.2e-6 each,
  // every time the query gives them)
  const slack = 2.2e-6 * phrases.length + 1e-9;
  expect(pruned).toHaveLength(full.length);
  pruned.forEach((t, i) => expect(Math.abs(t.score - full[i]!.score)).toBeLessThanOrEqual(slack));
  // the same memories in the same order, but where scores are that close (at the k-th
  // place too: a memory ranked anywhere below it may take the place of one as close to it, as
  // when every phrase of the query matches half the store or more, each adding ≤ 2.2e-6)
  const every = new Map(exhaustive(read, phrases, -1).map((t) => [t.rid, t.score]));
  const tied = (rid: number) =>
    [...every].some(
      ([other, score]) => other !== rid && Math.abs(score - every.get(rid)!) <= 2 * slack,
    );
  const apart = (xs: { rid: number }[]) => xs.map((x) => x.rid).filter((rid) => !tied(rid));
  const kth = full.at(-1)?.score ?? -Infinity;
  for (const t of pruned) {
    expect(every.has(t.rid)).toBe(true);
    expect(every.get(t.rid)!).toBeGreaterThanOrEqual(kth - 2 * slack);
  }
  expect(apart(pruned)).toEqual(apart(full));
  // the phrases' matches kept in the memo give the same answer again
  expect(topBm25(read, memo, phrases, BM25, k)).toEqual(pruned);
}

describe('top k of BM25 without scoring every match', () => {
  it('bounds a phrase read before by its greatest score, so a memory only it matches still tops the list', async () => {
    // a commoner word in every 3rd memory (long ones, and one memory of it ten times), a rarer
    // one in 900 short ones: each of the rarer word's memories scores above every one of the
    // commoner word's but the ten-times memory, which a bound below its score would leave out
    const texts = Array.from({ length: 3000 }, (_, i) => {
      if (i === 3) return Array<string>(10).fill(WORDS[6]!).join(' ');
      if (i % 3 === 0) return [WORDS[6], ...WORDS.slice(20, 36)].join(' ');
      if (i % 20 < 9) return [WORDS[5], ...WORDS.slice(50, 55)].join(' ');
      return [WORDS[10 + (i % 10)], WORDS[50], WORDS[51]].join(' ');
    });
    const { db, read } = await textStore(texts);
    try {
      const phrases = [`"${WORDS[5]}"`, `"${WORDS[6]}"`];
      const expected = exhaustive(read, phrases, 1);
      expect(expected.map((t) => t.rid)).toEqual([4]); // the fourth memory: rid 4
      // the commoner word read before (its greatest score known), its matches kept or not
      for (const capacity of [0, 1 << 20]) {
        const memo: MatchMemo = { ...matchMemo(), phrases: new PhraseScores(capacity) };
        topBm25(read, memo, [phrases[1]!], BM25, 1);
        expect(topBm25(read, memo, phrases, BM25, 1)).toEqual(expected);
      }
    } finally {
      db.close();
    }
  });

  it('ranks as FTS5 ranks every match, on generated stores and queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 20, maxLength: 400 }),
        fc.uniqueArray(fc.constantFrom(...WORDS.slice(0, 40)), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.uniqueArray(fc.constantFrom(...WORDS.slice(0, 40)), { maxLength: 5 }),
        fc.boolean(),
        fc.constantFrom(LOOKUPS_AT_MOST, Infinity),
        async (texts, words, k, phrase, earlier, small, lookupsAtMost) => {
          const { db, read } = await textStore(texts, tagged);
          try {
            const phrases = words.map((w) => `"${w}"`);
            if (phrase && words.length > 1) phrases.push(`"${words[0]} ${words[1]}"`);
            // a phrase given twice (a word two slots share) counts twice, in FTS5 and here
            if (k % 3 === 0) phrases.push(phrases[0]!);
            // an earlier query's phrases read first: their greatest scores bound them now, with
            // their matches kept or (a memo that keeps few) not
            const memo: MatchMemo = small
              ? { ...matchMemo(), phrases: new PhraseScores(texts.length >> 2) }
              : matchMemo();
            if (earlier.length > 0)
              topBm25(
                read,
                memo,
                earlier.map((w) => `"${w}"`),
                BM25,
                1 + (k >> 1),
              );
            // lookupsAtMost ∞: every phrase after step 1 looked up in each candidate (step 3)
            expectRankedAsFts5(read, memo, phrases, k, lookupsAtMost);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 40, ...BOUNDED },
    );
  }, 120_000);

  it('ranks as FTS5 ranks every match where the query gives forms of one stem, and reads each stem once', async () => {
    // forms FTS5's porter tokenizer makes one token of ("official" and "officials": offici)
    const forms = [
      ['official', 'officials'],
      ['include', 'included', 'includes', 'including'],
      ['walk', 'walks', 'walked', 'walking'],
      ['house', 'houses', 'housing'],
      ['run', 'runs', 'running'],
      ['garden', 'gardens'],
      ['rain'],
      ['letter', 'letters'],
    ];
    const vocabulary = forms.flat();
    const formText = fc
      .array(fc.nat({ max: 10_000 }), { minLength: 3, maxLength: 20 })
      .map((draws) =>
        draws.map((d) => vocabulary[Math.floor(vocabulary.length * (d / 10_001) ** 2)]!).join(' '),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(formText, { minLength: 20, maxLength: 300 }),
        fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(LOOKUPS_AT_MOST, Infinity),
        async (texts, words, k, lookupsAtMost) => {
          const { db, read } = await textStore(texts);
          try {
            const { reader, calls } = recordingReader(read);
            expectRankedAsFts5(
              reader,
              matchMemo(),
              words.map((w) => `"${w}"`),
              k,
              lookupsAtMost,
            );
            // each stem's matches read whole at most once (by whichever of its forms came first)
            const wholeReads = calls
              .filter((c) => c.how === 'each' && c.sql.endsWith('MATCH ?'))
              .map((c) => forms.findIndex((f) => f.includes(String(c.params[0]).slice(1, -1))));
            expect(new Set(wholeReads).size).toBe(wholeReads.length);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 30, ...BOUNDED },
    );
  }, 120_000);

  it('reads a phrase once per memo: the next search with it reads no match of it again', async () => {
    const texts = Array.from({ length: 3000 }, (_, i) =>
      [WORDS[i % 3], WORDS[3 + (i % 5)], WORDS[10 + (i % 40)]].join(' '),
    );
    const { db, read } = await textStore(texts, tagged);
    try {
      const { reader: counting, calls } = recordingReader(read);
      // matches read with their bm25() (lookups, by `all`, are not reads of matches)
      const rowsRead = () =>
        calls
          .filter((c) => c.how === 'each' && c.sql.includes('bm25('))
          .reduce((n, c) => n + c.rows, 0);
      const memo = matchMemo();
      const first = [`"${WORDS[0]}"`, `"${WORDS[3]}"`];
      expect(topBm25(counting, memo, first, BM25, 10)).toEqual(
        topBm25(read, matchMemo(), first, BM25, 10),
      );
      expect(rowsRead()).toBeGreaterThan(1000);
      calls.length = 0;
      // a query sharing one phrase: only the new phrase's matches are read
      const next = [`"${WORDS[0]}"`, `"${WORDS[12]}"`];
      const again = topBm25(counting, memo, next, BM25, 10);
      expect(again.map((t) => t.rid)).toEqual(exhaustive(read, next, 10).map((t) => t.rid));
      expect(rowsRead()).toBe(75); // "w12x": every 40th memory
    } finally {
      db.close();
    }
  });

  it("stops scoring every match sooner once a phrase's greatest score is known, kept or not", async () => {
    // 3,000 memories of three words: a rarer word in every 10th, a commoner one in every 6th
    // (none in both), so the rarer word's memories are the top 10 (its idf 2.2 against 1.6);
    // the commoner word's idf bound (1.6 × 2.2) exceeds them, its greatest score (~1.6) does not
    const texts = Array.from({ length: 3000 }, (_, i) => {
      const middle = i % 10 === 0 ? WORDS[5] : i % 6 === 1 ? WORDS[6] : WORDS[10 + (i % 40)];
      return [WORDS[0], middle, WORDS[50]].join(' ');
    });
    const { db, read } = await textStore(texts, tagged);
    try {
      const phrases = [`"${WORDS[5]}"`, `"${WORDS[6]}"`];
      const expected = exhaustive(read, phrases, 10).map((t) => t.rid);
      const fresh: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      expect(topBm25(read, matchMemo(), phrases, BM25, 10, fresh).map((t) => t.rid)).toEqual(
        expected,
      );
      expect(fresh.scanned).toBe(2);
      // a memo that has read each phrase once but keeps no matches (capacity 0)
      const memo: MatchMemo = { ...matchMemo(), phrases: new PhraseScores(0) };
      for (const p of phrases) topBm25(read, memo, [p], BM25, 1);
      const bounded: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      expect(topBm25(read, memo, phrases, BM25, 10, bounded).map((t) => t.rid)).toEqual(expected);
      // the commoner word is then read for the rarer word's memories only
      expect(bounded).toMatchObject({ scanned: 1, forCandidates: 1 });
    } finally {
      db.close();
    }
  });

  it('reads no match of a word half the store holds (its idf floored), however many candidates', async () => {
    const texts = Array.from({ length: 3000 }, (_, i) =>
      [WORDS[0], i % 100 === 0 ? 'rareword' : WORDS[3 + (i % 50)]].join(' '),
    );
    const { db, read } = await textStore(texts, tagged);
    try {
      const phrases = ['"rareword"', `"${WORDS[0]}"`];
      const work: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      const pruned = topBm25(read, matchMemo(), phrases, BM25, 10, work);
      const full = exhaustive(read, phrases, 10);
      expect(pruned.map((t) => t.score)).toEqual(
        full.map((t) => expect.closeTo(t.score, 5) as unknown as number),
      );
      // 30 candidates: "w0x" (3,000 matches) would cost less read whole than looked up in each
      expect(work).toEqual({ scanned: 1, forCandidates: 0, rows: 30, lookups: 0 });
    } finally {
      db.close();
    }
  });

  it('scores a commoner phrase only on the candidates, in one read of its matches', async () => {
    // "rareword" in every 400th memory, "w2x" in every 4th (10 of them hold both)
    const texts = Array.from({ length: 4000 }, (_, i) =>
      [i % 400 === 0 ? 'rareword' : 'plain', i % 4 === 0 ? WORDS[2] : WORDS[3], 'tail'].join(' '),
    );
    const { db, read } = await textStore(texts, tagged);
    try {
      const { reader: counting, calls } = recordingReader(read);
      const phrases = ['"rareword"', `"${WORDS[2]}"`];
      const expected = exhaustive(read, phrases, 5);
      const work: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      expect(topBm25(counting, matchMemo(), phrases, BM25, 5, work)).toEqual(expected);
      expect(work).toEqual({ scanned: 1, forCandidates: 1, rows: 10 + 1000, lookups: 0 });
      // the 1,000 matches of "w2x" are visited, but only the 10 candidates come back scored
      const forCandidates = calls.filter((c) => c.sql.includes('+rowid IN'));
      expect(forCandidates.map((c) => c.rows)).toEqual([10]);
      // looked up in each candidate instead where as many lookups are allowed
      const looked: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      expect(topBm25(read, matchMemo(), phrases, BM25, 5, looked, 10)).toEqual(expected);
      expect(looked).toMatchObject({ scanned: 1, forCandidates: 0, lookups: 10 });
    } finally {
      db.close();
    }
  });

  it('reads less than every match when common words dominate', async () => {
    const texts = Array.from({ length: 4000 }, (_, i) =>
      [WORDS[0], WORDS[1], WORDS[2], i % 400 === 0 ? 'rareword' : WORDS[3 + (i % 50)]].join(' '),
    );
    const { db, read } = await textStore(texts, tagged);
    try {
      const phrases = ['"rareword"', `"${WORDS[0]}"`, `"${WORDS[1]}"`];
      const work: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      const pruned = topBm25(read, matchMemo(), phrases, BM25, 10, work);
      expect(pruned.map((t) => t.rid)).toEqual(exhaustive(read, phrases, 10).map((t) => t.rid));
      // the rare word alone is read in full; the common ones only looked up for its 10 memories
      expect(work.scanned).toBe(1);
      expect(work.rows).toBe(10);
      expect(work.lookups).toBeLessThanOrEqual(10 * 2);
      // the common words' matches kept from earlier queries: merged for the candidates, no lookup
      const memo = matchMemo();
      topBm25(read, memo, [`"${WORDS[0]}"`], BM25, 1);
      topBm25(read, memo, [`"${WORDS[1]}"`], BM25, 1);
      const kept: TopBm25Work = { scanned: 0, forCandidates: 0, rows: 0, lookups: 0 };
      expect(topBm25(read, memo, phrases, BM25, 10, kept).map((t) => t.rid)).toEqual(
        pruned.map((t) => t.rid),
      );
      expect(kept).toMatchObject({ scanned: 1, forCandidates: 2, lookups: 0 });
    } finally {
      db.close();
    }
  });
});
