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

  it('setRun answers as set on each rid in turn, between any sets and deletes', () => {
    const run = fc.oneof(
      fc.array(rid, { maxLength: 60 }),
      // a snapshot part's rids: ascending, mostly dense
      fc
        .tuple(fc.integer({ min: 0, max: 200_000 }), fc.array(fc.integer({ min: 1, max: 3 })))
        .map(([start, gaps]) =>
          gaps.map((_, i) => start + gaps.slice(0, i + 1).reduce((a, b) => a + b, 0)),
        ),
    );
    const step = fc.oneof(
      op,
      fc.record({ kind: fc.constant('run' as const), rids: run, first: fc.nat(1_000_000) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const table = new RowTable();
        const map = new Map<number, number>();
        const seen: number[] = [-1];
        for (const s of steps) {
          if (s.kind === 'run') {
            table.setRun(Float64Array.from(s.rids), s.first);
            s.rids.forEach((r, i) => map.set(r, s.first + i));
            seen.push(...s.rids);
          } else if (s.kind === 'set') {
            table.set(s.rid, s.row);
            map.set(s.rid, s.row);
            seen.push(s.rid);
          } else {
            table.delete(s.rid);
            map.delete(s.rid);
            seen.push(s.rid);
          }
        }
        for (const r of seen) expect(table.get(r)).toBe(map.get(r));
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
