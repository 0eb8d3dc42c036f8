import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { Int8Rows, SAMPLE_STRIDE, sampledRow } from '../src/vectors/int8-rows.ts';
import { unitVector } from '../src/vectors/vector-index.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/**
 * Unit rows and a query (dims 12) shaped to test the kernel's lists: spread at random, tied
 * (rows drawn from four vectors), with the rows nearest the query all on or all off every 16th
 * row (a period a sample could alias with), or exactly the rows `best` samples (so that its floor
 * is too high and it falls back to every row).
 */
const matrix = fc
  .tuple(
    fc.integer({ min: 1, max: 3000 }),
    fc.constantFrom('random', 'ties', 'onStride', 'offStride', 'sampled'),
    fc.nat(),
  )
  .map(([n, shape, seed]) => {
    const dims = 12;
    const next = random(seed);
    const vec = () => unitVector(Float32Array.from({ length: dims }, () => next() * 2 - 1));
    const query = vec();
    const few = [vec(), vec(), vec(), vec()];
    const sampled = new Set(
      Array.from({ length: Math.floor(n / SAMPLE_STRIDE) }, (_, at) =>
        sampledRow(at, SAMPLE_STRIDE),
      ),
    );
    const rows = Array.from({ length: n }, (_, r) => {
      if (shape === 'ties') return few[r % 4]!;
      const near =
        shape === 'sampled' ? sampled.has(r) : shape === 'onStride' ? r % 16 === 0 : r % 16 !== 0;
      if (shape !== 'random' && near) return unitVector(query.map((x) => x + 0.2 * next()));
      return vec();
    });
    return { dims, rows, query };
  });

function load({ dims, rows }: { dims: number; rows: Float32Array[] }): Int8Rows {
  const q8 = Int8Rows.create(dims, rows.length)!;
  rows.forEach((v, r) => q8.set(r, v));
  return q8;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('Int8Rows', () => {
  it('property: best keeps the m best approximate scores, through its sampled floor and its fallback', () => {
    fc.assert(
      fc.property(matrix, fc.integer({ min: 1, max: 200 }), fc.boolean(), (m0, k, skipping) => {
        const q8 = load(m0);
        const n = m0.rows.length;
        const m = Math.min(n, k);
        const scores = Float32Array.from(q8.scan(m0.query, n).scores);
        const skip = skipping ? (row: number) => row % 5 === 0 : undefined;
        const rows = [...q8.best(n, m, skip)];
        const kept = [...scores.keys()].filter((row) => !skip?.(row));
        const want = kept.map((row) => scores[row]!).sort((a, b) => b - a);
        expect(new Set(rows).size).toBe(rows.length);
        expect(rows.every((row) => row >= 0 && row < n && !skip?.(row))).toBe(true);
        expect(rows.map((row) => scores[row]!).sort((a, b) => b - a)).toEqual(
          want.slice(0, Math.min(m, want.length)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('property: reaching lists, ascending, every row whose exact score reaches the floor', () => {
    fc.assert(
      fc.property(matrix, fc.double({ min: -1.2, max: 1.2, noNaN: true }), (m0, floor) => {
        const q8 = load(m0);
        const n = m0.rows.length;
        q8.scan(m0.query, n);
        const listed = q8.reaching(floor, n);
        expect(listed).toEqual([...new Set(listed)].sort((a, b) => a - b));
        const held = new Set(listed);
        m0.rows.forEach((v, row) => {
          if (dot(v, m0.query) >= floor) expect(held.has(row)).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('more rows than the kernel lists at once reach the floor: every row is read instead', () => {
    const next = random(11);
    const v = unitVector(Float32Array.from({ length: 12 }, () => next() - 0.5));
    const rows = Array.from({ length: 20_000 }, () => v);
    const q8 = load({ dims: 12, rows });
    const { scores } = q8.scan(v, rows.length);
    expect(q8.reaching(0.5, rows.length)).toEqual([...rows.keys()]);
    const best = q8.best(rows.length, 100);
    expect(best.length).toBe(100);
    expect(new Set([...best].map((row) => scores[row]))).toEqual(new Set([scores[0]]));
  });

  it('reaching with no floor lists every row, and a floor above every score lists none', () => {
    const next = random(7);
    const rows = Array.from({ length: 100 }, () =>
      unitVector(Float32Array.from({ length: 12 }, () => next() - 0.5)),
    );
    const q8 = load({ dims: 12, rows });
    q8.scan(rows[0]!, rows.length);
    expect(q8.reaching(-Infinity, rows.length)).toEqual([...rows.keys()]);
    expect(q8.reaching(2, rows.length)).toEqual([]);
  });
});
