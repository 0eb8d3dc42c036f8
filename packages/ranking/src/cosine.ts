import { AnamnesisError } from '@anamnesis/errors';

/** A dense vector: a plain array or any typed array of numbers. */
export type Vector = ArrayLike<number>;

/**
 * Throws `INVALID_INPUT` unless every element of `v` is a finite number, and `DIMENSION_MISMATCH`
 * when `dims` is given and differs from `v.length`.
 */
export function assertVector(v: unknown, what = 'vector', dims?: number): asserts v is Vector {
  if (
    v === null ||
    typeof v !== 'object' ||
    typeof (v as { length?: unknown }).length !== 'number'
  ) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be an array of numbers`);
  }
  const arr = v as ArrayLike<unknown>;
  if (dims !== undefined && arr.length !== dims) {
    throw new AnamnesisError(
      'DIMENSION_MISMATCH',
      `${what} has ${arr.length} dimensions, expected ${dims}`,
      {
        details: { expected: dims, actual: arr.length },
      },
    );
  }
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `${what}[${i}] is not a finite number: ${String(x)}`,
      );
    }
  }
}

/** Dot product of two vectors of the same length (unchecked: callers validate). */
export function dot(a: Vector, b: Vector): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Euclidean norm of a vector (unchecked). */
export function norm(a: Vector): number {
  return Math.sqrt(dot(a, a));
}

/**
 * Cosine similarity `dot(a, b) / (|a|·|b|)` of seed 000, in [-1, 1]. A zero vector has similarity 0
 * with everything. Rejects non-finite elements (`INVALID_INPUT`) and different lengths
 * (`DIMENSION_MISMATCH`).
 */
export function cosine(a: Vector, b: Vector): number {
  assertVector(a, 'a');
  assertVector(b, 'b', a.length);
  return cosineUnchecked(a, b);
}

/** {@link cosine} without validation, for hot loops over vectors already checked. */
export function cosineUnchecked(a: Vector, b: Vector): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  const denom = Math.sqrt(aa) * Math.sqrt(bb);
  if (denom === 0) return 0;
  const c = ab / denom;
  return c > 1 ? 1 : c < -1 ? -1 : c;
}

/** Returns a unit-length copy of `v` as a Float32Array (a zero vector stays zero). */
export function normalize(v: Vector): Float32Array {
  assertVector(v);
  const out = Float32Array.from(v);
  const n = norm(out);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}
