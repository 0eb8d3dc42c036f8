import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { ftsTokens, prepareFtsQuery } from '../src/fts-query.ts';
import { expectCode } from './helpers.ts';

type Db = {
  exec: (sql: string | { sql: string; bind: unknown[] }) => void;
  selectArrays: (sql: string, bind: unknown[]) => unknown[][];
  close: () => void;
};
let db: Db;

beforeAll(async () => {
  const sqlite3 = await sqlite3InitModule();
  db = new sqlite3.oo1.DB(':memory:') as unknown as Db;
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tags, tokenize='porter unicode61')");
  for (const text of [
    'Alice went running in the park',
    'Bob likes NEAR tests and AND gates',
    'café au lait, naïve résumé',
    'it\'s 2023: "quoted" (paren) col:value ^caret star*',
  ]) {
    db.exec({ sql: 'INSERT INTO t(text, tags) VALUES (?, ?)', bind: [text, ''] });
  }
});
afterAll(() => db.close());

const match = (q: string) =>
  db.selectArrays('SELECT rowid, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t)', [q]);

describe('prepareFtsQuery (seed 002)', () => {
  it('drops stopwords and short tokens and OR-joins quoted terms', () => {
    expect(prepareFtsQuery('Where did Alice go running in the park?')).toBe(
      '"where" OR "alice" OR "go" OR "running" OR "park"',
    );
    expect(prepareFtsQuery('a I x')).toBe('');
    expect(prepareFtsQuery('')).toBe('');
    expect(prepareFtsQuery('the and of')).toBe('');
  });
  it('removes FTS5 specials " \' ( ) * : ^ and neutralises operators and column filters', () => {
    expect(prepareFtsQuery('"quoted" (paren) col:value ^caret star* NEAR(a b) AND OR NOT')).toBe(
      '"quoted" OR "paren" OR "col" OR "value" OR "caret" OR "star" OR "near"',
    );
    expect(match(prepareFtsQuery('NEAR tests AND gates')).map((r) => r[0])).toEqual([2]);
    expect(match(prepareFtsQuery('text:running'))[0]![0]).toBe(1);
  });
  it('keeps unicode words, dedupes and caps the term count', () => {
    expect(ftsTokens('café au-lait')).toEqual(['café', 'au', 'lait']);
    expect(prepareFtsQuery('Run run RUN')).toBe('"run"');
    expect(prepareFtsQuery('alpha beta gamma', { maxTerms: 2 })).toBe('"alpha" OR "beta"');
    expect(prepareFtsQuery('alpha beta', { operator: 'AND' })).toBe('"alpha" AND "beta"');
    // unicode61 folds diacritics, so plain ASCII finds accented words
    expect(match(prepareFtsQuery('resume naive'))[0]![0]).toBe(3);
    expect(match(prepareFtsQuery('résumé'))[0]![0]).toBe(3);
  });
  it('rejects non-strings and bad options', () => {
    expectCode(() => prepareFtsQuery(42 as never), 'INVALID_INPUT');
    expectCode(() => prepareFtsQuery('x', { maxTerms: 0 }), 'INVALID_INPUT');
    expectCode(() => prepareFtsQuery('x', { operator: 'NEAR' as never }), 'INVALID_INPUT');
  });
  // ANAMNESIS_FUZZ_CASES and ANAMNESIS_FUZZ_SEED scale and reseed it (`pnpm test:fuzz`).
  const cases = Number(process.env.ANAMNESIS_FUZZ_CASES || 1000);
  const seed = Number(process.env.ANAMNESIS_FUZZ_SEED || 2);
  it(
    `property (seed ${seed}, ${cases} cases): any text yields "" or an expression real SQLite FTS5 accepts`,
    () => {
      const hostile = fc.array(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.constantFrom(
            '"',
            "'",
            '(',
            ')',
            '*',
            ':',
            '^',
            'NEAR',
            'AND',
            'OR',
            'NOT',
            '-',
            '+',
            '{',
            '}',
            'text:',
            ' ',
            "'; DROP TABLE t; --",
            '\u0000',
            '💥',
            '{text tags}:',
            '{tags}',
            'tags:',
            't MATCH',
            'rank MATCH',
            'memories_fts',
            'NEAR(a b, 3)',
            '\ud800',
            '\udfff',
            '\u0301',
            '\u200b',
            '\u202e',
            'ש',
            '\ufeff',
            "a') OR 1=1 --",
            '/*',
            'json_each(',
          ),
          fc.string({ unit: 'grapheme-composite' }),
        ),
        { maxLength: 20 },
      );
      fc.assert(
        fc.property(hostile, (parts) => {
          const q = prepareFtsQuery(parts.join(''));
          expect(q).toMatch(/^(?:"[^"]+"(?: OR "[^"]+")*)?$/);
          if (q !== '') expect(() => match(q)).not.toThrow();
        }),
        { numRuns: cases, seed },
      );
    },
    Math.max(30_000, cases * 5),
  );
});

describe('keepNumbers', () => {
  it('keeps numbers shorter than minLength, and still drops other short tokens', () => {
    expect(prepareFtsQuery('room 7 b ½', { keepNumbers: true })).toBe('"room" OR "7" OR "½"');
    expect(prepareFtsQuery('room 7 b ½')).toBe('"room"');
  });
});
