import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileScan } from '../scripts/build-wasm.ts';
import { VECTOR_SCAN_WASM } from '../src/vector-scan-module.ts';
import { unitVector, VectorIndex } from '../src/vector-index.ts';

function brute(rows: Map<number, Float32Array>, q: Float32Array, k: number) {
  const uq = unitVector(q);
  return [...rows]
    .map(([rid, v]) => {
      const u = unitVector(v);
      let s = 0;
      for (let i = 0; i < u.length; i++) s += u[i]! * uq[i]!;
      return { rid, score: s };
    })
    .sort((a, b) => b.score - a.score || a.rid - b.rid)
    .slice(0, k);
}

describe('vector index', () => {
  it('ships the module compiled from vector-scan.wat', async () => {
    expect(Buffer.from(await compileScan()).toString('base64')).toBe(VECTOR_SCAN_WASM);
    expect(readFileSync(new URL('../src/vector-scan.wat', import.meta.url), 'utf8')).toContain(
      'f32x4.mul',
    );
  });

  it('uses the SIMD kernel here, and both kernels give identical scores', () => {
    const simd = new VectorIndex(7, 2);
    const js = new VectorIndex(7, 2, { simd: false });
    expect(simd.simd).toBe(true);
    expect(js.simd).toBe(false);
    const v = (i: number) => Float32Array.from({ length: 7 }, (_, j) => Math.sin(i * 7 + j));
    for (let i = 0; i < 50; i++) {
      simd.set(i, v(i));
      js.set(i, v(i));
    }
    const q = unitVector(v(1000));
    expect(simd.search(q, 10)).toEqual(js.search(q, 10));
    expect(simd.similarities([3, 4, 99], q)).toEqual(js.similarities([3, 4, 99], q));
  });

  it('property: search equals a brute-force ranking through adds, replaces, deletes and growth', () => {
    const vec = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
      minLength: 5,
      maxLength: 5,
    });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), rid: fc.nat({ max: 40 }), v: vec }),
      fc.record({ kind: fc.constant('delete' as const), rid: fc.nat({ max: 40 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 80 }),
        vec,
        fc.integer({ min: 1, max: 12 }),
        (ops, q, k) => {
          const index = new VectorIndex(5, 1);
          const model = new Map<number, Float32Array>();
          for (const o of ops) {
            if (o.kind === 'set') {
              index.set(o.rid, o.v);
              model.set(o.rid, Float32Array.from(o.v));
            } else {
              index.delete(o.rid);
              model.delete(o.rid);
            }
          }
          expect(index.size).toBe(model.size);
          const query = unitVector(q);
          const got = index.search(query, k);
          const want = brute(model, Float32Array.from(q), k);
          // Same scores, rank by rank; ids may differ only between rows tied within float32 error.
          expect(got).toHaveLength(want.length);
          got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 5));
          const exact = new Map(
            brute(model, Float32Array.from(q), model.size).map((h) => [h.rid, h.score]),
          );
          const floor = want.at(-1)?.score ?? -Infinity;
          for (const h of got) expect(exact.get(h.rid)!).toBeGreaterThanOrEqual(floor - 1e-5);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('restricts search to allowed rows and rejects wrong dimensions', () => {
    const index = new VectorIndex(3);
    index.set(1, [1, 0, 0]);
    index.set(2, [0.9, 0.1, 0]);
    index.set(3, [0, 1, 0]);
    expect(index.search(unitVector([1, 0, 0]), 2, new Set([3, 2])).map((h) => h.rid)).toEqual([
      2, 3,
    ]);
    expect(() => index.search(new Float32Array(4), 1)).toThrow(/dimensions/);
    expect(() => index.set(4, [1, 2])).toThrow(/dimensions/);
    expect(() => index.set(4, [1, NaN, 0])).toThrow(/finite/);
  });
});
