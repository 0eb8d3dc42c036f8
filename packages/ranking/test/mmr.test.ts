import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mmr, tagJaccard, type MmrCandidate } from '../src/mmr.ts';
import { expectCode } from './helpers.ts';

describe('mmr', () => {
  const near: MmrCandidate[] = [
    { id: 'a', relevance: 1.0, vector: [1, 0, 0] },
    { id: 'a2', relevance: 0.95, vector: [0.99, 0.01, 0] },
    { id: 'b', relevance: 0.8, vector: [0, 1, 0] },
  ];

  it('with λ = 1 keeps relevance order', () => {
    expect(mmr(near, { lambda: 1 }).map((r) => r.id)).toEqual(['a', 'a2', 'b']);
  });
  it('with λ = 0.5 prefers a diverse second pick over a near duplicate', () => {
    expect(mmr(near, { lambda: 0.5 })).toEqual([
      { id: 'a', rank: 1 },
      { id: 'b', rank: 2 },
      { id: 'a2', rank: 3 },
    ]);
  });
  it('drops candidates at or above the duplicate threshold (Memsense 0.94)', () => {
    expect(mmr(near, { lambda: 0.78, duplicateThreshold: 0.94 }).map((r) => r.id)).toEqual([
      'a',
      'b',
    ]);
  });
  it('uses the true max cosine: an anti-correlated candidate earns diversity credit', () => {
    const c: MmrCandidate[] = [
      { id: 'q', relevance: 1, vector: [1, 0] },
      { id: 'orth', relevance: 0.6, vector: [0, 1] },
      { id: 'anti', relevance: 0.5, vector: [-1, 0] },
    ];
    // anti: 0.5·0.5 − 0.5·(−1) = 0.75 beats orth: 0.5·0.6 − 0 = 0.3
    expect(mmr(c, { lambda: 0.5 }).map((r) => r.id)).toEqual(['q', 'anti', 'orth']);
  });
  it('counts tag overlap as redundancy: max(cosine, 0.35 · Jaccard)', () => {
    expect(tagJaccard(['x', 'y'], ['y', 'z'])).toBeCloseTo(1 / 3, 12);
    expect(tagJaccard([], ['y'])).toBe(0);
    const c: MmrCandidate[] = [
      { id: 'a', relevance: 1, vector: [1, 0], tags: ['t'] },
      { id: 'same-tag', relevance: 0.5, vector: [0, 1], tags: ['t'] },
      { id: 'other', relevance: 0.45, vector: [0, 1], tags: ['u'] },
    ];
    // same-tag: 0.25 − 0.5·0.35 = 0.075; other: 0.225 − 0 = 0.225
    expect(mmr(c, { lambda: 0.5 })[1]!.id).toBe('other');
    expect(mmr(c, { lambda: 0.5, tagWeight: 0 })[1]!.id).toBe('same-tag');
  });
  it('selects k and rejects bad input', () => {
    expect(mmr(near, { k: 2 })).toHaveLength(2);
    expect(mmr([], {})).toEqual([]);
    expectCode(() => mmr([{ id: 'a', relevance: NaN, vector: [1] }]), 'INVALID_INPUT');
    expectCode(() => mmr([{ id: 'a', relevance: 1, vector: [NaN] }]), 'INVALID_INPUT');
    expectCode(
      () =>
        mmr([
          { id: 'a', relevance: 1, vector: [1, 0] },
          { id: 'b', relevance: 1, vector: [1, 0, 0] },
        ]),
      'DIMENSION_MISMATCH',
    );
    expectCode(() => mmr(near, { lambda: NaN }), 'INVALID_INPUT');
    expectCode(() => mmr(near, { k: -1 }), 'INVALID_INPUT');
    expectCode(() => mmr([near[0]!, near[0]!]), 'INVALID_INPUT');
  });
  it('property: returns a permutation of a prefix of size min(k, n), ranks 1..m', () => {
    const cand = fc.uniqueArray(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 3 }),
        relevance: fc.double({ min: -10, max: 10, noNaN: true }),
        vector: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
          minLength: 4,
          maxLength: 4,
        }),
        tags: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
      }),
      { selector: (c) => c.id, maxLength: 12 },
    );
    fc.assert(
      fc.property(
        cand,
        fc.double({ min: -1, max: 2, noNaN: true }),
        fc.nat({ max: 15 }),
        (cs, lambda, k) => {
          const out = mmr(cs, { lambda, k });
          expect(out).toHaveLength(k === 0 ? cs.length : Math.min(k, cs.length));
          expect(new Set(out.map((o) => o.id)).size).toBe(out.length);
          const ids = new Set(cs.map((c) => c.id));
          out.forEach((o, i) => {
            expect(ids.has(o.id)).toBe(true);
            expect(o.rank).toBe(i + 1);
          });
          // a prefix: a smaller k selects the same leading items
          if (out.length > 1)
            expect(mmr(cs, { lambda, k: out.length - 1 })).toEqual(out.slice(0, -1));
        },
      ),
    );
  });
});
