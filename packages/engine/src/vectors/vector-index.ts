import { AnamnesisError } from '@anamnesis/errors';
import { assertVector } from '@anamnesis/ranking';
import { Int8Rows, type QuantizedRows } from './int8-rows.ts';
import { RowTable } from './row-table.ts';
import { scanKernel } from './scan-kernel.ts';

/** Default of {@link VectorIndexOptions.quantizedFrom}: below it the float32 scan is as fast. */
const QUANTIZED_FROM = 4096;

/**
 * A full index grows by a quarter (at least 64 rows), not by doubling: its rows live in
 * WebAssembly memory, which never shrinks, so what is reserved ahead is at most a quarter of what
 * is held (about 130 bytes a memory at 100 dimensions, against up to 530 when doubling). Each
 * growth copies the rows held, so a row is copied about four times over a long run of single adds
 * (once when doubling): memory bandwidth, some tens of ms over a million rows.
 */
function grownCapacity(capacity: number): number {
  return Math.max(capacity + 64, Math.ceil(capacity * 1.25));
}

/**
 * A search restricted to fewer than one rid in this many rows scores those rows one kernel call
 * each rather than scanning the whole index (a call per row costs about as much as this many rows
 * of the scan and its selection).
 */
const FEW_ROWS = 8;

/** The bytes of a row its source did not find (a zero row stands in). */
const NO_BYTES = new Uint8Array(0);

/** Options of {@link VectorIndex}. */
export interface VectorIndexOptions {
  /** `false` forces the JavaScript kernel (and no int8 copy). Default: SIMD when available. */
  simd?: boolean;
  /**
   * Rows from which `search` scans an int8 copy of the matrix first and re-scores exactly only
   * the rows that could reach the top k (the result is the exact one). Default 4,096; `Infinity`
   * keeps no int8 copy (a quarter more memory for the matrix otherwise).
   */
  quantizedFrom?: number;
}

/** A unit-length float32 copy of `v` (a zero vector stays zero), computed as the index stores rows. */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * inv;
  return out;
}

/**
 * Reads stored float32 rows that an index holds only as their int8 copy (see
 * {@link VectorIndex.appendQuantized}): calls `put` with the little-endian float32 bytes of each
 * rid it finds (a view it may reuse after `put` returns).
 */
export type RowSource = (
  rids: readonly number[],
  put: (rid: number, bytes: Uint8Array) => void,
) => void;

/** A hit of {@link VectorIndex.search}: the memory's row id and its cosine with the query. */
export interface VectorHit {
  rid: number;
  score: number;
}

type Scan = (rows: number, query: number, out: number, n: number, stride: number) => void;

/** The SIMD kernel, or `undefined` where WebAssembly SIMD is unavailable. */
function loadKernel(): { memory: WebAssembly.Memory; scan: Scan } | undefined {
  try {
    const module = scanKernel();
    if (!module) return undefined;
    const instance = new WebAssembly.Instance(module);
    const exports = instance.exports as { memory: WebAssembly.Memory; scan: Scan };
    return { memory: exports.memory, scan: exports.scan };
  } catch {
    return undefined;
  }
}

/**
 * The same kernel in plain JavaScript: float32 products and sums in four lanes, rounded exactly as
 * the SIMD instructions round (an f32 operation computed in f64 and rounded once is exact).
 */
function jsScan(heap: () => Float32Array): Scan {
  return (rows, query, out, n, stride) => {
    const f = heap();
    const lanes = new Float32Array(4);
    let p = rows >> 2;
    const q = query >> 2;
    const o = out >> 2;
    for (let r = 0; r < n; r++, p += stride) {
      lanes.fill(0);
      for (let i = 0; i < stride; i += 4) {
        lanes[0] = lanes[0]! + Math.fround(f[p + i]! * f[q + i]!);
        lanes[1] = lanes[1]! + Math.fround(f[p + i + 1]! * f[q + i + 1]!);
        lanes[2] = lanes[2]! + Math.fround(f[p + i + 2]! * f[q + i + 2]!);
        lanes[3] = lanes[3]! + Math.fround(f[p + i + 3]! * f[q + i + 3]!);
      }
      f[o + r] = Math.fround(
        Math.fround(lanes[0]! + lanes[1]!) + Math.fround(lanes[2]! + lanes[3]!),
      );
    }
  };
}

