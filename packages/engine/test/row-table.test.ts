import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { RowTable } from '../src/vectors/row-table.ts';

/** A rid: mostly small and dense (as SQLite gives them), sometimes far beyond the rows held. */
const rid = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 300_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
);
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), rid, row: fc.nat(1_000_000) }),
  fc.record({ kind: fc.constant('delete' as const), rid }),
);

describe('RowTable', () => {
  it('answers as a Map of rid to row under any sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new RowTable();
        const map = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            table.set(o.rid, o.row);
            map.set(o.rid, o.row);
          } else {
            table.delete(o.rid);
            map.delete(o.rid);
          }
        }
        for (const o of ops) {
          expect(table.get(o.rid)).toBe(map.get(o.rid));
          expect(table.has(o.rid)).toBe(map.has(o.rid));
        }
        if (!map.has(-1)) expect(table.get(-1)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('holds 100k ascending rids in a typed array of about their count, and a far rid apart', () => {
    const table = new RowTable();
    for (let r = 1; r <= 100_000; r++) table.set(r, r - 1);
    table.set(2 ** 31 - 1, 7);
    expect(table.bytes).toBeLessThanOrEqual(4 * 2 * 131_072);
    expect(table.get(100_000)).toBe(99_999);
    expect(table.get(2 ** 31 - 1)).toBe(7);
    expect(table.get(100_001)).toBeUndefined();
  });
});
