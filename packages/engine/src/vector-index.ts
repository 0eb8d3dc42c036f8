import { AnamnesisError, assertVector } from '@anamnesis/ranking';

/** A unit-length float32 copy of `v` (a zero vector stays zero), computed as the index stores rows. */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * inv);
}

/** A hit of {@link VectorIndex.search}: the memory's row id and its cosine with the query. */
export interface VectorHit {
  rid: number;
  score: number;
}

/**
 * Exact cosine search over an in-memory matrix of unit-length float32 rows, one per memory.
 * Rows are kept contiguous (a removed row is filled by the last one), so a query is one linear scan
 * with a bounded min-heap for the top k.
 */
export class VectorIndex {
  readonly dims: number;
  #data: Float32Array;
  #rids: Int32Array;
  #rowOf = new Map<number, number>();
  #count = 0;

  constructor(dims: number, initialCapacity = 1024) {
    if (!Number.isInteger(dims) || dims < 1)
      throw new AnamnesisError('INVALID_INPUT', 'dims must be a positive integer');
    this.dims = dims;
    this.#data = new Float32Array(dims * initialCapacity);
    this.#rids = new Int32Array(initialCapacity);
  }

  /** Number of vectors held. */
  get size(): number {
    return this.#count;
  }

  /** Bytes used by the matrix buffers. */
  get bytes(): number {
    return this.#data.byteLength + this.#rids.byteLength;
  }

  has(rid: number): boolean {
    return this.#rowOf.has(rid);
  }

  #ensure(capacity: number): void {
    if (capacity * this.dims <= this.#data.length) return;
    let cap = this.#rids.length;
    while (cap < capacity) cap *= 2;
    const data = new Float32Array(cap * this.dims);
    data.set(this.#data.subarray(0, this.#count * this.dims));
    const rids = new Int32Array(cap);
    rids.set(this.#rids.subarray(0, this.#count));
    this.#data = data;
    this.#rids = rids;
  }

  /** Adds or replaces the vector of `rid`, normalised to unit length. */
  set(rid: number, vector: ArrayLike<number>): void {
    assertVector(vector, 'vector', this.dims);
    let row = this.#rowOf.get(rid);
    if (row === undefined) {
      this.#ensure(this.#count + 1);
      row = this.#count++;
      this.#rowOf.set(rid, row);
      this.#rids[row] = rid;
    }
    this.#data.set(unitVector(vector), row * this.dims);
  }

  /**
   * Appends rows in bulk from raw little-endian float32 bytes (as stored in SQLite), already unit
   * length. Used at open: no per-row validation beyond the byte length.
   */
  appendRaw(rid: number, bytes: Uint8Array): void {
    if (bytes.byteLength !== this.dims * 4) {
      throw new AnamnesisError(
        'DIMENSION_MISMATCH',
        `stored vector of row ${rid} has ${bytes.byteLength / 4} dimensions, expected ${this.dims}`,
      );
    }
    if (this.#rowOf.has(rid)) return;
    this.#ensure(this.#count + 1);
    const row = this.#count++;
    this.#rowOf.set(rid, row);
    this.#rids[row] = rid;
    new Uint8Array(this.#data.buffer, row * this.dims * 4, this.dims * 4).set(bytes);
  }

  /** Removes the vector of `rid` (no-op if absent). */
  delete(rid: number): void {
    const row = this.#rowOf.get(rid);
    if (row === undefined) return;
    const last = this.#count - 1;
    if (row !== last) {
      const lastRid = this.#rids[last]!;
      this.#data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.#rids[row] = lastRid;
      this.#rowOf.set(lastRid, row);
    }
    this.#rowOf.delete(rid);
    this.#count = last;
  }

  clear(): void {
    this.#rowOf.clear();
    this.#count = 0;
  }

  /** A copy of the stored (unit) vector of `rid`, or undefined. */
  get(rid: number): Float32Array | undefined {
    const row = this.#rowOf.get(rid);
    if (row === undefined) return undefined;
    return this.#data.slice(row * this.dims, (row + 1) * this.dims);
  }

  /** The stored vector as raw bytes, for persistence. */
  static toBytes(vector: Float32Array): Uint8Array {
    return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  }

  /** Cosine of `rid` with a unit query (0 when `rid` has no vector). */
  similarity(rid: number, query: Float32Array): number {
    const row = this.#rowOf.get(rid);
    return row === undefined ? 0 : this.#dot(row, query);
  }

  /** Dot product of a row with a query, four lanes at a time. */
  #dot(row: number, query: Float32Array): number {
    const data = this.#data;
    const dims = this.dims;
    const off = row * dims;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dims; i += 4) {
      s0 += data[off + i]! * query[i]!;
      s1 += data[off + i + 1]! * query[i + 1]!;
      s2 += data[off + i + 2]! * query[i + 2]!;
      s3 += data[off + i + 3]! * query[i + 3]!;
    }
    for (; i < dims; i++) s0 += data[off + i]! * query[i]!;
    return s0 + s1 + s2 + s3;
  }

  /**
   * The k rows most similar to a unit-length `query`, best first (ties by rid). When `allowed` is
   * given only those rids are considered.
   */
  search(query: Float32Array, k: number, allowed?: ReadonlySet<number>): VectorHit[] {
    if (query.length !== this.dims) {
      throw new AnamnesisError(
        'DIMENSION_MISMATCH',
        `query has ${query.length} dimensions, expected ${this.dims}`,
      );
    }
    if (k <= 0 || this.#count === 0) return [];
    const rids = this.#rids;
    // Bounded min-heap of (score, rid) on parallel arrays.
    const hs = new Float64Array(k);
    const hr = new Int32Array(k);
    let size = 0;
    const worse = (i: number, j: number) => hs[i]! < hs[j]! || (hs[i] === hs[j] && hr[i]! > hr[j]!);
    const swap = (i: number, j: number) => {
      const s = hs[i]!;
      hs[i] = hs[j]!;
      hs[j] = s;
      const r = hr[i]!;
      hr[i] = hr[j]!;
      hr[j] = r;
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && worse(l, m)) m = l;
        if (r < size && worse(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    for (let row = 0; row < this.#count; row++) {
      const rid = rids[row]!;
      if (allowed && !allowed.has(rid)) continue;
      const s = this.#dot(row, query);
      if (size < k) {
        hs[size] = s;
        hr[size] = rid;
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (!worse(c, p)) break;
          swap(c, p);
          c = p;
        }
      } else if (s > hs[0]! || (s === hs[0] && rid < hr[0]!)) {
        hs[0] = s;
        hr[0] = rid;
        down(0);
      }
    }
    const out: VectorHit[] = [];
    for (let i = 0; i < size; i++) out.push({ rid: hr[i]!, score: hs[i]! });
    return out.sort((a, b) => b.score - a.score || a.rid - b.rid);
  }
}
