import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOOM_HEADER_BYTES,
  BloomFilter,
  bloomPositions,
  optimalHashCount,
  optimalSize,
} from '../src/store/bloom-filter.ts';

const invalid = expect.objectContaining({ code: 'INVALID_INPUT' });

/** The seed's construction with BigInt, straight from the formula, for differential checks. */
function referencePositions(item: string, m: number, k: number): number[] {
  const bytes = Buffer.from(item, 'utf8');
  const h1 = Buffer.from(createHash('md5').update(bytes).digest()).readBigUInt64LE(0);
  const h2 = Buffer.from(createHash('sha1').update(bytes).digest()).readBigUInt64LE(0);
  const out: number[] = [];
  for (let i = 0n; i < BigInt(k); i++) out.push(Number((h1 + i * h2) % BigInt(m)));
  return out;
}

function withHeader(mutate: (view: DataView) => void, filter = new BloomFilter(100, 0.01)) {
  const bytes = filter.toBytes();
  mutate(new DataView(bytes.buffer));
  return bytes;
}

describe('optimalSize / optimalHashCount', () => {
  it('reproduce the seed oracle: 100,000 items at 0.1% -> m = 1,437,759, k = 10', () => {
    expect(optimalSize(100_000, 0.001)).toBe(1_437_759);
    expect(optimalHashCount(1_437_759, 100_000)).toBe(10);
  });

  it('match values computed by the Python reference (math.ceil / round half even)', () => {
    // [n, p, m, k] from `max(1, ceil(-n*log(p)/log(2)**2))`, `max(1, round(m/n*log(2)))`.
    const table: [number, number, number, number][] = [
      [1, 0.5, 2, 1],
      [1, 0.001, 15, 10],
      [10, 0.01, 96, 7],
      [100, 0.01, 959, 7],
      [1000, 0.05, 6236, 4],
      [12345, 1e-9, 532474, 30],
      [100, 0.999, 1, 1],
      [1_000_000, 0.001, 14_377_588, 10],
    ];
    for (const [n, p, m, k] of table) {
      expect(optimalSize(n, p)).toBe(m);
      expect(optimalHashCount(m, n)).toBe(k);
    }
  });

  it('never return less than 1', () => {
    expect(optimalSize(1, 0.9999)).toBe(1);
    expect(optimalHashCount(3, 100)).toBe(1); // round(0.0208) = 0 -> 1
  });

  it('reject bad arguments with INVALID_INPUT', () => {
    for (const p of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => optimalSize(100, p)).toThrow(invalid);
    }
    for (const n of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => optimalSize(n, 0.01)).toThrow(invalid);
      expect(() => optimalHashCount(100, n)).toThrow(invalid);
      expect(() => optimalHashCount(n, 100)).toThrow(invalid);
    }
  });
});

describe('bloomPositions', () => {
  it('match the Python reference construction', () => {
    // From hashlib + struct.unpack('<Q') + Python's unbounded (h1 + i*h2) % m.
    expect(bloomPositions('alpha', 1_437_759, 10)).toEqual([
      958433, 100036, 679398, 1258760, 400363, 979725, 121328, 700690, 1280052, 421655,
    ]);
    expect(bloomPositions('memory-42', 2 ** 32, 7)).toEqual([
      3779716066, 2562981499, 1346246932, 129512365, 3207745094, 1991010527, 774275960,
    ]);
    expect(bloomPositions('héllo', 4294967291, 5)).toEqual([
      142085523, 2801941163, 1166829512, 3826685152, 2191573501,
    ]);
    expect(bloomPositions('', 97, 4)).toEqual([50, 93, 39, 82]);
    expect(bloomPositions('x', 1, 3)).toEqual([0, 0, 0]);
  });

  it('property: equal the exact BigInt construction for any item, m <= 2^32 and k', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: 1, max: 2 ** 32 }),
        fc.integer({ min: 1, max: 40 }),
        (item, m, k) => {
          expect(bloomPositions(item, m, k)).toEqual(referencePositions(item, m, k));
        },
      ),
    );
  });

  it('property: one after another, items of any length (several hash blocks) and script agree with the reference', () => {
    // the hashers and the UTF-8 buffer are reused from call to call, and the buffer grows
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 400 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 2 ** 32 }),
        (items, m) => {
          for (const item of items) {
            expect(bloomPositions(item, m, 3)).toEqual(referencePositions(item, m, 3));
            const bytes = new Uint8Array(Buffer.from(item, 'utf8'));
            expect(bloomPositions(bytes, m, 3)).toEqual(referencePositions(item, m, 3));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hash a string as its UTF-8 bytes', () => {
    const s = 'naïve café ☕';
    expect(bloomPositions(s, 10_007, 6)).toEqual(
      bloomPositions(new Uint8Array(Buffer.from(s, 'utf8')), 10_007, 6),
    );
  });
});

