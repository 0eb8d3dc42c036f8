/**
 * Mean pooling over the attention mask, then unit length: the same result as transformers.js's
 * `{ pooling: 'mean', normalize: true }`, in one pass over the hidden states without intermediate
 * tensors. A text whose tokens all pool to zero (unknown words only) stays a zero vector instead of
 * NaN.
 *
 * @param hidden last_hidden_state, `[batch, seq, dims]` row-major
 * @param mask attention mask, `[batch, seq]` (1 for real tokens)
 */
export function meanPoolNormalize(
  hidden: Float32Array,
  mask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
  dims: number,
): Float32Array[] {
  const out: Float32Array[] = [];
  const acc = new Float64Array(dims);
  for (let b = 0; b < batch; b++) {
    acc.fill(0);
    let count = 0;
    for (let t = 0; t < seq; t++) {
      if (Number(mask[b * seq + t]) === 0) continue;
      count++;
      const off = (b * seq + t) * dims;
      for (let d = 0; d < dims; d++) acc[d]! += hidden[off + d]!;
    }
    const v = new Float32Array(dims);
    if (count > 0) {
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += acc[d]! * acc[d]!;
      // mean then normalise = normalise the sum: the count cancels
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let d = 0; d < dims; d++) v[d] = acc[d]! * inv;
    }
    out.push(v);
  }
  return out;
}
