import { describe, expect, it } from 'vitest';
import { cosineScale, meaningStrength, timedMatch } from '../src/recall/match.ts';

/**
 * Match strength on small and large stores (issue 66): meaning counts from what the best of the
 * store's memories reaches by chance, `√(2 ln N)` standard deviations above the store's mean, so a
 * paraphrase that stands out in a store of fifteen notes is not hidden as weak, and the best of a
 * hundred thousand unrelated memories is not taken for an answer.
 */
describe('meaning strength', () => {
  /** A sample of 256 cosines with mean 0.2 and standard deviation 0.1 (±0.1 alternating). */
  const sample = Array.from({ length: 256 }, (_, i) => (i % 2 === 0 ? 0.3 : 0.1));
  const at = (z: number) => 0.2 + 0.1 * z;

  it('in a store of 15 notes, a cosine three standard deviations up is a match, not weak', () => {
    const scale = cosineScale(sample, 15);
    expect(scale.chance).toBeCloseTo(Math.sqrt(2 * Math.log(15)), 10);
    expect(meaningStrength(at(3), scale)).toBeGreaterThanOrEqual(0.3);
    // at the chance level itself: nothing
    expect(meaningStrength(at(scale.chance), scale)).toBeCloseTo(0, 10);
  });

  it('in a store of 100,000, the same cosine is what chance gives its best memory: no match', () => {
    const scale = cosineScale(sample, 100_000);
    expect(meaningStrength(at(3), scale)).toBe(0);
    expect(meaningStrength(at(4.5), scale)).toBe(0);
    // well above chance it counts, and fully from two standard deviations above
    expect(meaningStrength(at(scale.chance + 1), scale)).toBeCloseTo(0.5, 10);
    expect(meaningStrength(at(scale.chance + 2), scale)).toBe(1);
  });

  it('no vector is no meaning', () => {
    expect(meaningStrength(0, cosineScale(sample, 15))).toBe(0);
  });
});

describe('a match with a time', () => {
  it('made then and on the topic: whole; made then on another topic: weak; made at another time: weak', () => {
    expect(timedMatch(1, true, 2, 3)).toBe(1);
    expect(timedMatch(0, true, 2, 3)).toBe(0);
    expect(timedMatch(0.05, true, 2, 3)).toBeLessThan(0.3);
    expect(timedMatch(1, false, 2, 3)).toBeLessThan(0.3);
    expect(timedMatch(1, false, 2, 3)).toBeGreaterThan(0.29);
  });

  it('a query of nothing but a time is answered by every memory made then', () => {
    expect(timedMatch(0, true, 0, 3)).toBe(1);
    expect(timedMatch(0, false, 0, 3)).toBe(0);
  });
});
