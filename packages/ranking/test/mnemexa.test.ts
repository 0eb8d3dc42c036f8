import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { frequencyFactor, mnemexaScore, mnemexaWeights, similarityFactor } from '../src/mnemexa.ts';
import { mnemosyneBaseScore } from '../src/weighted-sum.ts';
import { expectCode } from './helpers.ts';

describe('mnemexa (seed 004)', () => {
  const first = { similarity: 0.7, recency: 0.95, importance: 0.6, frequency: 0.8 };
  const second = { similarity: 0.8, recency: 0.3, importance: 0.3, frequency: 0 };

  it("follows the formula, not the seed's table (0.745 and 0.545, not 0.768 and 0.554)", () => {
    expect(mnemexaScore(first).score).toBeCloseTo(0.745, 12);
    expect(mnemexaScore(second).score).toBeCloseTo(0.545, 12);
  });
  it("keeps the table's order: the fresher, used memory wins despite lower cosine", () => {
    expect(mnemexaScore(first).score).toBeGreaterThan(mnemexaScore(second).score);
  });
  it('contributions add up to the score exactly', () => {
    const r = mnemexaScore(first);
    expect(r.contributions.map((c) => c.component)).toEqual([
      'similarity',
      'recency',
      'importance',
      'frequency',
    ]);
    expect(r.contributions.reduce((s, c) => s + c.contribution, 0)).toBe(r.score);
  });
  it('recency modes move 0.08 between similarity and recency, weights still sum to 1', () => {
    for (const mode of ['boost', 'dampen', 'neutral'] as const) {
      const w = mnemexaWeights(mode);
      expect(w.similarity + w.recency + w.importance + w.frequency).toBeCloseTo(1, 12);
    }
    expect(mnemexaWeights('boost').recency).toBeCloseTo(0.28, 12);
    expect(mnemexaWeights('dampen').recency).toBeCloseTo(0.12, 12);
    expect(mnemexaScore(first, { recencyMode: 'boost' }).score).toBeGreaterThan(
      mnemexaScore(first).score,
    );
    expectCode(() => mnemexaWeights('loud' as never), 'INVALID_INPUT');
  });
  it('property: score stays in [0, 1] for factors in [0, 1], in every mode', () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        unit,
        unit,
        unit,
        unit,
        fc.constantFrom('boost', 'dampen', 'neutral' as const),
        (s, r, i, f, mode) => {
          const { score } = mnemexaScore(
            { similarity: s, recency: r, importance: i, frequency: f },
            { recencyMode: mode as 'boost' },
          );
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1 + 1e-12);
        },
      ),
    );
  });
  it('rejects factors outside [0, 1] and NaN', () => {
    expectCode(() => mnemexaScore({ ...first, similarity: 1.2 }), 'INVALID_INPUT');
    expectCode(() => mnemexaScore({ ...first, frequency: NaN }), 'INVALID_INPUT');
    expectCode(() => mnemexaScore(undefined as never), 'INVALID_INPUT');
  });
  it('normalises frequency (12 retrievals → 0.80) and similarity', () => {
    expect(frequencyFactor(12)).toBe(0.8);
    expect(frequencyFactor(0)).toBe(0);
    expect(similarityFactor(-0.4)).toBe(0);
    expect(similarityFactor(0.5)).toBe(0.5);
    expectCode(() => frequencyFactor(-1), 'INVALID_INPUT');
  });
});

describe('mnemosyne base score (seed 000)', () => {
  it('weights 0.5 / 0.3 / 0.2', () => {
    const r = mnemosyneBaseScore({ vector: 0.8, fts: 0.5, importance: 1 });
    expect(r.score).toBeCloseTo(0.4 + 0.15 + 0.2, 12);
    expect(r.contributions.map((c) => c.weight)).toEqual([0.5, 0.3, 0.2]);
    expectCode(() => mnemosyneBaseScore({ vector: NaN, fts: 0, importance: 0 }), 'INVALID_INPUT');
  });
});
