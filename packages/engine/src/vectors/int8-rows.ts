import { scanKernel } from './scan-kernel.ts';

type ScanI8 = (
  rows: number,
  query: number,
  scales: number,
  out: number,
  n: number,
  stride: number,
) => void;
type Above = (scores: number, n: number, floor: number, out: number, max: number) => number;

/** Row indices `above` may write: its region of the kernel's memory (64 KiB). */
const ABOVE_MAX = 16_384;
/** {@link Int8Rows.best} takes its floor from one score in each run of this many… */
export const SAMPLE_STRIDE = 16;
/** …the least of the `m / SAMPLE_STRIDE` best sampled, and this many more (a margin for chance). */
const SAMPLE_SLACK = 8;

/** The row sampled from the `at`-th run of `sample` rows: at an offset hashed from `at`. */
export function sampledRow(at: number, sample: number): number {
  return at * sample + ((Math.imul(at, 0x9e3779b1) >>> 16) % sample);
}

/**
 * The `m` of `rows` (or, without them, of the rows below `n`; with `sample`, of one row in each
 * run of `sample`, at an offset that varies from run to run, so that no period in the rows' order
 * biases it) of highest score, rows `skip` rejects left out, in no order (ties broken
 * arbitrarily): a bounded min-heap on typed arrays, its least first.
 */
function topRows(
  scores: Float32Array,
  m: number,
  { rows, n = 0, sample = 1 }: { rows?: Int32Array; n?: number; sample?: number },
  skip?: (row: number) => boolean,
): Int32Array {
  const hs = new Float32Array(m);
  const hr = new Int32Array(m);
  let size = 0;
  const count = rows ? rows.length : Math.floor(n / sample);
  for (let at = 0; at < count; at++) {
    const row = rows ? rows[at]! : sample === 1 ? at : sampledRow(at, sample);
    const s = scores[row]!;
    if (size === m && s <= hs[0]!) continue;
    if (skip?.(row)) continue;
    let i: number;
    if (size < m) {
      // sift up from the end
      i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (hs[p]! <= s) break;
        hs[i] = hs[p]!;
        hr[i] = hr[p]!;
        i = p;
      }
    } else {
      // replace the smallest, sift down
      i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const c = l + 1 < size && hs[l + 1]! < hs[l]! ? l + 1 : l;
        if (hs[c]! >= s) break;
        hs[i] = hs[c]!;
        hr[i] = hr[c]!;
        i = c;
      }
    }
    hs[i] = s;
    hr[i] = row;
  }
  return hr.subarray(0, size);
}

/**
 * Slack added to every error bound: covers the float32 rounding of the exact kernel's sums (at
 * most about dims · 2^-24 for unit vectors) and of the approximate score, with a wide margin.
 */
const ROUNDING_SLACK = 1e-4;

/**
 * Quantizes `dims` values of `v` (from `from`) to int8 at `out[at…]` with one symmetric scale:
 * `q = round(v / scale)`, `scale = max |v| / 127` (float32). Returns the scale and the L1 norm of
 * the dequantized values (`Σ |scale · q|`), which the error bound of {@link Int8Rows} uses.
 */
export function quantize(
  v: ArrayLike<number>,
  from: number,
  dims: number,
  out: Int8Array,
  at: number,
): { scale: number; l1: number } {
  let max = 0;
  for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(v[from + i]!));
  const scale = Math.fround(max / 127);
  let sum = 0;
  for (let i = 0; i < dims; i++) {
    const q = scale > 0 ? Math.max(-127, Math.min(127, Math.round(v[from + i]! / scale))) : 0;
    out[at + i] = q;
    sum += Math.abs(q);
  }
  return { scale, l1: sum * scale };
}

/** Bytes of one int8 row of `dims` values: padded with zeros to a multiple of 16 (one SIMD lane). */
export function int8Stride(dims: number): number {
  return Math.ceil(dims / 16) * 16;
}

/**
 * Rows quantized by {@link quantize}: a scale and an L1 norm per row, and the int8 rows
 * {@link int8Stride} bytes apart (zero padded), as {@link Int8Rows} keeps them.
 */
export interface QuantizedRows {
  scales: Float32Array;
  l1: Float32Array;
  rows: Int8Array;
}

/**
 * An int8 copy of a float32 matrix, one symmetric scale per row, scanned by the SIMD kernel
 * `scan_i8` at a quarter of the float32 matrix's memory traffic. Its scores are approximations;
 * an error bound says how far each can be from the exact float32 cosine, so a search can take the
 * candidates whose approximate score could still reach the exact top k and re-score only those
 * exactly (see `VectorIndex.search`): the answer is the exact one, not an approximation.
 *
 * The error of one row's score is at most `s_q/2 · L1(r̂) + s_r/2 · L1(q̂) + dims · s_r · s_q / 4`
 * (r̂, q̂ the dequantized row and query, s_r and s_q their scales, each value off by at most half
 * its scale), plus {@link ROUNDING_SLACK}.
 *
 * Memory (one WebAssembly memory of its own): the int8 query, then `capacity` approximate scores,
 * `capacity` scales, the rows, `stride` bytes each (dims rounded up to 16), and {@link ABOVE_MAX}
 * row indices written by the kernel `above`.
 */
