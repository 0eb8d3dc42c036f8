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
    // mean then normalise = normalise the sum: the count cancels
    out.push(count > 0 ? unitOf(acc) : new Float32Array(dims));
  }
  return out;
}

/**
 * A sum of token vectors (accumulated in float64) at unit length, as float32; a zero sum stays a
 * zero vector instead of NaN.
 */
export function unitOf(sum: Float64Array): Float32Array {
  const dims = sum.length;
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += sum[d]! * sum[d]!;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const v = new Float32Array(dims);
  for (let d = 0; d < dims; d++) v[d] = sum[d]! * inv;
  return v;
}
