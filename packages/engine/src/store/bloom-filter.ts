/**
 * Bloom filter with Kirsch–Mitzenmacher double hashing, exactly as seed 002 §8 specifies it:
 *
 * - `h1` = first 8 bytes of MD5(item) as an unsigned 64-bit little-endian integer,
 * - `h2` = first 8 bytes of SHA-1(item) as an unsigned 64-bit little-endian integer,
 * - bit positions `h_i = (h1 + i·h2) mod m` for `i = 0 .. k-1` (exact integer arithmetic, as with
 *   Python's unbounded ints),
 * - `m = ceil(-n·ln p / (ln 2)²)`, `k = round((m / n)·ln 2)` (Python's round-half-to-even), both at
 *   least 1.
 *
 * Strings are hashed as their UTF-8 bytes. Bit `j` of the array lives in byte `j >>> 3` under mask
 * `1 << (j & 7)` (least-significant bit first), which is also the byte layout of the persisted form:
 *
 * ```
 * offset 0   capacity    uint64 LE
 * offset 8   fp_rate     float64 LE
 * offset 16  size_bits   uint64 LE   (m)
 * offset 24  hash_count  uint64 LE   (k)
 * offset 32  ceil(m / 8) bytes of bits
 * ```
 *
 * `add` and `has` run in O(k) after two digests; positions are computed with plain numbers (see
 * {@link bloomPositions} for why that is exact).
 */

import { AnamnesisError } from '@anamnesis/errors';
import { _MD5, _SHA1 } from '@noble/hashes/legacy.js';

/** Bytes of the persisted header (capacity, fp rate, size in bits, hash count). */
export const BLOOM_HEADER_BYTES = 32;

/**
 * Largest bit-array size accepted, 2^32 bits (512 MiB). It keeps every bit index below 2^32, so
 * positions fit the exact-number arithmetic of {@link bloomPositions}.
 */
export const MAX_BLOOM_SIZE_BITS = 2 ** 32;

/**
 * Largest hash count accepted when restoring. {@link optimalHashCount} never exceeds 1075 for any
 * valid (n, p) (p >= 5e-324 gives m/n <= 1550), so anything larger is a corrupt header.
 */
export const MAX_BLOOM_HASH_COUNT = 4096;

/** Python's `round()`: round half to even. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

function assertCapacity(n: unknown, what: string): asserts n is number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be an integer >= 1, got ${String(n)}`);
  }
}

function assertRate(p: unknown, what: string): asserts p is number {
  if (typeof p !== 'number' || !Number.isFinite(p) || p <= 0 || p >= 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a number strictly between 0 and 1, got ${String(p)}`,
    );
  }
}

/**
 * Optimal bit-array size `m = max(1, ceil(-n·ln p / (ln 2)²))` for `n` items at false-positive rate
 * `p`. For n = 100,000 and p = 0.001 this is 1,437,759 bits.
 *
 * @param n Expected number of distinct items, an integer >= 1.
 * @param p Target false-positive probability, strictly between 0 and 1.
 * @throws AnamnesisError `INVALID_INPUT` for any other argument.
 */
export function optimalSize(n: number, p: number): number {
  assertCapacity(n, 'capacity');
  assertRate(p, 'fpRate');
  // Same operation order as the reference: (-n * ln p) / (ln 2)^2.
  return Math.max(1, Math.ceil((-n * Math.log(p)) / (Math.LN2 * Math.LN2)));
}

/**
 * Optimal hash count `k = max(1, round((m / n)·ln 2))`, rounding half to even like Python. For
 * m = 1,437,759 and n = 100,000 this is 10.
 *
 * @param m Bit-array size, an integer >= 1.
 * @param n Expected number of distinct items, an integer >= 1.
 * @throws AnamnesisError `INVALID_INPUT` for any other argument.
 */
export function optimalHashCount(m: number, n: number): number {
  assertCapacity(m, 'sizeBits');
  assertCapacity(n, 'capacity');
  return Math.max(1, roundHalfEven((m / n) * Math.LN2));
}

/** `uint64LE(digest[0..8]) mod m`, exactly, for 1 <= m <= 2^32. */
function mod64LE(d: Uint8Array, m: number): number {
  const lo = (d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24)) >>> 0;
  const hi = (d[4]! | (d[5]! << 8) | (d[6]! << 16) | (d[7]! << 24)) >>> 0;
  // (hi·2^32 + lo) mod m, in steps whose intermediates stay below 2^49 (exact in a double).
  let r = hi % m;
  r = (r * 0x10000) % m;
  r = (r * 0x10000) % m;
  return (r + lo) % m;
}

const encoder = new TextEncoder();
/** The UTF-8 of a string item, in a buffer reused by the next call. */
let itemBytes = new Uint8Array(256);