export class Int8Rows {
  readonly #dims: number;
  readonly #stride: number;
  readonly #memory: WebAssembly.Memory;
  readonly #scan: ScanI8;
  readonly #above: Above;
  #capacity = 0;
  #i8: Int8Array;
  #f32: Float32Array;
  #i32: Int32Array;
  /** L1 norm of each dequantized row (JS memory: only the bound reads it). */
  #l1 = new Float32Array(0);
  #queryScale = 0;
  #queryL1 = 0;
  /** The greatest row scale and L1 norm stored (never lowered: an upper bound of both). */
  #maxScale = 0;
  #maxL1 = 0;

  private constructor(dims: number, memory: WebAssembly.Memory, scan: ScanI8, above: Above) {
    this.#dims = dims;
    this.#stride = int8Stride(dims);
    this.#memory = memory;
    this.#scan = scan;
    this.#above = above;
    this.#i8 = new Int8Array(memory.buffer);
    this.#f32 = new Float32Array(memory.buffer);
    this.#i32 = new Int32Array(memory.buffer);
  }

  /** A matrix for `dims`-dimensional rows, or `undefined` where WebAssembly SIMD is unavailable. */
  static create(dims: number, capacity: number): Int8Rows | undefined {
    try {
      const module = scanKernel();
      if (!module) return undefined;
      const instance = new WebAssembly.Instance(module);
      const exports = instance.exports as {
        memory: WebAssembly.Memory;
        scan_i8: ScanI8;
        above: Above;
      };
      const rows = new Int8Rows(dims, exports.memory, exports.scan_i8, exports.above);
      rows.grow(capacity);
      return rows;
    } catch {
      return undefined;
    }
  }

  /** Bytes reserved (WebAssembly memory and the L1 norms). */
  get bytes(): number {
    return this.#memory.buffer.byteLength + this.#l1.byteLength;
  }

