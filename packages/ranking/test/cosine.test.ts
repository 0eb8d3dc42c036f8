import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cosine, normalize } from '../src/cosine.ts';
import { normalizeBm25 } from '../src/bm25.ts';
import { expectCode } from './helpers.ts';

describe('cosine (seed 000)', () => {
  it('computes dot / (|a|·|b|)', () => {
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
    expect(cosine([1, 2, 3], [4, 5, 6])).toBeCloseTo(32 / Math.sqrt(14 * 77), 12);
    expect(cosine(new Float32Array([3, 4]), [6, 8])).toBeCloseTo(1, 6);
  });
  it('gives 0 for a zero vector', () => {
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
  it('rejects NaN, Infinity and mismatched dimensions with typed errors', () => {
    expectCode(() => cosine([NaN, 1], [1, 1]), 'INVALID_INPUT');
    expectCode(() => cosine([1, 1], [Infinity, 1]), 'INVALID_INPUT');
    expectCode(() => cosine([1, 2, 3], [1, 2]), 'DIMENSION_MISMATCH');
    expectCode(() => cosine(null as never, [1]), 'INVALID_INPUT');
  });
  it('stays within [-1, 1] and is symmetric', () => {
    const vec = fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), {
      minLength: 3,
      maxLength: 3,
    });
    fc.assert(
      fc.property(vec, vec, (a, b) => {
        const c = cosine(a, b);
        expect(c).toBeGreaterThanOrEqual(-1);
        expect(c).toBeLessThanOrEqual(1);
        expect(c).toBe(cosine(b, a));
      }),
    );
  });
  it('normalize gives unit length', () => {
    const n = normalize([3, 4]);
    expect(n[0]).toBeCloseTo(0.6, 6);
    expect(n[1]).toBeCloseTo(0.8, 6);
  });
});

describe('normalizeBm25 (seed 002)', () => {
  it('maps abs(raw)/max(abs(raw)), best = 1', () => {
    expect(normalizeBm25([-8, -4, -2])).toEqual([1, 0.5, 0.25]);
    expect(normalizeBm25([])).toEqual([]);
    expect(normalizeBm25([0, 0])).toEqual([0, 0]);
  });
  it('rejects non-finite scores', () => {
    expectCode(() => normalizeBm25([-1, NaN]), 'INVALID_INPUT');
  });
});
