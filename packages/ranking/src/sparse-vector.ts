/**
 * Sparse vectors (TF-IDF's, see `tfidf.ts`): `Map`s of term to weight, not plain objects, because
 * identifiers such as `constructor` or `__proto__` are valid terms; their dot product and cosine.
 */
import { AnamnesisError } from '@anamnesis/errors';

/** A sparse vector: term → weight. */
export type SparseVector = ReadonlyMap<string, number>;

function checkVector(v: unknown, what: string): asserts v is SparseVector {
  if (!(v instanceof Map)) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a Map of term to weight`);
  }
  for (const weight of v.values()) {
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      throw new AnamnesisError('INVALID_INPUT', `${what} has a non-finite weight`);
    }
  }
}

/** Dot product of two sparse vectors (over their common terms). */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  checkVector(a, 'a');
  checkVector(b, 'b');
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += weight * other;
  }
  return dot;
}

/**
 * Cosine similarity: the dot product over the common-term intersection divided by the product of
 * the two full-vector norms. 0 when either vector is empty or has norm 0, or no term is shared.
 * @throws AnamnesisError `INVALID_INPUT` when a vector is not a Map or holds a non-finite weight.
 */
export function sparseCosine(a: SparseVector, b: SparseVector): number {
  const dot = sparseDot(a, b);
  if (dot === 0) return 0;
  let na = 0;
  for (const w of a.values()) na += w * w;
  let nb = 0;
  for (const w of b.values()) nb += w * w;
  if (na === 0 || nb === 0) return 0;
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}
