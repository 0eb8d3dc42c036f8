/**
 * Lexical coverage (`recall/match.ts`): which of a query's slots each memory matches, weighed by
 * the slots' idf; an expression read whole is kept in the memo for the next query.
 */
import { describe, expect, it } from 'vitest';
import { recordingReader, textStore } from './helpers.ts';
import { lexicalCoverage, matchMemo, storeSize, type QueryEvidence } from '../src/recall/match.ts';
import { topBm25 } from '../src/recall/top-bm25.ts';

describe('lexical coverage', () => {
  it("gives each memory the share of the query's slots it matches, and reads an expression once per memo", async () => {
    // rid i + 1: "apple" in every 2nd memory, "pear" in every 3rd
    const texts = Array.from({ length: 600 }, (_, i) =>
      [i % 2 === 0 ? 'apple' : 'plum', i % 3 === 0 ? 'pear' : 'fig', 'tree'].join(' '),
    );
    const { db, read } = await textStore(texts);
    try {
      const { reader: counting, calls } = recordingReader(read);
      const statements = () => calls.map((c) => c.sql);
      const evidence: QueryEvidence = {
        slots: [
          { terms: ['"apple"'], expression: '"apple"', weight: 3, count: 300 },
          { terms: ['"pear"'], expression: '"pear"', weight: 1, count: 200 },
        ],
        total: 4,
      };
      const memo = matchMemo();
      const rids = [1, 2, 4, 7];
      const expected = new Map([
        [1, 1], // rid 1 = memory 0: apple and pear
        [2, 0], // memory 1: neither
        [4, 0.25], // memory 3: pear only (weight 1 of 4)
        [7, 1], // memory 6: both
      ]);
      expect(lexicalCoverage(counting, memo, evidence, rids)).toEqual(expected);
      expect(statements()).toHaveLength(2); // each expression read whole once
      // the next query with the same slots reads nothing again, and answers the same
      calls.length = 0;
      expect(lexicalCoverage(counting, memo, evidence, [2, 4, 7, 1])).toEqual(
        new Map([2, 4, 7, 1].map((r) => [r, expected.get(r)!])),
      );
      expect(statements()).toEqual([]);
      // a fresh memo (the store changed) reads them again
      expect(lexicalCoverage(counting, matchMemo(), evidence, rids)).toEqual(expected);
      expect(statements()).toHaveLength(2);
    } finally {
      db.close();
    }
  });

  it("answers from the phrases' matches the pruned top k kept, an OR of them included, without a query", async () => {
    // rid i + 1: "apple" in every 2nd memory, "pear" in every 3rd, "kiwi" in every 5th
    const texts = Array.from({ length: 600 }, (_, i) =>
      [
        i % 2 === 0 ? 'apple' : 'plum',
        i % 3 === 0 ? 'pear' : 'fig',
        i % 5 === 0 ? 'kiwi' : 'lime',
      ].join(' '),
    );
    const { db, read } = await textStore(texts);
    try {
      const { reader: counting, calls } = recordingReader(read);
      const statements = () => calls.map((c) => c.sql);
      const memo = matchMemo();
      // the lexical leg's pruned top k reads "kiwi" and "pear" whole with their bm25()
      topBm25(read, memo, ['"pear"', '"kiwi"'], 'bm25(memories_fts, 1.0, 0.5, 0.3)', 5);
      expect(memo.phrases.rids('"pear"')).toHaveLength(200);
      expect(memo.phrases.rids('"kiwi"')).toHaveLength(120);
      const evidence: QueryEvidence = {
        slots: [
          { terms: ['"pear"', '"kiwi"'], expression: '"pear" OR "kiwi"', weight: 1, count: 280 },
          { terms: ['"apple"'], expression: '"apple"', weight: 1, count: 300 },
        ],
        total: 2,
      };
      const rids = [1, 2, 3, 4, 6];
      const expected = new Map([
        [1, 1], // memory 0: apple, pear and kiwi (one slot)
        [2, 0], // memory 1: none
        [3, 0.5], // memory 2: apple
        [4, 0.5], // memory 3: pear
        [6, 0.5], // memory 5: kiwi
      ]);
      expect(lexicalCoverage(counting, memo, evidence, rids)).toEqual(expected);
      // only "apple", which the top k did not read, is read
      expect(statements()).toEqual(['SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?']);
      // the same answer from SQLite alone
      expect(lexicalCoverage(read, matchMemo(), evidence, rids)).toEqual(expected);
      // a word every memory holds covers every memory, read or not ("lime" or "kiwi": none misses both)
      storeSize(read, memo);
      calls.length = 0;
      const everywhere: QueryEvidence = {
        slots: [
          { terms: ['"lime"', '"kiwi"'], expression: '"lime" OR "kiwi"', weight: 1, count: 600 },
        ],
        total: 1,
      };
      expect(lexicalCoverage(counting, memo, everywhere, rids)).toEqual(
        new Map(rids.map((r) => [r, 1])),
      );
      expect(statements()).toEqual([]);
    } finally {
      db.close();
    }
  });
});