describe('BloomFilter', () => {
  it('defaults to 100,000 items at 0.1%: 1,437,759 bits, 10 hashes, 179,720 bytes', () => {
    const filter = new BloomFilter();
    expect(filter.capacity).toBe(100_000);
    expect(filter.fpRate).toBe(0.001);
    expect(filter.sizeBits).toBe(1_437_759);
    expect(filter.hashCount).toBe(10);
    expect(filter.byteLength).toBe(179_720);
    expect(filter.fillRatio).toBe(0);
  });

  it('sets bit j at byte j >>> 3, mask 1 << (j & 7)', () => {
    const filter = new BloomFilter(10, 0.01); // m = 96, k = 7
    filter.add('alpha');
    const bits = filter.toBytes().subarray(BLOOM_HEADER_BYTES);
    const expected = new Uint8Array(bits.length);
    for (const j of referencePositions('alpha', 96, 7)) expected[j >>> 3]! |= 1 << (j & 7);
    expect(bits).toEqual(expected);
  });

  it('writes exactly the bytes of the Python reference (header + bits)', () => {
    const filter = new BloomFilter(100, 0.01);
    for (const s of ['alpha', 'beta', 'gamma', 'héllo wörld', '😀', '']) filter.add(s);
    expect(Buffer.from(filter.toBytes()).toString('hex')).toBe(
      '64000000000000007b14ae47e17a843fbf030000000000000700000000000000' +
        '0080200000000000100010000000800200600000000000080000000002000400' +
        '8080020000000004000080000000000001000000000800000000100000400002' +
        '0002110000000440200000200000240000010000000000000000008000080000' +
        '000000000240000080000000002000020100080200080000',
    );
  });

  it('property: no false negatives', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 200 }), (items) => {
        const filter = new BloomFilter(200, 0.01);
        for (const item of items) filter.add(item);
        for (const item of items) expect(filter.has(item)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('property: positions, then hasAt and addAt, answer and write what has and add do', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string(), { maxLength: 100 }),
        fc.array(fc.string(), { maxLength: 50 }),
        (added, asked) => {
          const plain = new BloomFilter(100, 0.01);
          const split = new BloomFilter(100, 0.01);
          for (const item of added) {
            expect(split.hasAt(split.positions(item))).toBe(plain.has(item));
            plain.add(item);
            split.addAt(split.positions(item));
          }
          expect(split.toBytes()).toEqual(plain.toBytes());
          for (const item of asked)
            expect(split.hasAt(split.positions(item))).toBe(plain.has(item));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('accepts byte items as well as strings', () => {
    const filter = new BloomFilter(100, 0.01);
    filter.add(new Uint8Array([1, 2, 3]));
    expect(filter.has(new Uint8Array([1, 2, 3]))).toBe(true);
    filter.add('abc');
    expect(filter.has(new Uint8Array([0x61, 0x62, 0x63]))).toBe(true);
    expect(() => filter.add(42 as unknown as string)).toThrow(invalid);
    expect(() => filter.has(null as unknown as string)).toThrow(invalid);
  });

  it('keeps the measured false-positive rate at capacity within 1.5x of the target', () => {
    const filter = new BloomFilter(20_000, 0.01);
    for (let i = 0; i < 20_000; i++) filter.add(`member-${i}`);
    let falsePositives = 0;
    const probes = 40_000;
    for (let i = 0; i < probes; i++) if (filter.has(`probe-${i}`)) falsePositives++;
    const rate = falsePositives / probes;
    expect(rate).toBeLessThanOrEqual(0.015);
    expect(rate).toBeGreaterThan(0.005); // the filter really is loaded, not trivially empty
    expect(filter.fillRatio).toBeGreaterThan(0.45);
    expect(filter.fillRatio).toBeLessThan(0.55); // optimal k fills about half the bits
  });

  it('round-trips through toBytes / fromBytes', () => {
    const filter = new BloomFilter(1000, 0.02);
    for (let i = 0; i < 500; i++) filter.add(`item-${i}`);
    const bytes = filter.toBytes();
    expect(bytes.length).toBe(BLOOM_HEADER_BYTES + Math.ceil(filter.sizeBits / 8));
    const restored = BloomFilter.fromBytes(bytes);
    expect(restored.capacity).toBe(1000);
    expect(restored.fpRate).toBe(0.02);
    expect(restored.sizeBits).toBe(filter.sizeBits);
    expect(restored.hashCount).toBe(filter.hashCount);
    expect(restored.toBytes()).toEqual(bytes);
    for (let i = 0; i < 500; i++) expect(restored.has(`item-${i}`)).toBe(true);
    // The restored filter owns a copy.
    bytes[BLOOM_HEADER_BYTES] = 0xff;
    expect(restored.toBytes()[BLOOM_HEADER_BYTES]).not.toBe(0xff);
  });

  it('fromBytes accepts a subarray view with a non-zero byte offset', () => {
    const filter = new BloomFilter(50, 0.05);
    filter.add('x');
    const raw = filter.toBytes();
    const padded = new Uint8Array(raw.length + 5);
    padded.set(raw, 5);
    expect(BloomFilter.fromBytes(padded.subarray(5)).has('x')).toBe(true);
  });

  it('rejects bad constructor arguments with INVALID_INPUT', () => {
    for (const [n, p] of [
      [0, 0.01],
      [-1, 0.01],
      [1.5, 0.01],
      [Number.NaN, 0.01],
      [100, Number.NaN],
      [100, 0],
      [100, 1],
      [100, -0.5],
      [100, 2],
      [1e12, 1e-9], // needs more than 2^32 bits
    ] as const) {
      expect(() => new BloomFilter(n, p)).toThrow(invalid);
    }
    expect(() => new BloomFilter('100' as unknown as number)).toThrow(invalid);
  });

  it('fromBytes rejects truncated, padded or inconsistent input with INVALID_INPUT', () => {
    const good = new BloomFilter(100, 0.01).toBytes();
    expect(() => BloomFilter.fromBytes(good.subarray(0, 31))).toThrow(invalid);
    expect(() => BloomFilter.fromBytes(good.subarray(0, good.length - 1))).toThrow(invalid);
    const longer = new Uint8Array(good.length + 1);
    longer.set(good);
    expect(() => BloomFilter.fromBytes(longer)).toThrow(invalid);
    expect(() => BloomFilter.fromBytes([1, 2, 3] as unknown as Uint8Array)).toThrow(invalid);

    const cases: ((v: DataView) => void)[] = [
      (v) => v.setUint32(0, 0, true), // capacity 0
      (v) => v.setUint32(4, 0x00200000, true), // capacity >= 2^53
      (v) => v.setFloat64(8, 0, true), // fp_rate 0
      (v) => v.setFloat64(8, 1, true), // fp_rate 1
      (v) => v.setFloat64(8, Number.NaN, true),
      (v) => v.setUint32(16, 0, true), // size_bits 0
      (v) => v.setUint32(20, 2, true), // size_bits > 2^32
      (v) => v.setUint32(24, 0, true), // hash_count 0
      (v) => v.setUint32(24, 5000, true), // hash_count absurd
      (v) => v.setUint32(16, 2000, true), // size_bits disagrees with the payload length
    ];
    for (const mutate of cases) {
      expect(() => BloomFilter.fromBytes(withHeader(mutate))).toThrow(invalid);
    }
  });
});
