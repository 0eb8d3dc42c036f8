import { describe, expect, it } from 'vitest';

import { bootstrapMean, formatInterval, pairedBootstrap } from '../src/bootstrap.ts';

describe('bootstrap intervals', () => {
  const hits = Array.from({ length: 100 }, (_, i) => (i < 60 ? 1 : 0)); // mean 0.6

  it('brackets the mean, about ±2 standard errors wide', () => {
    const { low, high } = bootstrapMean(hits);
    expect(low).toBeLessThan(0.6);
    expect(high).toBeGreaterThan(0.6);
    // standard error sqrt(0.6 · 0.4 / 100) ≈ 0.049: the 95% interval is about ±0.096
    expect(high - low).toBeGreaterThan(0.15);
    expect(high - low).toBeLessThan(0.24);
  });

  it('is the same on every run (fixed seed) and changes with the seed', () => {
    expect(bootstrapMean(hits)).toEqual(bootstrapMean(hits));
    expect(bootstrapMean(hits, { seed: 7 })).not.toEqual(bootstrapMean(hits));
  });

  it('is a point when every question scores the same', () => {
    expect(bootstrapMean([0.5, 0.5, 0.5])).toEqual({ low: 0.5, high: 0.5 });
  });

  it('pairs the questions: a constant difference has a zero-width interval', () => {
    const a = hits.map((x) => x * 0.5 + 0.5);
    const b = hits.map((x) => x * 0.5 + 0.4);
    const d = pairedBootstrap(a, b);
    expect(d.low).toBeCloseTo(0.1, 10);
    expect(d.high).toBeCloseTo(0.1, 10);
  });

  it('straddles zero when two rankers win as often as they lose', () => {
    const a = hits;
    const b = hits.map((x, i) => (i % 2 === 0 ? x : 1 - x));
    const d = pairedBootstrap(a, b);
    expect(d.low).toBeLessThan(0);
    expect(d.high).toBeGreaterThan(0);
  });

  it('refuses unpaired lists and formats signed intervals', () => {
    expect(() => pairedBootstrap([1], [1, 0])).toThrow(RangeError);
    expect(formatInterval({ low: -0.01, high: 0.2 }, true)).toBe('[-0.010, +0.200]');
    expect(formatInterval({ low: 0.25, high: 0.5 })).toBe('[0.250, 0.500]');
  });
});
