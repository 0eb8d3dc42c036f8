/**
 * An index whose rows joined by their int8 copy alone (`appendQuantized`, as an open reads the
 * snapshot parts), the float32 rows read from a source as searches, `get` and `similarities`
 * need them or by `fillStep`: every answer bit for bit an index loaded whole gives.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { int8Stride, quantize } from '../src/vectors/int8-rows.ts';
import { unitVector, VectorIndex, type RowSource } from '../src/vectors/vector-index.ts';

const dims = 12;

/** Stored rows as an open finds them: unit float32 bytes, and their int8 copy as a part holds it. */
function stored(
  vectors: readonly ArrayLike<number>[],
  rids = Float64Array.from(vectors, (_, i) => 1 + i),
  dims = vectors[0]!.length,
) {
  const n = vectors.length;
  const floats = new Float32Array(n * dims);
  vectors.forEach((v, i) => floats.set(unitVector(v), i * dims));
  const stride = int8Stride(dims);
  const q = {
    scales: new Float32Array(n),
    l1: new Float32Array(n),
    rows: new Int8Array(n * stride),
  };
  for (let i = 0; i < n; i++) {
    const { scale, l1 } = quantize(floats, i * dims, dims, q.rows, i * stride);
    q.scales[i] = scale;
    q.l1[i] = l1;
  }
  const bytes = new Uint8Array(floats.buffer);
  const byRid = new Map<number, Uint8Array>();
  rids.forEach((rid, i) => byRid.set(rid, bytes.slice(i * dims * 4, (i + 1) * dims * 4)));
  return { rids, bytes, q, byRid };
}

/** A source over `byRid` that records what each read asked for. */
function source(byRid: Map<number, Uint8Array>) {
  const reads: number[][] = [];
  const read: RowSource = (rids, put) => {
    reads.push([...rids]);
    for (const rid of rids) {
      const bytes = byRid.get(rid);
      if (bytes) put(rid, bytes);
    }
  };
  return { read, reads };
}

const vec = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
  minLength: dims,
  maxLength: dims,
});

