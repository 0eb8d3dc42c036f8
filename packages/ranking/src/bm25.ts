import { AnamnesisError } from '@anamnesis/errors';

/**
 * BM25 magnitude normalisation of seed 002: FTS5's `bm25()` is negative (lower is better), so each
 * raw score becomes `abs(raw) / max(abs(raw))`, in [0, 1] with the best result at 1. An empty list
 * gives an empty list; all-zero scores give zeros. Non-finite scores are rejected.
 */
export function normalizeBm25(raw: readonly number[]): number[] {
  let max = 0;
  for (const r of raw) {
    if (typeof r !== 'number' || !Number.isFinite(r)) {
      throw new AnamnesisError('INVALID_INPUT', `bm25 score must be finite, got ${String(r)}`);
    }
    max = Math.max(max, Math.abs(r));
  }
  return raw.map((r) => (max === 0 ? 0 : Math.abs(r) / max));
}
