/**
 * Lexical coverage (`recall/match.ts`): which of a query's slots each memory matches, weighed by
 * the slots' idf; an expression read whole is kept in the memo for the next query.
 */
import { describe, expect, it } from 'vitest';
import type { WasmReader } from '../src/store/reader.ts';
import { textStore } from './helpers.ts';
import { lexicalCoverage, matchMemo, type QueryEvidence } from '../src/recall/match.ts';

describe('lexical coverage', () => {
  it("gives each memory the share of the query's slots it matches, and reads an expression once per memo", async () => {
    // rid i + 1: "apple" in every 2nd memory, "pear" in every 3rd
    const texts = Array.from({ length: 600 }, (_, i) =>
      [i % 2 === 0 ? 'apple' : 'plum', i % 3 === 0 ? 'pear' : 'fig', 'tree'].join(' '),
    );
    const { db, read } = await textStore(texts);
    try {
      const statements: string[] = [];
      const counting = {
        all: ((sql, params, row) => {
          statements.push(sql);
          return read.all(sql, params, row);
        }) as WasmReader['all'],
        each: ((sql, params, visit) => {
          statements.push(sql);
          read.each(sql, params, visit);
        }) as WasmReader['each'],
        close: () => read.close(),
      };
      const evidence: QueryEvidence = {
        slots: [
          { expression: '"apple"', weight: 3, count: 300 },
          { expression: '"pear"', weight: 1, count: 200 },
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
      expect(statements).toHaveLength(2); // each expression read whole once
      // the next query with the same slots reads nothing again, and answers the same
      statements.length = 0;
      expect(lexicalCoverage(counting, memo, evidence, [2, 4, 7, 1])).toEqual(
        new Map([2, 4, 7, 1].map((r) => [r, expected.get(r)!])),
      );
      expect(statements).toEqual([]);
      // a fresh memo (the store changed) reads them again
      expect(lexicalCoverage(counting, matchMemo(), evidence, rids)).toEqual(expected);
      expect(statements).toHaveLength(2);
    } finally {
      db.close();
    }
  });
});