function toBytes(item: string | Uint8Array): Uint8Array {
  if (typeof item === 'string') {
    if (itemBytes.length < item.length * 3) itemBytes = new Uint8Array(item.length * 3);
    return itemBytes.subarray(0, encoder.encodeInto(item, itemBytes).written);
  }
  if (item instanceof Uint8Array) return item;
  throw new AnamnesisError('INVALID_INPUT', 'a Bloom filter item must be a string or a Uint8Array');
}

/**
 * SHA-1 and MD5 of an item into buffers reused by the next call: each hash starts from a copy of
 * a fresh hasher's state instead of a new hasher, so a rebuild of many rows allocates no buffers
 * per row (a new hasher and its digest each allocate an `ArrayBuffer`).
 */
const digests = (() => {
  const sha1Start = new _SHA1();
  const sha1Work = new _SHA1();
  const md5Start = new _MD5();
  const md5Work = new _MD5();
  const sha1Out = new Uint8Array(sha1Work.outputLen);
  const md5Out = new Uint8Array(md5Work.outputLen);
  return (bytes: Uint8Array) => {
    sha1Start._cloneInto(sha1Work).update(bytes).digestInto(sha1Out);
    md5Start._cloneInto(md5Work).update(bytes).digestInto(md5Out);
    return { sha1: sha1Out, md5: md5Out };
  };
})();

/**
 * The `k` bit positions `(h1 + i·h2) mod m`, `i = 0 .. k-1`, of `item` in a filter of `m` bits.
 *
 * Exactness: with `a = h1 mod m` and `b = h2 mod m` (computed exactly by `mod64LE`),
 * `(h1 + i·h2) mod m = (a + i·b) mod m`, and the loop computes that incrementally as
 * `pos_{i+1} = (pos_i + b) mod m` with `pos_i, b < m <= 2^32`, so every intermediate is below 2^33
 * and exact in a double. The result therefore equals Python's unbounded-integer construction bit
 * for bit, without BigInt.
 */
export function bloomPositions(item: string | Uint8Array, m: number, k: number): number[] {
  if (!Number.isSafeInteger(m) || m < 1 || m > MAX_BLOOM_SIZE_BITS) {
    throw new AnamnesisError('INVALID_INPUT', `sizeBits must be within [1, 2^32], got ${m}`);
  }
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new AnamnesisError('INVALID_INPUT', `hashCount must be an integer >= 1, got ${k}`);
  }
  const digest = digests(toBytes(item));
  const b = mod64LE(digest.sha1, m);
  let pos = mod64LE(digest.md5, m);
  const out = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    out[i] = pos;
    pos += b;
    if (pos >= m) pos -= m;
  }
  return out;
}

function readUint64LE(view: DataView, offset: number, what: string): number {
  const lo = view.getUint32(offset, true);
  const hi = view.getUint32(offset + 4, true);
  if (hi >= 0x200000) {
    throw new AnamnesisError('INVALID_INPUT', `Bloom filter header: ${what} exceeds 2^53`);
  }
  return hi * 0x100000000 + lo;
}

function writeUint64LE(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value % 0x100000000, true);
  view.setUint32(offset + 4, Math.floor(value / 0x100000000), true);
}

/** A Bloom filter; see the module documentation for the hashing and the persisted format. */
export class BloomFilter {
  #capacity: number;
  #fpRate: number;
  #sizeBits: number;
  #hashCount: number;
  #bits: Uint8Array;

