import { AnamnesisError } from '@anamnesis/errors';

/** One named component of a linear score. */
export interface Contribution {
  /** Component name, e.g. `'vector'`, `'fts'`, `'importance'`, `'recency'`. */
  component: string;
  /** The component's input value (after normalisation). */
  value: number;
  /** Its weight; `contribution = weight · value` for additive components. */
  weight: number;
  /** What the component adds to the score. */
  contribution: number;
}

/**
 * A fixed-weight linear fusion `Σ weight_i · value_i` (seed 000's `0.5·vector + 0.3·fts +
 * 0.2·importance`, seed 004's four factors). Returns the contributions in input order and their
 * left-to-right sum as the score, so the two always agree exactly.
 */
export function weightedSum(
  components: readonly { component: string; value: number; weight: number }[],
): { score: number; contributions: Contribution[] } {
  const contributions: Contribution[] = [];
  let score = 0;
  for (const c of components) {
    if (typeof c.value !== 'number' || !Number.isFinite(c.value)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `${c.component} must be a finite number, got ${String(c.value)}`,
      );
    }
    if (typeof c.weight !== 'number' || !Number.isFinite(c.weight)) {
      throw new AnamnesisError('INVALID_INPUT', `weight of ${c.component} must be finite`);
    }
    const contribution = c.weight * c.value;
    contributions.push({ component: c.component, value: c.value, weight: c.weight, contribution });
    score += contribution;
  }
  return { score, contributions };
}

/** Seed 000's fixed weights: vector 0.5, FTS 0.3, importance 0.2. */
export const MNEMOSYNE_WEIGHTS = Object.freeze({ vector: 0.5, fts: 0.3, importance: 0.2 });

/**
 * Seed 000's base score `0.5·vector + 0.3·fts + 0.2·importance`, before the recency multiplier.
 * `vector` is the cosine, `fts` the normalised BM25 (0 when the FTS leg missed), `importance` in
 * [0, 1].
 */
export function mnemosyneBaseScore(input: { vector: number; fts: number; importance: number }): {
  score: number;
  contributions: Contribution[];
} {
  return weightedSum([
    { component: 'vector', value: input.vector, weight: MNEMOSYNE_WEIGHTS.vector },
    { component: 'fts', value: input.fts, weight: MNEMOSYNE_WEIGHTS.fts },
    { component: 'importance', value: input.importance, weight: MNEMOSYNE_WEIGHTS.importance },
  ]);
}
