import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rrf, sumContributions, type RankedList } from '../src/rrf.ts';
import { expectCode } from './helpers.ts';

const mnesticExample: RankedList[] = [
  {
    leg: 'vec',
    items: [
      { id: 'a', score: 0.91 },
      { id: 'b', score: 0.74 },
    ],
  },
  {
    leg: 'fts',
    items: [
      { id: 'b', score: 7.2 },
      { id: 'c', score: 5.1 },
    ],
  },
];

describe('rrf', () => {
  it("fuses seed 003's example with k = 60 and per-leg detail", () => {
    const out = rrf(mnesticExample);
    expect(out.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(out[0]!.score).toBe(1 / 62 + 1 / 61);
    expect(out[1]!.score).toBe(1 / 61);
    expect(out[2]!.score).toBe(1 / 62);
    expect(out[0]!.legs).toEqual([
      { leg: 'vec', rank: 2, score: 0.74, contribution: 1 / 62 },
      { leg: 'fts', rank: 1, score: 7.2, contribution: 1 / 61 },
    ]);
    // Legs an item did not appear in contribute no row.
    expect(out[1]!.legs.map((l) => l.leg)).toEqual(['vec']);
  });

  it("applies seed 002's weights and absent penalty rank len + 1", () => {
    const out = rrf(
      [
        {
          leg: 'bm25',
          items: [
            { id: 'x', score: 3 },
            { id: 'y', score: 2 },
          ],
        },
        { leg: 'vector', items: [{ id: 'y', score: 0.9 }] },
        { leg: 'usage', items: [] },
      ],
      { weights: { bm25: 0.4, vector: 0.4, usage: 0.2 }, absent: 'penalty' },
    );
    const x = out.find((r) => r.id === 'x')!;
    const y = out.find((r) => r.id === 'y')!;
    expect(x.score).toBe(0.4 / 61 + 0.4 / 62 + 0.2 / 61);
    expect(y.score).toBe(0.4 / 62 + 0.4 / 61 + 0.2 / 61);
    expect(x.legs[1]).toEqual({
      leg: 'vector',
      rank: 2,
      score: null,
      contribution: 0.4 / 62,
      absent: true,
    });
    // Symmetric positions tie; the tie goes to the best leg rank, then the id.
    expect(out.map((r) => r.id)).toEqual(['x', 'y']);
  });

  it("uses Memsense's k = 15", () => {
    const out = rrf([{ leg: 'r', items: [{ id: 'a', score: 1 }] }], { k: 15 });
    expect(out[0]!.score).toBe(1 / 16);
  });

  it('keeps the first (best) occurrence of a duplicated id within a leg', () => {
    const out = rrf([
      {
        leg: 'v',
        items: [
          { id: 'a', score: 2 },
          { id: 'a', score: 1 },
          { id: 'b', score: 0.5 },
        ],
      },
    ]);
    expect(out.map((r) => [r.id, r.legs[0]!.rank])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('rejects bad input with typed errors', () => {
    expectCode(() => rrf([{ leg: 'v', items: [{ id: 'a', score: NaN }] }]), 'INVALID_INPUT');
    expectCode(() => rrf(mnesticExample, { k: -1 }), 'INVALID_INPUT');
    expectCode(() => rrf(mnesticExample, { k: NaN }), 'INVALID_INPUT');
    expectCode(() => rrf(mnesticExample, { weights: { vec: Infinity } }), 'INVALID_INPUT');
    expectCode(() => rrf([{ leg: '', items: [] }]), 'INVALID_INPUT');
    expectCode(() => rrf([{ leg: 'v', items: [{ id: 3 as never, score: 1 }] }]), 'INVALID_INPUT');
    expectCode(() => rrf(mnesticExample, { absent: 'zero' as never }), 'INVALID_INPUT');
    expectCode(() => rrf('x' as never), 'INVALID_INPUT');
  });

  it('property: per-leg detail reconstructs every fused score exactly, best first', () => {
    const list = fc.record({
      leg: fc.constantFrom('vector', 'fts', 'graph', 'extra'),
      items: fc.array(
        fc.record({
          id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
          score: fc.double({ noNaN: true, noDefaultInfinity: true }),
        }),
        {
          maxLength: 8,
        },
      ),
    });
    fc.assert(
      fc.property(
        fc.array(list, { maxLength: 5 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.constantFrom('skip' as const, 'penalty' as const),
        (lists, k, absent) => {
          const out = rrf(lists, { k, absent, weights: { fts: 0.4, vector: 0.4 } });
          for (const r of out) {
            expect(r.score).toBe(sumContributions(r.legs));
            let s = 0;
            for (const l of r.legs) s += l.contribution;
            expect(s).toBe(r.score);
          }
          for (let i = 1; i < out.length; i++)
            expect(out[i - 1]!.score).toBeGreaterThanOrEqual(out[i]!.score);
          expect(new Set(out.map((r) => r.id)).size).toBe(out.length);
        },
      ),
    );
  });
});
