import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileScan } from '../scripts/build-wasm.ts';
import { VECTOR_SCAN_WASM } from '../src/vectors/vector-scan-module.ts';
import { unitVector, VectorIndex } from '../src/vectors/vector-index.ts';

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
    const wat = readFileSync(new URL('../src/vectors/vector-scan.wat', import.meta.url), 'utf8');
    expect(wat).toContain('f32x4.mul');
    expect(wat).toContain('i16x8.extmul_low_i8x16_s');
  });

  it('property: the int8 path answers exactly as the float32 scan, through adds, deletes, growth and filters', () => {
    const dims = 12;
    const vec = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
      minLength: dims,
      maxLength: dims,
    });
    const op = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('set' as const),
          rid: fc.nat({ max: 300 }),
          v: vec,
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('delete' as const), rid: fc.nat({ max: 300 }) }),
      },
    );
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 50, maxLength: 400 }),
        vec,
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (ops, q, k, filtered) => {
          const quantized = new VectorIndex(dims, 4, { quantizedFrom: 1 });
          const plain = new VectorIndex(dims, 4, { quantizedFrom: Infinity });
          for (const o of ops) {
            for (const index of [quantized, plain]) {
              if (o.kind === 'set') index.set(o.rid, o.v);
              else index.delete(o.rid);
            }
          }
          const query = unitVector(q);
          const allowed = filtered
            ? new Set(ops.map((o) => o.rid).filter((r) => r % 3 !== 0))
            : undefined;
          // the same hits, scores bit for bit, in the same order
          expect(quantized.search(query, k, allowed)).toEqual(plain.search(query, k, allowed));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('after a delete, the row the last vector moves into is searched by that vector', () => {
    // A first, then 80 rows part way to the query, then C (the query's direction) last: deleting A
    // moves C into A's row. The int8 copy of that row must become C's: were it still A's (opposite
    // to the query), C's approximate score would leave it out of the rows scored exactly (the best
    // 2k + 32 and those whose bound reaches the k-th), and a part-way row would answer first. The
    // part-way rows differ, so only a few reach the k-th score (many tied would take the full
    // float scan instead, which reads C's float row and hides a stale int8 copy).
    const dims = 16;
    const index = new VectorIndex(dims, 4, { quantizedFrom: 1 });
    const toward = (x: number, i: number) =>
      Float32Array.from({ length: dims }, (_, j) => (j === 0 ? x : j === 1 + (i % 15) ? 1 : 0));
    index.set(1000, toward(-1, 0)); // A: away from the query
    for (let rid = 0; rid < 80; rid++) index.set(rid, toward(0.1 + (0.5 * rid) / 80, rid)); // part way
    index.set(
      2000,
      toward(1, 0).map((x, j) => (j === 0 ? 1 : 0)),
    ); // C: the query's direction
    index.delete(1000);
    const query = unitVector(Float32Array.from({ length: dims }, (_, j) => (j === 0 ? 1 : 0)));
    expect(index.search(query, 1, undefined).map((h) => h.rid)).toEqual([2000]);
    expect(index.search(query, 3, undefined)[0]!.rid).toBe(2000);
  });

  it('property: a search over a few allowed rows answers as the full scan, bit for bit', () => {
    const dims = 8;
    const vec = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
      minLength: dims,
      maxLength: dims,
    });
    fc.assert(
      fc.property(
        fc.array(vec, { minLength: 64, maxLength: 300 }),
        fc.uniqueArray(fc.nat({ max: 400 }), { maxLength: 12 }),
        vec,
        fc.integer({ min: 1, max: 20 }),
        fc.boolean(),
        (vectors, picked, q, k, quantized) => {
          const index = new VectorIndex(dims, 4, { quantizedFrom: quantized ? 1 : Infinity });
          vectors.forEach((v, rid) => index.set(rid, v));
          const query = unitVector(q);
          // picked may name rids with no vector (beyond the stored ones): they are no hits
          const few = new Set(picked);
          const full = index
            .search(query, vectors.length, undefined)
            .filter((h) => few.has(h.rid))
            .slice(0, k);
          expect(index.search(query, k, few)).toEqual(full);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the int8 path is exact on clustered, near-tied rows too', () => {
    const dims = 100;
    const quantized = new VectorIndex(dims, 16, { quantizedFrom: 1 });
    const plain = new VectorIndex(dims, 16, { quantizedFrom: Infinity });
    const base = Float32Array.from({ length: dims }, (_, j) => Math.cos(j));
    for (let rid = 0; rid < 3000; rid++) {
      // one direction plus tiny noise: approximate scores are all within the error bound
      const v = base.map((x, j) => x + 1e-3 * Math.sin(rid * 31 + j * 7));
      if (rid % 500 === 0) v.fill(0); // zero vectors score 0
      quantized.set(rid, v);
      plain.set(rid, v);
    }
    for (const k of [1, 10, 60]) {
      const q = unitVector(base.map((x, j) => x + 0.01 * Math.sin(j * k)));
      expect(quantized.search(q, k)).toEqual(plain.search(q, k));
    }
    // a zero query (no word the model knows) ties every row at 0: the same hits as the float scan
    const zero = new Float32Array(dims);
    expect(quantized.search(zero, 10)).toEqual(plain.search(zero, 10));
    expect(quantized.search(zero, 10).map((h) => h.score)).toEqual(Array(10).fill(0));
    expect(quantized.bytes).toBeGreaterThan(plain.bytes);
  });

  it("the int8 path finds a row whose int8 copy lost what matches the query, by that row's own error bound", () => {
    // the best row holds the query's direction only in components far below its largest one,
    // which its int8 copy rounds to 0 (approximate score 0); 40 rows score less exactly but more
    // approximately, so they fill the rows scored exactly first, and the best row is reached only
    // through its error bound; 1,000 rows far from the query keep the search from falling back to
    // the full float scan
    const dims = 32;
    const quantized = new VectorIndex(dims, 16, { quantizedFrom: 1 });
    const plain = new VectorIndex(dims, 16, { quantizedFrom: Infinity });
    const query = unitVector(Array.from({ length: dims }, (_, j) => (j >= 1 && j <= 15 ? 1 : 0)));
    const best = Array.from({ length: dims }, (_, j) => (j === 0 ? 1 : j <= 15 ? 0.003 : 0));
    for (const index of [quantized, plain]) {
      index.set(1000, best);
      for (let rid = 0; rid < 40; rid++) {
        const spread = Array.from({ length: dims }, (_, j) =>
          j >= 16 ? 0.25 + 0.01 * Math.sin(rid * 7 + j) : 0,
        );
        const u = unitVector(spread);
        index.set(
          rid,
          u.map((x, j) => 0.005 * query[j]! + Math.sqrt(1 - 0.005 ** 2) * x),
        );
      }
      for (let rid = 2000; rid < 3000; rid++)
        index.set(
          rid,
          query.map((x, j) => -x + (j === 0 ? 0.2 + 0.001 * (rid % 97) : 0)),
        );
    }
    const exact = plain.search(query, 1);
    expect(exact[0]!.rid).toBe(1000);
    expect(quantized.search(query, 1)).toEqual(exact);
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

  it('grows by a quarter, not by doubling: one past a power of two reserves at most 1.25× an exact fit', () => {
    const dims = 100;
    const n = 2 ** 14 + 1; // a doubling index would reserve room for 2^15 rows here
    const row = (i: number) => Array.from({ length: dims }, (_, d) => Math.sin(i * 7.1 + d));
    const grown = new VectorIndex(dims);
    const exact = new VectorIndex(dims, n);
    for (let i = 0; i < n; i++) {
      grown.set(i + 1, row(i));
      exact.set(i + 1, row(i));
    }
    // both quantized (past 4,096 rows), so the ratio compares like with like
    expect(grown.bytes / exact.bytes).toBeGreaterThan(1);
    expect(grown.bytes / exact.bytes).toBeLessThan(1.3);
    expect(grown.search(unitVector(row(77)), 1)[0]!.rid).toBe(78);
  });
});