  /**
   * @param capacity Expected number of distinct items (n), an integer >= 1. Beyond it the real
   *   false-positive rate grows above `fpRate`. Default 100,000.
   * @param fpRate Target false-positive probability at `capacity` items, strictly between 0 and 1.
   *   Default 0.001 (0.1 %), which gives 1,437,759 bits (about 175 KiB) and 10 hashes.
   * @throws AnamnesisError `INVALID_INPUT` for bad arguments or when the filter would need more than
   *   {@link MAX_BLOOM_SIZE_BITS} bits.
   */
  constructor(capacity = 100_000, fpRate = 0.001) {
    const m = optimalSize(capacity, fpRate);
    if (m > MAX_BLOOM_SIZE_BITS) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `a Bloom filter for ${capacity} items at ${fpRate} needs ${m} bits, over the 2^32 limit`,
      );
    }
    this.#capacity = capacity;
    this.#fpRate = fpRate;
    this.#sizeBits = m;
    this.#hashCount = optimalHashCount(m, capacity);
    this.#bits = new Uint8Array(Math.ceil(m / 8));
  }

  /** Expected number of distinct items (n) the filter was sized for. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Target false-positive probability at `capacity` items. */
  get fpRate(): number {
    return this.#fpRate;
  }

  /** Size of the bit array (m), in bits. */
  get sizeBits(): number {
    return this.#sizeBits;
  }

  /** Number of bit positions per item (k). */
  get hashCount(): number {
    return this.#hashCount;
  }

  /** Size of the bit array, in bytes: ceil(m / 8). */
  get byteLength(): number {
    return this.#bits.length;
  }

  /** Fraction of the m bits that are set, in [0, 1]; near 1 means the filter is saturated. */
  get fillRatio(): number {
    let set = 0;
    for (const byte of this.#bits) {
      let v = byte;
      while (v !== 0) {
        v &= v - 1;
        set++;
      }
    }
    return set / this.#sizeBits;
  }

  /** Adds `item` (a string is hashed as UTF-8). */
  add(item: string | Uint8Array): void {
    this.addAt(this.positions(item));
  }

  /** False: `item` was certainly never added. True: it probably was (false positives possible). */
  has(item: string | Uint8Array): boolean {
    return this.hasAt(this.positions(item));
  }

  /**
   * The bits `item` sets in this filter (its MD5 and SHA-1, the costly part of {@link add} and
   * {@link has}): for {@link hasAt} and {@link addAt}, so that an item looked up and then added is
   * hashed once.
   */
  positions(item: string | Uint8Array): number[] {
    return bloomPositions(item, this.#sizeBits, this.#hashCount);
  }

  /** {@link add} of the item whose {@link positions} these are. */
  addAt(positions: readonly number[]): void {
    const bits = this.#bits;
    for (const pos of positions) bits[pos >>> 3]! |= 1 << (pos & 7);
  }

  /** {@link has} of the item whose {@link positions} these are. */
  hasAt(positions: readonly number[]): boolean {
    const bits = this.#bits;
    for (const pos of positions) if ((bits[pos >>> 3]! & (1 << (pos & 7))) === 0) return false;
    return true;
  }

  /** The persisted form: the 32-byte header followed by the ceil(m / 8) bit bytes (a copy). */
  toBytes(): Uint8Array {
    const out = new Uint8Array(BLOOM_HEADER_BYTES + this.#bits.length);
    const view = new DataView(out.buffer);
    writeUint64LE(view, 0, this.#capacity);
    view.setFloat64(8, this.#fpRate, true);
    writeUint64LE(view, 16, this.#sizeBits);
    writeUint64LE(view, 24, this.#hashCount);
    out.set(this.#bits, BLOOM_HEADER_BYTES);
    return out;
  }

  /**
   * Restores a filter from {@link toBytes} output (or the reference implementation's file). The
   * header is taken as written — m and k are not recomputed — after checking that capacity >= 1,
   * 0 < fp_rate < 1, 1 <= size_bits <= 2^32, 1 <= hash_count <= 4096, and that exactly
   * ceil(size_bits / 8) bit bytes follow. The bytes are copied.
   *
   * @throws AnamnesisError `INVALID_INPUT` when any of those checks fails.
   */
  static fromBytes(bytes: Uint8Array): BloomFilter {
    if (!(bytes instanceof Uint8Array)) {
      throw new AnamnesisError('INVALID_INPUT', 'Bloom filter bytes must be a Uint8Array');
    }
    if (bytes.length < BLOOM_HEADER_BYTES) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `Bloom filter bytes too short: ${bytes.length} < ${BLOOM_HEADER_BYTES} header bytes`,
      );
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, BLOOM_HEADER_BYTES);
    const capacity = readUint64LE(view, 0, 'capacity');
    const fpRate = view.getFloat64(8, true);
    const sizeBits = readUint64LE(view, 16, 'size_bits');
    const hashCount = readUint64LE(view, 24, 'hash_count');
    assertCapacity(capacity, 'Bloom filter header: capacity');
    assertRate(fpRate, 'Bloom filter header: fp_rate');
    if (sizeBits < 1 || sizeBits > MAX_BLOOM_SIZE_BITS) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `Bloom filter header: size_bits must be within [1, 2^32], got ${sizeBits}`,
      );
    }
    if (hashCount < 1 || hashCount > MAX_BLOOM_HASH_COUNT) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `Bloom filter header: hash_count must be within [1, ${MAX_BLOOM_HASH_COUNT}], got ${hashCount}`,
      );
    }
    const expected = BLOOM_HEADER_BYTES + Math.ceil(sizeBits / 8);
    if (bytes.length !== expected) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `Bloom filter bit array size mismatch: expected ${expected} bytes, got ${bytes.length}`,
      );
    }
    const filter = new BloomFilter(1, 0.5); // 2 bits; every field is replaced below
    filter.#capacity = capacity;
    filter.#fpRate = fpRate;
    filter.#sizeBits = sizeBits;
    filter.#hashCount = hashCount;
    filter.#bits = bytes.slice(BLOOM_HEADER_BYTES);
    return filter;
  }
}
