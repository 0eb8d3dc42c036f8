import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { recencyMultiplier, usageDecay, usageScore, halfLifeDecay } from '../src/decay.ts';
import { expectCode } from './helpers.ts';

describe('recency multiplier (seed 000)', () => {
  it('is 1.0 for a fresh memory and tends to 0.7 for an old one', () => {
    expect(recencyMultiplier(0, 24)).toBe(1);
    expect(recencyMultiplier(24 * 1000, 24)).toBeCloseTo(0.7, 12);
    expect(recencyMultiplier(24, 24)).toBeCloseTo(0.7 + 0.3 * Math.exp(-1), 12);
  });
  it('stays within [0.7, 1.0] and decreases with age', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0.01, max: 1e4, noNaN: true }),
        (age, hl) => {
          const m = recencyMultiplier(age, hl);
          expect(m).toBeGreaterThanOrEqual(0.7);
          expect(m).toBeLessThanOrEqual(1);
          expect(recencyMultiplier(age + 1, hl)).toBeLessThanOrEqual(m);
        },
      ),
    );
  });
  it('treats a future timestamp as age 0 and rejects bad input', () => {
    expect(recencyMultiplier(-5, 10)).toBe(1);
    expectCode(() => recencyMultiplier(NaN, 10), 'INVALID_INPUT');
    expectCode(() => recencyMultiplier(1, 0), 'INVALID_INPUT');
    expectCode(() => recencyMultiplier(1, -3), 'INVALID_INPUT');
  });
});

describe('usage decay (seed 002)', () => {
  it("reproduces the seed's table at 0, 7, 14 and 28 days", () => {
    expect(usageDecay([0])).toBe(1);
    expect(usageDecay([7])).toBe(0.5);
    expect(usageDecay([14])).toBe(0.25);
    expect(Number(usageDecay([28]).toFixed(3))).toBe(0.063);
  });
  it('sums events', () => {
    expect(usageDecay([0, 7, 14])).toBe(1.75);
    expect(usageDecay([])).toBe(0);
    expect(halfLifeDecay(3, 3)).toBe(0.5);
  });
  it('counts only selected and used events', () => {
    expect(
      usageScore([
        { event: 'selected', ageDays: 0 },
        { event: 'used', ageDays: 7 },
        { event: 'retrieved', ageDays: 0 },
        { event: 'discarded', ageDays: 0 },
      ]),
    ).toBe(1.5);
  });
  it('rejects NaN ages', () => {
    expectCode(() => usageDecay([NaN]), 'INVALID_INPUT');
    expectCode(() => usageDecay('x' as never), 'INVALID_INPUT');
  });
});
