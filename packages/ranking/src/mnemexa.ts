import { AnamnesisError, assertInRange } from '@anamnesis/errors';
import { weightedSum, type Contribution } from './weighted-sum.ts';

/**
 * Seed 004's recency modes. The seed moves the recency weight by ±0.08; to keep the weights summing
 * to 1 (so the score stays in [0, 1]) the 0.08 is taken from, or given back to, similarity, the
 * dominant factor: boost = 0.47 / 0.28, dampen = 0.63 / 0.12 (similarity / recency), importance and
 * frequency unchanged.
 */
export type RecencyMode = 'boost' | 'dampen' | 'neutral';

/** Seed 004's neutral weights. */
export const MNEMEXA_WEIGHTS = Object.freeze({
  similarity: 0.55,
  recency: 0.2,
  importance: 0.15,
  frequency: 0.1,
});

/** The recency weight shift of a non-neutral mode (seed 004). */
export const MNEMEXA_RECENCY_SHIFT = 0.08;

/** Seed 004's default floor on cosine similarity before re-ranking. */
export const MNEMEXA_MIN_SIMILARITY = 0.35;

/** The four weights for a recency mode (see {@link RecencyMode}). */
export function mnemexaWeights(
  mode: RecencyMode = 'neutral',
): Record<keyof typeof MNEMEXA_WEIGHTS, number> {
  const shift =
    mode === 'boost'
      ? MNEMEXA_RECENCY_SHIFT
      : mode === 'dampen'
        ? -MNEMEXA_RECENCY_SHIFT
        : mode === 'neutral'
          ? 0
          : NaN;
  if (Number.isNaN(shift)) {
    throw new AnamnesisError('INVALID_INPUT', "recencyMode must be 'boost', 'dampen' or 'neutral'");
  }
  return {
    similarity: MNEMEXA_WEIGHTS.similarity - shift,
    recency: MNEMEXA_WEIGHTS.recency + shift,
    importance: MNEMEXA_WEIGHTS.importance,
    frequency: MNEMEXA_WEIGHTS.frequency,
  };
}

/**
 * Seed 004's score `0.55·similarity + 0.20·recency + 0.15·importance + 0.10·frequency`, each factor
 * in [0, 1] (out-of-range or non-finite input is rejected), so the score is in [0, 1].
 *
 * The seed's worked table (0.768 and 0.554) does not follow from its own formula: the formula gives
 * 0.745 and 0.545. The formula is the specification; the table's order (the first memory wins)
 * holds either way.
 */
export function mnemexaScore(
  factors: { similarity: number; recency: number; importance: number; frequency: number },
  options: { recencyMode?: RecencyMode } = {},
): { score: number; contributions: Contribution[] } {
  const w = mnemexaWeights(options.recencyMode ?? 'neutral');
  for (const key of ['similarity', 'recency', 'importance', 'frequency'] as const) {
    assertInRange(factors?.[key], 0, 1, key);
  }
  return weightedSum([
    { component: 'similarity', value: factors.similarity, weight: w.similarity },
    { component: 'recency', value: factors.recency, weight: w.recency },
    { component: 'importance', value: factors.importance, weight: w.importance },
    { component: 'frequency', value: factors.frequency, weight: w.frequency },
  ]);
}

/**
 * Normalises a retrieval count to [0, 1] as `count / (count + saturation)`. With the default
 * saturation 3, 12 retrievals give 0.80, matching seed 004's example row.
 *
 * @param count how often the memory was retrieved (≥ 0)
 * @param saturation the count that maps to 0.5; default 3
 */
export function frequencyFactor(count: number, saturation = 3): number {
  assertInRange(count, 0, Number.MAX_VALUE, 'count');
  assertInRange(saturation, Number.MIN_VALUE, Number.MAX_VALUE, 'saturation');
  return count / (count + saturation);
}

/** Maps a cosine in [-1, 1] to seed 004's similarity factor in [0, 1] (negatives become 0). */
export function similarityFactor(cosine: number): number {
  assertInRange(cosine, -1 - 1e-6, 1 + 1e-6, 'cosine');
  return Math.min(1, Math.max(0, cosine));
}