  #scoresOff(): number {
    return this.#stride;
  }
  #scalesOff(capacity = this.#capacity): number {
    return this.#stride + capacity * 4;
  }
  #rowsOff(capacity = this.#capacity): number {
    return this.#stride + capacity * 8;
  }
  #aboveOff(capacity = this.#capacity): number {
    return this.#rowsOff(capacity) + capacity * this.#stride;
  }

  /** Makes room for `capacity` rows, keeping the first `count`. */
  grow(capacity: number, count = 0): void {
    const need = this.#aboveOff(capacity) + ABOVE_MAX * 4;
    const have = this.#memory.buffer.byteLength;
    if (need > have) this.#memory.grow(Math.ceil((need - have) / 65536));
    this.#i8 = new Int8Array(this.#memory.buffer);
    this.#f32 = new Float32Array(this.#memory.buffer);
    this.#i32 = new Int32Array(this.#memory.buffer);
    // Both regions move up: rows first (they lie above the scales), then the scales.
    const oldRows = this.#rowsOff();
    this.#i8.copyWithin(this.#rowsOff(capacity), oldRows, oldRows + count * this.#stride);
    const oldScales = this.#scalesOff() >> 2;
    this.#f32.copyWithin(this.#scalesOff(capacity) >> 2, oldScales, oldScales + count);
    const l1 = new Float32Array(capacity);
    l1.set(this.#l1.subarray(0, count));
    this.#l1 = l1;
    this.#capacity = capacity;
  }

  /** Stores row `row` from `dims` float32 values of `v` starting at `from`. */
  set(row: number, v: ArrayLike<number>, from = 0): void {
    const q = quantize(v, from, this.#dims, this.#i8, this.#rowsOff() + row * this.#stride);
    this.#f32[(this.#scalesOff() >> 2) + row] = q.scale;
    this.#l1[row] = q.l1;
    this.#maxScale = Math.max(this.#maxScale, q.scale);
    this.#maxL1 = Math.max(this.#maxL1, q.l1);
  }

  /** Stores rows from `first` on as {@link quantize} computed them (a snapshot's int8 copy). */
  setRows(first: number, q: QuantizedRows): void {
    this.#f32.set(q.scales, (this.#scalesOff() >> 2) + first);
    this.#l1.set(q.l1, first);
    this.#i8.set(q.rows, this.#rowsOff() + first * this.#stride);
    // comparisons, not Math.max calls: at an open this runs once per part, mostly unoptimised
    let maxScale = this.#maxScale;
    let maxL1 = this.#maxL1;
    for (let r = 0; r < q.scales.length; r++) {
      const scale = q.scales[r]!;
      const l1 = q.l1[r]!;
      if (scale > maxScale) maxScale = scale;
      if (l1 > maxL1) maxL1 = l1;
    }
    this.#maxScale = maxScale;
    this.#maxL1 = maxL1;
  }

  /**
   * Stores `scales.length` rows from `first` on as they are: `dims` int8 values each from
   * `values` (contiguous), with these scales (a static model's table). Their L1 norms are left 0:
   * {@link reaching} does not hold for them.
   */
  setInt8(first: number, values: Int8Array, scales: Float32Array): void {
    const d = this.#dims;
    const rows = this.#rowsOff() + first * this.#stride;
    for (let r = 0; r < scales.length; r++)
      this.#i8.set(values.subarray(r * d, (r + 1) * d), rows + r * this.#stride);
    this.#f32.set(scales, (this.#scalesOff() >> 2) + first);
  }

  /** Copies row `from` over row `to` (a delete fills the hole with the last row). */
  move(from: number, to: number): void {
    const rows = this.#rowsOff();
    this.#i8.copyWithin(
      rows + to * this.#stride,
      rows + from * this.#stride,
      rows + (from + 1) * this.#stride,
    );
    const scales = this.#scalesOff() >> 2;
    this.#f32[scales + to] = this.#f32[scales + from]!;
    this.#l1[to] = this.#l1[from]!;
  }

  /**
   * Approximate scores of the first `n` rows with `query`: `scores[r] · scale` approximates the
   * exact score of row r within the error bound of {@link Int8Rows}. The view is valid until the next call.
   */
  scan(query: Float32Array, n: number): { scores: Float32Array; scale: number } {
    const q = quantize(query, 0, this.#dims, this.#i8, 0);
    this.#queryScale = q.scale;
    this.#queryL1 = q.l1;
    this.#scan(this.#rowsOff(), 0, this.#scalesOff(), this.#scoresOff(), n, this.#stride);
    const at = this.#scoresOff() >> 2;
    return { scores: this.#f32.subarray(at, at + n), scale: q.scale };
  }

  /**
   * The rows among the first `n` whose approximate score (of the last {@link scan}) is at least
   * `floor` as a float32, ascending, found by the kernel; `undefined` when more than its list
   * holds ({@link ABOVE_MAX}) are.
   */
  #rowsAbove(floor: number, n: number): Int32Array | undefined {
    const out = this.#aboveOff();
    const count = this.#above(this.#scoresOff(), n, floor, out, ABOVE_MAX);
    return count > ABOVE_MAX ? undefined : this.#i32.slice(out >> 2, (out >> 2) + count);
  }

  /**
   * The `m` rows among the first `n` of highest approximate score (of the last {@link scan}), in
   * no order (ties broken arbitrarily), rows `skip` rejects left out. Without `skip`, a floor is
   * taken first, the least of the `m / SAMPLE_STRIDE + SAMPLE_SLACK` best of a sample (one score
   * in each run of {@link SAMPLE_STRIDE}), and the kernel lists the rows that reach it (16 scores
   * a test) for the heap; when fewer than `m` do (an unlucky sample) or too many, every row is heaped.
   * The answer is the same either way.
   */
  best(n: number, m: number, skip?: (row: number) => boolean): Int32Array {
    const at = this.#scoresOff() >> 2;
    const scores = this.#f32.subarray(at, at + n);
    if (!skip && m > 0 && n >= SAMPLE_STRIDE * m) {
      const sampled = topRows(scores, Math.ceil(m / SAMPLE_STRIDE) + SAMPLE_SLACK, {
        n,
        sample: SAMPLE_STRIDE,
      });
      const rows = this.#rowsAbove(scores[sampled[0]!]!, n); // the heap's least
      if (rows && rows.length >= m) return topRows(scores, m, { rows });
    }
    return topRows(scores, m, { n }, skip);
  }

  /**
   * The rows among the first `n` whose exact score with the last {@link scan}'s query could reach
   * `floor`: those whose approximate score plus its error bound (see {@link Int8Rows}) is at least
   * `floor`, ascending. A row's scale and L1 norm are read only where the greatest of them could
   * lift its approximate score to `floor`: the kernel lists those rows (a float32 floor a little
   * below that cut, so none is missed), and the exact test below decides.
   */
  reaching(floor: number, n: number): number[] {
    const f32 = this.#f32;
    const scores = this.#scoresOff() >> 2;
    const scales = this.#scalesOff() >> 2;
    const l1 = this.#l1;
    const sq = this.#queryScale;
    const perRowScale = this.#queryL1 / 2 + (this.#dims * sq) / 4;
    // below this, an approximate score cannot reach `floor` whatever its row's scale and norm
    // (1e-9 below the exact cut, for the rounding of the sums)
    const cut =
      floor - ROUNDING_SLACK - (sq / 2) * this.#maxL1 - this.#maxScale * perRowScale - 1e-9;
    const out: number[] = [];
    const test = (row: number) => {
      if (f32[scores + row]! * sq < cut) return;
      const reach =
        f32[scores + row]! * sq + (sq / 2) * l1[row]! + f32[scales + row]! * perRowScale;
      if (reach + ROUNDING_SLACK >= floor) out.push(row);
    };
    // score · sq ≥ cut needs score ≥ cut / sq: listed from a float32 a millionth below that
    const t = cut / sq;
    const listed =
      sq > 0 && Number.isFinite(t) ? this.#rowsAbove(t - Math.abs(t) * 1e-6 - 1e-30, n) : undefined;
    if (listed) for (const row of listed) test(row);
    else for (let row = 0; row < n; row++) test(row);
    return out;
  }
}