/**
 * The k best of `n` scored rows by (score desc, rid asc), best first: a bounded heap, so the
 * answer is the same whatever order the rows come in. Rows `skip` rejects are left out.
 */
function topK(
  k: number,
  n: number,
  scoreAt: (i: number) => number,
  ridAt: (i: number) => number,
  skip?: (rid: number) => boolean,
): VectorHit[] {
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
  for (let row = 0; row < n; row++) {
    const s = scoreAt(row);
    if (size === k && s < hs[0]!) continue;
    const rid = ridAt(row);
    if (skip?.(rid)) continue;
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
    } else if (s > hs[0]! || rid < hr[0]!) {
      hs[0] = s;
      hr[0] = rid;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && worse(l, m)) m = l;
        if (r < size && worse(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  const out: VectorHit[] = [];
  for (let i = 0; i < size; i++) out.push({ rid: hr[i]!, score: hs[i]! });
  return out.sort((a, b) => b.score - a.score || a.rid - b.rid);
}

/**
 * Exact cosine search over an in-memory matrix of unit-length float32 rows, one per memory. Rows
 * are contiguous (a removed row is filled by the last one) in WebAssembly memory and scanned by a
 * SIMD kernel (a JavaScript kernel with the same arithmetic where SIMD is missing); the top k is
 * kept in a bounded heap. From `VectorIndexOptions.quantizedFrom` rows an int8 copy
 * (`Int8Rows`) is scanned first and only the rows that could reach the top k are scored
 * exactly: the same answer at a quarter of the memory traffic.
 *
 * Rows may join with their int8 copy alone ({@link appendQuantized}: an open that reads a
 * quarter of the bytes): their float32 rows stay on disk, read through a {@link RowSource} when
 * a search scores them exactly (a few hundred rows, one read), when `get` or `similarities` asks
 * for them, or by {@link fillStep} behind the engine's calls, until every row is in memory.
 */
export class VectorIndex {
  readonly dims: number;
  /** Row length in floats, a multiple of 4. */
  readonly #stride: number;
  readonly #memory: WebAssembly.Memory | undefined;
  #buffer: ArrayBuffer;
  #heap: Float32Array;
  #bytesView: Uint8Array;
  readonly #scan: Scan;
  #capacity = 0;
  #rids = new Int32Array(0);
  readonly #rowOf = new RowTable();
  #count = 0;
  /** The int8 copy, from {@link VectorIndexOptions.quantizedFrom} rows on. */
  #q8: Int8Rows | undefined;
  readonly #quantizedFrom: number;
  /** Whether the SIMD kernel is in use. */
  readonly simd: boolean;
  /** Per row, 1 where only the int8 copy is in memory (see {@link appendQuantized}); 0 past the last row. */
  #absent = new Uint8Array(0);
  /** Rows whose float32 row is not in memory yet. */
  #absentCount = 0;
  /** Where those rows are read from; dropped once none is left. */
  #source: RowSource | undefined;
  /** The row {@link fillStep} looks from next. */
  #fillFrom = 0;

  /**
   * @param dims vector dimension
   * @param initialCapacity rows reserved before the first growth; default 1024
   * @param options see `VectorIndexOptions`
   */
  constructor(dims: number, initialCapacity = 1024, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims < 1)
      throw new AnamnesisError('INVALID_INPUT', 'dims must be a positive integer');
    this.dims = dims;
    this.#stride = Math.ceil(dims / 4) * 4;
    const kernel = options.simd === false ? undefined : loadKernel();
    this.simd = kernel !== undefined;
    this.#memory = kernel?.memory;
    this.#buffer = kernel ? kernel.memory.buffer : new ArrayBuffer(0);
    this.#heap = new Float32Array(this.#buffer);
    this.#bytesView = new Uint8Array(this.#buffer);
    this.#scan = kernel ? kernel.scan : jsScan(() => this.#heap);
    this.#quantizedFrom = options.quantizedFrom ?? QUANTIZED_FROM;
    this.#grow(initialCapacity);
  }

  /** Byte offsets: the query, then `capacity` scores, then the rows. */
  get #queryOff(): number {
    return 0;
  }
  get #outOff(): number {
    return this.#stride * 4;
  }
  #rowsOff(capacity = this.#capacity): number {
    return this.#outOff + Math.ceil(capacity / 4) * 16;
  }

  #grow(capacity: number): void {
    const oldRows = this.#rowsOff();
    const need = this.#rowsOff(capacity) + capacity * this.#stride * 4;
    if (this.#memory) {
      const have = this.#memory.buffer.byteLength;
      if (need > have) this.#memory.grow(Math.ceil((need - have) / 65536));
      this.#buffer = this.#memory.buffer;
      this.#heap = new Float32Array(this.#buffer);
      this.#bytesView = new Uint8Array(this.#buffer);
    } else if (need > this.#buffer.byteLength) {
      const next = new Float32Array(Math.ceil(need / 4));
      next.set(this.#heap);
      this.#heap = next;
      this.#buffer = next.buffer;
      this.#bytesView = new Uint8Array(this.#buffer);
    }
    const rowsFloats = this.#count * this.#stride;
    this.#heap.copyWithin(this.#rowsOff(capacity) >> 2, oldRows >> 2, (oldRows >> 2) + rowsFloats);
    const rids = new Int32Array(capacity);
    rids.set(this.#rids.subarray(0, this.#count));
    this.#rids = rids;
    if (this.#absentCount > 0) this.#absentFlags(capacity);
    this.#q8?.grow(capacity, this.#count);
    this.#capacity = capacity;
    this.#quantizeIfDue();
  }

  /** Builds the int8 copy once the index reaches `quantizedFrom` rows (SIMD only). */
  #quantizeIfDue(): void {
    if (this.#q8 || !this.simd || this.#capacity < this.#quantizedFrom) return;
    const q8 = Int8Rows.create(this.dims, this.#capacity);
    if (!q8) return;
    for (let row = 0; row < this.#count; row++) q8.set(row, this.#heap, this.#rowFloat(row));
    this.#q8 = q8;
  }

  /** Reserves room for `rows` rows at once (a bulk load knows how many are coming). */
  reserve(rows: number): void {
    if (rows > this.#capacity) this.#grow(rows);
  }

  /** Number of vectors held. */
  get size(): number {
    return this.#count;
  }

  /** Bytes reserved for the matrix. */
  get bytes(): number {
    return (
      this.#buffer.byteLength +
      this.#rids.byteLength +
      this.#rowOf.bytes +
      (this.#q8?.bytes ?? 0) +
      this.#absent.byteLength
    );
  }

  /** Whether the index keeps an int8 copy (so rows may join by it alone: {@link appendQuantized}). */
  get quantized(): boolean {
    return this.#q8 !== undefined;
  }

  /** Rows held only as their int8 copy so far (see {@link appendQuantized}). */
  get absentRows(): number {
    return this.#absentCount;
  }

  has(rid: number): boolean {
    return this.#rowOf.has(rid);
  }

  /** A copy of the row ids held, in row order (no order of their own). */
  rids(): Int32Array {
    return this.#rids.slice(0, this.#count);
  }

  #rowFor(rid: number): number {
    let row = this.#rowOf.get(rid);
    if (row === undefined) {
      if (this.#count === this.#capacity) this.#grow(grownCapacity(this.#capacity));
      row = this.#count++;
      this.#rowOf.set(rid, row);
      this.#rids[row] = rid;
    }
    return row;
  }

  #rowFloat(row: number): number {
    return (this.#rowsOff() >> 2) + row * this.#stride;
  }

  /** Adds or replaces the vector of `rid`, normalised to unit length. */
  set(rid: number, vector: ArrayLike<number>): void {
    assertVector(vector, 'vector', this.dims);
    const row = this.#rowFor(rid);
    const at = this.#rowFloat(row);
    this.#heap.set(unitVector(vector), at);
    this.#heap.fill(0, at + this.dims, at + this.#stride);
    this.#q8?.set(row, this.#heap, at);
    this.#present(row);
  }

  /**
   * Adds a row from raw little-endian float32 bytes (as stored in SQLite), already unit length.
   * Used at open: no per-row validation beyond the byte length.
   */
  appendRaw(rid: number, bytes: Uint8Array): void {
    if (bytes.byteLength !== this.dims * 4) {
      throw new AnamnesisError(
        'DIMENSION_MISMATCH',
        `stored vector of row ${rid} has ${bytes.byteLength / 4} dimensions, expected ${this.dims}`,
      );
    }
    if (this.#rowOf.has(rid)) return;
    const row = this.#rowFor(rid);
    const at = this.#rowFloat(row);
    this.#bytesView.set(bytes, at * 4);
    if (this.#stride !== this.dims) this.#heap.fill(0, at + this.dims, at + this.#stride);
    this.#q8?.set(row, this.#heap, at);
  }

  /**
   * Adds rows in bulk from raw little-endian float32 bytes (`rids.length` unit vectors, as stored
   * in SQLite), with their int8 copy when it was kept (`QuantizedRows`, as `quantize`
   * computes it). The rids must not be in the index yet.
   */
  appendRows(rids: Float64Array, bytes: Uint8Array, quantized?: QuantizedRows): void {
    const n = rids.length;
    const rowBytes = this.dims * 4;
    if (bytes.byteLength !== n * rowBytes) {
      throw new AnamnesisError(
        'DIMENSION_MISMATCH',
        `${bytes.byteLength} bytes of vectors for ${n} rows of ${this.dims} dimensions`,
      );
    }
    if (this.#count + n > this.#capacity) this.#grow(this.#count + n);
    const first = this.#count;
    if (this.#stride === this.dims) {
      this.#bytesView.set(bytes, this.#rowFloat(first) * 4);
    } else {
      for (let i = 0; i < n; i++) {
        const at = this.#rowFloat(first + i);
        this.#bytesView.set(bytes.subarray(i * rowBytes, (i + 1) * rowBytes), at * 4);
        this.#heap.fill(0, at + this.dims, at + this.#stride);
      }
    }
    this.#rids.set(rids, first);
    this.#rowOf.setRun(rids, first);
    this.#count += n;
    if (!this.#q8) return;
    if (quantized) this.#q8.setRows(first, quantized);
    else
      for (let row = first; row < this.#count; row++)
        this.#q8.set(row, this.#heap, this.#rowFloat(row));
  }

  /**
   * Adds rows by their int8 copy alone (`rids.length` rows, as `quantize` computed them from the
   * stored float32 rows), their float32 rows left on disk and read through `source` when they are
   * scored exactly, or by {@link fillStep}. The rids must not be in the index yet. Returns
   * `false`, adding nothing, where the index keeps no int8 copy (no SIMD, or fewer than
   * `quantizedFrom` rows reserved): the caller adds the float rows then.
   */
  appendQuantized(rids: Float64Array, quantized: QuantizedRows, source: RowSource): boolean {
    const n = rids.length;
    if (this.#count + n > this.#capacity) this.#grow(this.#count + n);
    if (!this.#q8) return false;
    this.#absentFlags(this.#capacity);
    const first = this.#count;
    this.#rids.set(rids, first);
    this.#rowOf.setRun(rids, first);
    this.#absent.fill(1, first, first + n);
    this.#absentCount += n;
    this.#count += n;
    this.#q8.setRows(first, quantized);
    this.#source = source;
    return true;
  }

  /**
   * Reads the float32 rows of up to `rows` rows held only as their int8 copy (one read of the
   * source). Returns whether such rows remain (never true after a step that found none, so a loop
   * of steps ends).
   */
  fillStep(rows: number): boolean {
    if (this.#absentCount === 0) return false;
    const want: number[] = [];
    for (let i = 0; i < this.#count && want.length < rows; i++) {
      const row = (this.#fillFrom + i) % this.#count;
      if (this.#absent[row] === 1) want.push(row);
    }
    if (want.length === 0) return false;
    this.#fillFrom = (want.at(-1)! + 1) % this.#count;
    this.#load(want);
    return this.#absentCount > 0;
  }

  /** Row `row` holds its float32 row now. */
  #present(row: number): void {
    if (this.#absent[row] !== 1) return;
    this.#absent[row] = 0;
    if (--this.#absentCount === 0) this.#source = undefined;
  }

  /**
   * Reads the float32 rows of those of `rows` held only as their int8 copy, one read for all. A
   * rid the source does not find (a damaged store: `verify` reports it) gets a zero row, so no
   * search ever scores memory that is not its row.
   */
  #load(rows: Iterable<number>): void {
    if (this.#absentCount === 0) return;
    const rids: number[] = [];
    for (const row of rows) if (this.#absent[row] === 1) rids.push(this.#rids[row]!);
    if (rids.length === 0) return;
    const put = (rid: number, bytes: Uint8Array) => {
      const row = this.#rowOf.get(rid);
      if (row === undefined || this.#absent[row] !== 1) return;
      const at = this.#rowFloat(row);
      if (bytes.byteLength === this.dims * 4) this.#bytesView.set(bytes, at * 4);
      else this.#heap.fill(0, at, at + this.dims);
      this.#heap.fill(0, at + this.dims, at + this.#stride);
      this.#present(row);
    };
    this.#source!(rids, put);
    for (const rid of rids) put(rid, NO_BYTES);
  }

  /** Every row's float32 row in memory (a pass of the float scan reads them all). */
  #loadAll(): void {
    while (this.fillStep(this.#count));
  }

  /** Removes the vector of `rid` (no-op if absent). */
  delete(rid: number): void {
    const row = this.#rowOf.get(rid);
    if (row === undefined) return;
    const last = this.#count - 1;
    this.#present(row);
    if (row !== last) {
      const lastRid = this.#rids[last]!;
      const from = this.#rowFloat(last);
      this.#heap.copyWithin(this.#rowFloat(row), from, from + this.#stride);
      this.#q8?.move(last, row);
      this.#rids[row] = lastRid;
      this.#rowOf.set(lastRid, row);
      if (this.#absent[last] === 1) {
        this.#absent[row] = 1;
        this.#absent[last] = 0;
      }
    }
    this.#rowOf.delete(rid);
    this.#count = last;
  }

  /** A copy of the stored (unit) vector of `rid`, or undefined. */
  get(rid: number): Float32Array | undefined {
    return this.getMany([rid])[0];
  }

  /** {@link get} of each rid, the rows still on disk read at once. */
  getMany(rids: readonly number[]): (Float32Array | undefined)[] {
    const rows = this.#heldRows(rids);
    return rows.map((row) => {
      if (row === undefined) return undefined;
      const at = this.#rowFloat(row);
      return this.#heap.slice(at, at + this.dims);
    });
  }

  /** The row of each of `rids` (`undefined`: none), those held only as their int8 copy read at once. */
  #heldRows(rids: readonly number[]): (number | undefined)[] {
    const rows = rids.map((rid) => this.#rowOf.get(rid));
    if (this.#absentCount > 0) this.#load(rows.filter((row) => row !== undefined));
    return rows;
  }

  #setQuery(query: Float32Array): void {
    if (query.length !== this.dims) {
      throw new AnamnesisError(
        'DIMENSION_MISMATCH',
        `query has ${query.length} dimensions, expected ${this.dims}`,
      );
    }
    this.#heap.set(query, this.#queryOff >> 2);
    this.#heap.fill(0, (this.#queryOff >> 2) + this.dims, (this.#queryOff >> 2) + this.#stride);
  }

  /** Cosines of the given rids with a unit query (0 for a rid without a vector), by the same kernel as search. */
  similarities(rids: readonly number[], query: Float32Array): Map<number, number> {
    this.#setQuery(query);
    const rows = this.#heldRows(rids);
    const out = new Map<number, number>();
    rids.forEach((rid, i) => {
      const row = rows[i];
      out.set(rid, row === undefined ? 0 : this.#exact(row));
    });
    return out;
  }

  /**
   * The k rows most similar to a unit-length `query`, best first (ties by rid). When `allowed` is
   * given only those rids are considered.
   */
  search(query: Float32Array, k: number, allowed?: ReadonlySet<number>): VectorHit[] {
    this.#setQuery(query);
    if (k <= 0 || this.#count === 0) return [];
    if (allowed && allowed.size * FEW_ROWS < this.#count) return this.#searchRows(allowed, k);
    const skip = allowed ? (rid: number) => !allowed.has(rid) : undefined;
    if (this.#q8 && this.#count >= this.#quantizedFrom && k < this.#count)
      return this.#searchQuantized(this.#q8, query, k, skip);
    return this.#searchAll(k, skip);
  }

  /** Room for `capacity` rows in the flags of rows held only as their int8 copy. */
  #absentFlags(capacity: number): void {
    if (this.#absent.length >= capacity) return;
    const absent = new Uint8Array(capacity);
    absent.set(this.#absent.subarray(0, this.#count));
    this.#absent = absent;
  }

  /** The rows of those of `rids` that the index holds. */
  #rowsOf(rids: Iterable<number>): number[] {
    const rows: number[] = [];
    for (const rid of rids) {
      const row = this.#rowOf.get(rid);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  /** {@link search} by one pass of the float scan over every row. */
  #searchAll(k: number, skip: ((rid: number) => boolean) | undefined): VectorHit[] {
    this.#loadAll();
    this.#scan(this.#rowsOff(), this.#queryOff, this.#outOff, this.#count, this.#stride);
    const scores = this.#heap.subarray(this.#outOff >> 2, (this.#outOff >> 2) + this.#count);
    const rids = this.#rids;
    return topK(
      k,
      this.#count,
      (row) => scores[row]!,
      (row) => rids[row]!,
      skip,
    );
  }

  /**
   * {@link search} over a few allowed rids (a date window, say): each of their rows scored by the
   * kernel, with no pass over the index. The same answer as the full scan: the same arithmetic
   * per row, the same order and ties.
   */
  #searchRows(allowed: ReadonlySet<number>, k: number): VectorHit[] {
    const rows = this.#rowsOf(allowed);
    this.#load(rows);
    const scores = rows.map((row) => this.#exact(row));
    const rids = this.#rids;
    return topK(
      k,
      rows.length,
      (i) => scores[i]!,
      (i) => rids[rows[i]!]!,
    );
  }

  /** The exact score of one row with the query set by {@link #setQuery} (the scan's arithmetic). */
  #exact(row: number): number {
    this.#scan(this.#rowFloat(row) * 4, this.#queryOff, this.#outOff, 1, this.#stride);
    return this.#heap[this.#outOff >> 2]!;
  }

  /**
   * {@link search} through the int8 copy, with the same answer: (1) approximate scores of every
   * row; (2) the best `2k + 32` by approximate score are scored exactly, and the k-th best exact
   * score among them is a floor T the true k-th best cannot be below; (3) every other row whose
   * approximate score plus its error bound reaches T is scored exactly too. A row left out scores
   * below T exactly, so it is not in the exact top k; the top k of the exactly scored rows is.
   * Where more than one row in {@link FEW_ROWS} reaches T (many ties: a zero query, which no word
   * the model knows gives, scores every row 0), one pass of the float scan costs less than scoring
   * them one at a time, and gives the same answer.
   */
  #searchQuantized(
    q8: Int8Rows,
    query: Float32Array,
    k: number,
    skip: ((rid: number) => boolean) | undefined,
  ): VectorHit[] {
    const n = this.#count;
    const rids = this.#rids;
    q8.scan(query, n);
    const head = q8.best(n, Math.min(n, 2 * k + 32), skip && ((row) => skip(rids[row]!)));
    this.#load(head);
    const exact = new Map<number, number>();
    for (const row of head) exact.set(row, this.#exact(row));
    let floor = -Infinity;
    if (exact.size >= k) floor = [...exact.values()].sort((a, b) => b - a)[k - 1]!;
    const reaching = q8.reaching(floor, n);
    if (reaching.length * FEW_ROWS > n) return this.#searchAll(k, skip);
    const more = reaching.filter((row) => !exact.has(row) && !skip?.(rids[row]!));
    this.#load(more);
    for (const row of more) exact.set(row, this.#exact(row));
    const rows = [...exact.keys()];
    return topK(
      k,
      rows.length,
      (i) => exact.get(rows[i]!)!,
      (i) => rids[rows[i]!]!,
    );
  }
}
