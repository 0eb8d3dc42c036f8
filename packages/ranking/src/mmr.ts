import { AnamnesisError, assertFinite } from '@anamnesis/errors';
import { assertVector, cosineUnchecked, type Vector } from './cosine.ts';

/** A candidate for {@link mmr}. */
export interface MmrCandidate {
  id: string;
  /** Relevance (the fused score); higher is better. */
  relevance: number;
  /** The candidate's embedding; all candidates must share one dimension. */
  vector: Vector;
  /** Tags, for the tag-Jaccard part of redundancy. */
  tags?: readonly string[];
}

/** Options of {@link mmr}. */
export interface MmrOptions {
  /** Trade-off λ in [0, 1] (clamped): 1 is pure relevance, 0 pure diversity. Default 0.5. */
  lambda?: number;
  /** How many to select; 0 selects all. Default 0. */
  k?: number;
  /**
   * Redundancy at or above which a candidate counts as a duplicate of one already selected and is
   * dropped (Memsense uses 0.94). Default: none.
   */
  duplicateThreshold?: number;
  /** Weight of tag Jaccard in `redundancy = max(cosine, tagWeight · jaccard)`. Default 0.35. */
  tagWeight?: number;
}

/** Jaccard similarity of two tag sets; two empty sets have similarity 0. */
export function tagJaccard(a: readonly string[] = [], b: readonly string[] = []): number {
  if (a.length === 0 || b.length === 0) return 0;
  const sa = new Set(a);
  const sb = new Set(b);
  let inter = 0;
  for (const t of sa) if (sb.has(t)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/**
 * Seed 001's redundancy `max(cosine, tagWeight · Jaccard)`. When the two share no tag the tag term
 * is absent rather than 0, so a negative cosine stays negative (seed 003's true max cosine).
 */
export function redundancy(a: MmrCandidate, b: MmrCandidate, tagWeight = 0.35): number {
  const cos = cosineUnchecked(a.vector, b.vector);
  const jaccard = tagJaccard(a.tags, b.tags);
  return jaccard > 0 ? Math.max(cos, tagWeight * jaccard) : cos;
}

/**
 * Maximal Marginal Relevance: greedily selects `argmax λ·relevance − (1−λ)·max_redundancy`, where
 * redundancy to the already selected set is seed 001's `max(cosine, tagWeight · tag Jaccard)`. The
 * true maximum cosine is used (seed 003), so an anti-correlated candidate earns diversity credit;
 * before anything is selected the redundancy term is 0. Ties go to the earlier candidate.
 *
 * Returns `{ id, rank }` (1-based) in selection order: distinct ids, `min(k, n)` of them unless
 * duplicates were dropped. Rejects non-finite relevance or vectors and mixed dimensions.
 */
export function mmr(
  candidates: readonly MmrCandidate[],
  options: MmrOptions = {},
): { id: string; rank: number }[] {
  if (!Array.isArray(candidates))
    throw new AnamnesisError('INVALID_INPUT', 'candidates must be an array');
  const lambdaIn = options.lambda ?? 0.5;
  assertFinite(lambdaIn, 'lambda');
  const lambda = Math.min(1, Math.max(0, lambdaIn));
  const kIn = options.k ?? 0;
  if (!Number.isInteger(kIn) || kIn < 0) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `k must be a non-negative integer, got ${String(kIn)}`,
    );
  }
  const tagWeight = options.tagWeight ?? 0.35;
  assertFinite(tagWeight, 'tagWeight');
  const dup = options.duplicateThreshold;
  if (dup !== undefined) assertFinite(dup, 'duplicateThreshold');

  const n = candidates.length;
  const dims = n > 0 ? candidates[0]!.vector?.length : 0;
  const seen = new Set<string>();
  for (const c of candidates) {
    if (typeof c?.id !== 'string')
      throw new AnamnesisError('INVALID_INPUT', 'candidate id must be a string');
    if (seen.has(c.id)) throw new AnamnesisError('INVALID_INPUT', `duplicate candidate id ${c.id}`);
    seen.add(c.id);
    assertFinite(c.relevance, `relevance of ${c.id}`);
    assertVector(c.vector, `vector of ${c.id}`, dims);
  }

  const k = kIn === 0 ? n : Math.min(kIn, n);
  const maxRed = new Float64Array(n).fill(-Infinity);
  const taken = new Uint8Array(n);
  const out: { id: string; rank: number }[] = [];
  while (out.length < k) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue;
      const red = out.length === 0 ? 0 : maxRed[i]!;
      const s = lambda * candidates[i]!.relevance - (1 - lambda) * red;
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    if (best < 0) break;
    taken[best] = 1;
    const chosen = candidates[best]!;
    out.push({ id: chosen.id, rank: out.length + 1 });
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue;
      const c = candidates[i]!;
      const red = redundancy(c, chosen, tagWeight);
      if (red > maxRed[i]!) maxRed[i] = red;
      if (dup !== undefined && red >= dup) taken[i] = 1;
    }
  }
  return out;
}