describe('vector index: rows that join by their int8 copy', () => {
  it('property: answers bit for bit as an index loaded whole, through searches, sets, deletes and fill steps', () => {
    const op = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('search' as const),
          q: vec,
          k: fc.integer({ min: 1, max: 30 }),
          filter: fc.nat({ max: 2 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('set' as const),
          rid: fc.nat({ max: 400 }),
          v: vec,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('delete' as const), rid: fc.nat({ max: 400 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('fill' as const),
          rows: fc.integer({ min: 1, max: 50 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('get' as const),
          rids: fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
          q: vec,
        }),
      },
    );
    fc.assert(
      fc.property(
        fc.array(vec, { minLength: 40, maxLength: 300 }),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        (vectors, ops) => {
          const s = stored(vectors);
          const lazy = new VectorIndex(dims, 4, { quantizedFrom: 1 });
          const whole = new VectorIndex(dims, 4, { quantizedFrom: 1 });
          lazy.reserve(vectors.length);
          whole.reserve(vectors.length);
          expect(lazy.appendQuantized(s.rids, s.q, source(s.byRid).read)).toBe(true);
          whole.appendRows(s.rids, s.bytes, s.q);
          expect(lazy.absentRows).toBe(vectors.length);
          for (const o of ops) {
            if (o.kind === 'search') {
              const query = unitVector(o.q);
              const held = whole.rids();
              // none, a few (scored row by row) or most rows allowed
              const allowed =
                o.filter === 0
                  ? undefined
                  : new Set(
                      [...held].filter((rid, i) => (o.filter === 1 ? i % 11 === 0 : i % 3 !== 0)),
                    );
              expect(lazy.search(query, o.k, allowed)).toEqual(whole.search(query, o.k, allowed));
            } else if (o.kind === 'set') {
              lazy.set(o.rid, o.v);
              whole.set(o.rid, o.v);
            } else if (o.kind === 'delete') {
              lazy.delete(o.rid);
              whole.delete(o.rid);
            } else if (o.kind === 'fill') {
              lazy.fillStep(o.rows);
            } else {
              const query = unitVector(o.q);
              expect(lazy.getMany(o.rids)).toEqual(whole.getMany(o.rids));
              expect(lazy.similarities(o.rids, query)).toEqual(whole.similarities(o.rids, query));
            }
            expect(lazy.size).toBe(whole.size);
          }
          while (lazy.fillStep(64));
          expect(lazy.absentRows).toBe(0);
          const query = unitVector(vectors[0]!);
          expect(lazy.search(query, 10)).toEqual(whole.search(query, 10));
          expect(lazy.getMany([...whole.rids()])).toEqual(whole.getMany([...whole.rids()]));
        },
      ),
      { numRuns: 100, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: true },
    );
  });

  it('a search reads only the rows it scores exactly, once; fill steps read the rest, then nothing', () => {
    // 5,000 rows around a few directions, as memories cluster by topic
    const vectors = Array.from({ length: 5000 }, (_, i) =>
      Array.from({ length: dims }, (_, j) => Math.sin(i * 0.37 + j * (1 + (i % 7)))),
    );
    const s = stored(vectors);
    const src = source(s.byRid);
    const index = new VectorIndex(dims);
    index.reserve(vectors.length);
    expect(index.appendQuantized(s.rids, s.q, src.read)).toBe(true);
    const query = unitVector(vectors[123]!);
    const first = index.search(query, 10);
    expect(first[0]!.rid).toBe(124);
    expect(src.reads.length).toBeGreaterThan(0);
    const read = src.reads.flat().length;
    // the best 2k + 32 by their int8 score and the few whose error bound reaches the k-th
    expect(read).toBeLessThan(500);
    expect(index.absentRows).toBe(5000 - read);
    // asked again: every row it scores is in memory
    const reads = src.reads.length;
    expect(index.search(query, 10)).toEqual(first);
    expect(src.reads.length).toBe(reads);
    // the rest, a step at a time: each step one read of at most its rows
    let steps = 0;
    while (index.fillStep(1000)) steps++;
    expect(steps + 1).toBe(Math.ceil((5000 - read) / 1000));
    expect(src.reads.slice(reads).every((r) => r.length <= 1000)).toBe(true);
    expect(index.absentRows).toBe(0);
    const after = src.reads.length;
    expect(index.fillStep(1000)).toBe(false);
    index.search(unitVector(vectors[4000]!), 10);
    expect(src.reads.length).toBe(after);
  });

  it("a row reached only through its int8 copy's error bound is read and scored exactly too", () => {
    // as in vector-index.test.ts: the best row's int8 copy rounds what matches the query to 0, 40
    // rows fill the rows scored first, so the best row is scored only as one whose bound reaches
    // the k-th score
    const dims = 32;
    const query = unitVector(Array.from({ length: dims }, (_, j) => (j >= 1 && j <= 15 ? 1 : 0)));
    const rows = new Map<number, ArrayLike<number>>();
    rows.set(
      1000,
      Array.from({ length: dims }, (_, j) => (j === 0 ? 1 : j <= 15 ? 0.003 : 0)),
    );
    for (let rid = 0; rid < 40; rid++) {
      const u = unitVector(
        Array.from({ length: dims }, (_, j) => (j >= 16 ? 0.25 + 0.01 * Math.sin(rid * 7 + j) : 0)),
      );
      rows.set(
        rid,
        u.map((x, j) => 0.005 * query[j]! + Math.sqrt(1 - 0.005 ** 2) * x),
      );
    }
    for (let rid = 2000; rid < 3000; rid++)
      rows.set(
        rid,
        query.map((x, j) => -x + (j === 0 ? 0.2 + 0.001 * (rid % 97) : 0)),
      );
    const rids = Float64Array.from([...rows.keys()].sort((a, b) => a - b));
    const s = stored(
      [...rids].map((rid) => rows.get(rid)!),
      rids,
    );
    const index = new VectorIndex(dims, 16, { quantizedFrom: 1 });
    index.reserve(rids.length);
    index.appendQuantized(s.rids, s.q, source(s.byRid).read);
    expect(index.search(query, 1).map((h) => h.rid)).toEqual([1000]);
  });

  it('a row its source does not find reads as a zero row, never as memory another row left', () => {
    const vectors = Array.from({ length: 64 }, (_, i) =>
      Array.from({ length: dims }, (_, j) => Math.cos(i + j)),
    );
    const s = stored(vectors);
    s.byRid.delete(7);
    const index = new VectorIndex(dims, 4, { quantizedFrom: 1 });
    index.reserve(64);
    // rows held before, then deleted, leave their floats behind in the memory the new rows take
    for (let rid = 1000; rid < 1064; rid++) index.set(rid, vectors[0]!);
    for (let rid = 1000; rid < 1064; rid++) index.delete(rid);
    index.appendQuantized(s.rids, s.q, source(s.byRid).read);
    expect([...index.get(7)!]).toEqual(new Array(dims).fill(0));
    expect([...index.get(8)!]).toEqual([...new Float32Array(s.byRid.get(8)!.buffer.slice(0))]);
  });

  it('an index without an int8 copy takes no rows by it: the caller adds the float rows', () => {
    const s = stored([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]);
    const index = new VectorIndex(dims, 4, { quantizedFrom: Infinity });
    expect(index.quantized).toBe(false);
    expect(index.appendQuantized(s.rids, s.q, source(s.byRid).read)).toBe(false);
    expect(index.size).toBe(0);
  });
});
