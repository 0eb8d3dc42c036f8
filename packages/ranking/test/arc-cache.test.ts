import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArcCache } from '../src/arc-cache.ts';

/**
 * A literal transcription of the seed 002 §7 rules over plain arrays (oldest first), written
 * independently of the implementation, for differential testing.
 */
class ReferenceArc {
  t1: number[] = [];
  t2: number[] = [];
  b1: number[] = [];
  b2: number[] = [];
  values = new Map<number, number>();
  p = 0;

  constructor(
    readonly c: number,
    readonly ghostCap: number,
  ) {}

  get(key: number): number | undefined {
    if (this.t1.includes(key)) {
      this.t1 = this.t1.filter((k) => k !== key);
      this.t2.push(key); // T1 hit: to the MRU end of T2
      return this.values.get(key);
    }
    if (this.t2.includes(key)) {
      this.t2 = this.t2.filter((k) => k !== key);
      this.t2.push(key); // T2 hit: refresh
      return this.values.get(key);
    }
    return undefined;
  }

  set(key: number, value: number): void {
    if (this.t1.includes(key)) {
      this.values.set(key, value);
      return;
    }
    if (this.t2.includes(key)) {
      this.values.set(key, value);
      this.t2 = this.t2.filter((k) => k !== key);
      this.t2.push(key);
      return;
    }
    if (this.b1.includes(key)) {
      const delta = Math.max(1, Math.floor(this.b2.length / Math.max(1, this.b1.length)));
      this.p = Math.min(this.c, this.p + delta);
      this.b1 = this.b1.filter((k) => k !== key);
      if (this.t1.length + this.t2.length >= this.c) this.evict();
      this.t2.push(key);
      this.values.set(key, value);
      return;
    }
    if (this.b2.includes(key)) {
      const delta = Math.max(1, Math.floor(this.b1.length / Math.max(1, this.b2.length)));
      this.p = Math.max(0, this.p - delta);
      this.b2 = this.b2.filter((k) => k !== key);
      if (this.t1.length + this.t2.length >= this.c) this.evict();
      this.t2.push(key);
      this.values.set(key, value);
      return;
    }
    if (this.t1.length + this.t2.length >= this.c) this.evict();
    this.t1.push(key);
    this.values.set(key, value);
  }

  evict(): void {
    if (this.t1.length > this.p || this.t2.length === 0) {
      const key = this.t1.shift()!;
      this.values.delete(key);
      this.b1.push(key);
    } else {
      const key = this.t2.shift()!;
      this.values.delete(key);
      this.b2.push(key);
    }
    while (this.b1.length + this.b2.length > this.ghostCap) {
      if (this.b1.length >= this.b2.length) this.b1.shift();
      else this.b2.shift();
    }
  }
}

type Op = { kind: 'get'; key: number } | { kind: 'set'; key: number; value: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
  fc.record({
    kind: fc.constant('set' as const),
    key: fc.integer({ min: 0, max: 9 }),
    value: fc.integer(),
  }),
);

describe('ArcCache', () => {
  it('has the seed defaults: capacity 500, ghost capacity 1000, p = 0', () => {
    const cache = new ArcCache<string, number>();
    expect(cache.capacity).toBe(500);
    expect(cache.ghostCapacity).toBe(1000);
    expect(cache.p).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('rejects capacities that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3']) {
      expect(() => new ArcCache(bad as number)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
      expect(() => new ArcCache(3, bad as number)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });

  it('inserts new keys into T1 and counts hits and misses on get only', () => {
    const cache = new ArcCache<string, number>(3, 3);
    cache.set('a', 1).set('b', 2);
    expect(cache.snapshot()).toEqual({ t1: ['a', 'b'], t2: [], b1: [], b2: [], p: 0 });
    expect(cache.get('zzz')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, hitRate: 0.5 });
  });

  it('moves a T1 hit to the MRU end of T2 and refreshes a T2 hit', () => {
    const cache = new ArcCache<string, number>(4, 4);
    cache.set('a', 1).set('b', 2).set('c', 3);
    cache.get('b');
    cache.get('a');
    expect(cache.snapshot()).toMatchObject({ t1: ['c'], t2: ['b', 'a'] });
    cache.get('b');
    expect(cache.snapshot()).toMatchObject({ t1: ['c'], t2: ['a', 'b'] });
  });

  it('set on a live key replaces the value: in place in T1, refreshed in T2', () => {
    const cache = new ArcCache<string, number>(4, 4);
    cache.set('a', 1).set('b', 2).set('a', 10);
    expect(cache.snapshot()).toMatchObject({ t1: ['a', 'b'], t2: [] });
    cache.get('a');
    cache.get('b');
    cache.set('a', 100);
    expect(cache.snapshot()).toMatchObject({ t1: [], t2: ['b', 'a'] });
    expect(cache.get('a')).toBe(100);
  });

  it('evicts the LRU of T1 into B1 when |T1| > p, and of T2 into B2 otherwise', () => {
    const cache = new ArcCache<string, number>(2, 10);
    cache.set('a', 1).set('b', 2).set('c', 3); // |T1| = 2 > p = 0
    expect(cache.snapshot()).toMatchObject({ t1: ['b', 'c'], b1: ['a'] });

    const other = new ArcCache<string, number>(2, 10);
    other.set('a', 1).set('b', 2);
    other.get('a');
    other.get('b'); // T1 empty, T2 [a, b]
    other.set('c', 3); // |T1| = 0, not > p = 0, T2 non-empty: evict T2's LRU
    expect(other.snapshot()).toMatchObject({ t1: ['c'], t2: ['b'], b1: [], b2: ['a'] });
  });

  it('evicts from T1 when T2 is empty even if |T1| <= p', () => {
    const cache = new ArcCache<string, number>(1, 10);
    cache.set('a', 1).set('b', 2); // a -> B1
    cache.set('a', 1); // B1 hit: p = min(1, 0 + 1) = 1; |T1| = 1 <= p but T2 is empty: b -> B1
    expect(cache.snapshot()).toEqual({ t1: [], t2: ['a'], b1: ['b'], b2: [], p: 1 });
    cache.delete('a');
    cache.set('c', 3).set('d', 4); // again |T1| = 1 <= p = 1 with T2 empty: c -> B1
    expect(cache.snapshot()).toEqual({ t1: ['d'], t2: [], b1: ['b', 'c'], b2: [], p: 1 });
  });

  it('computes delta = |B2| // |B1| on a B1 hit', () => {
    const cache = new ArcCache<string, number>(2, 100);
    // Fill B2 with 4 keys: each set+get puts a key in T2; new keys then push T2's LRU to B2.
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) {
      cache.set(k, 0);
      cache.get(k);
    }
    expect(cache.snapshot()).toEqual({
      t1: [],
      t2: ['e', 'f'],
      b1: [],
      b2: ['a', 'b', 'c', 'd'],
      p: 0,
    });
    cache.set('x', 0); // |T1| = 0, not > p: T2's LRU e -> B2
    cache.set('y', 0); // |T1| = 1 > 0: x -> B1
    expect(cache.snapshot()).toMatchObject({ b1: ['x'], b2: ['a', 'b', 'c', 'd', 'e'] });
    cache.set('x', 0); // B1 hit: delta = max(1, 5 // 1) = 5, p = min(2, 0 + 5) = 2
    expect(cache.p).toBe(2);
  });

  it('computes delta = |B1| // |B2| on a B2 hit', () => {
    const cache = new ArcCache<string, number>(1, 100);
    cache.set('a', 0);
    cache.get('a'); // T2 [a]
    cache.set('b', 0); // evict a -> B2
    for (const k of ['c', 'd', 'e', 'f']) cache.set(k, 0); // b, c, d, e -> B1
    expect(cache.snapshot()).toMatchObject({ t1: ['f'], b1: ['b', 'c', 'd', 'e'], b2: ['a'] });
    cache.set('b', 0); // B1 hit: delta = max(1, 1 // 4) = 1, p = min(1, 1) = 1
    expect(cache.p).toBe(1);
    cache.set('a', 0); // B2 hit: delta = max(1, |B1| // |B2|) = max(1, 4 // 1) = 4, p = 0
    expect(cache.p).toBe(0);
    expect(cache.snapshot().t2).toEqual(['a']);
  });

  it('trims the combined ghosts to ghostCapacity, oldest of the larger list first (B1 on ties)', () => {
    const cache = new ArcCache<string, number>(1, 2);
    cache.set('a', 0);
    cache.get('a');
    cache.set('b', 0); // a -> B2
    cache.set('c', 0); // b -> B1: B1 [b], B2 [a]
    cache.set('d', 0); // c -> B1: 3 ghosts > 2, B1 (2) >= B2 (1): drop b
    expect(cache.snapshot()).toMatchObject({ b1: ['c'], b2: ['a'] });
    cache.set('e', 0); // d -> B1: B1 [c, d], B2 [a] -> drop c
    expect(cache.snapshot()).toMatchObject({ b1: ['d'], b2: ['a'] });

    const tie = new ArcCache<string, number>(1, 1);
    tie.set('a', 0);
    tie.get('a');
    tie.set('b', 0); // a -> B2
    tie.set('c', 0); // b -> B1: |B1| = |B2| = 1 > 1 in total, tie: drop from B1
    expect(tie.snapshot()).toMatchObject({ b1: [], b2: ['a'] });
  });

  it('get on a ghost key is a miss without side effects', () => {
    const cache = new ArcCache<string, number>(1, 5);
    cache.set('a', 1).set('b', 2);
    const before = cache.snapshot();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.snapshot()).toEqual(before);
    expect(cache.misses).toBe(1);
  });

  it('has() sees live entries only and changes nothing', () => {
    const cache = new ArcCache<string, number>(1, 5);
    cache.set('a', 1).set('b', 2);
    const before = cache.snapshot();
    expect(cache.has('b')).toBe(true);
    expect(cache.has('a')).toBe(false); // ghost
    expect(cache.snapshot()).toEqual(before);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 0 });
  });

  it('delete forgets live and ghost entries; clear resets everything', () => {
    const cache = new ArcCache<string, number>(2, 5);
    cache.set('a', 1).set('b', 2).set('c', 3); // a -> B1
    expect(cache.delete('b')).toBe(true);
    expect(cache.delete('a')).toBe(false); // only a ghost, still forgotten
    expect(cache.snapshot()).toEqual({ t1: ['c'], t2: [], b1: [], b2: [], p: 0 });
    cache.set('a', 1); // a brand-new key again: T1, no p change
    expect(cache.snapshot()).toMatchObject({ t1: ['c', 'a'], p: 0 });
    cache.get('a');
    cache.clear();
    expect(cache.snapshot()).toEqual({ t1: [], t2: [], b1: [], b2: [], p: 0 });
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 0, hitRate: 0, t1Size: 0 });
  });

  it('follows a hand-computed trace through every rule', () => {
    const c = new ArcCache<string, number>(3, 2);
    const snap = () => c.snapshot();
    c.set('a', 1).set('b', 2).set('c', 3);
    expect(snap()).toEqual({ t1: ['a', 'b', 'c'], t2: [], b1: [], b2: [], p: 0 });
    expect(c.get('a')).toBe(1); // T1 hit -> T2
    expect(snap()).toEqual({ t1: ['b', 'c'], t2: ['a'], b1: [], b2: [], p: 0 });
    c.set('d', 4); // full; |T1| = 2 > 0: b -> B1
    expect(snap()).toEqual({ t1: ['c', 'd'], t2: ['a'], b1: ['b'], b2: [], p: 0 });
    c.set('e', 5); // c -> B1
    expect(snap()).toEqual({ t1: ['d', 'e'], t2: ['a'], b1: ['b', 'c'], b2: [], p: 0 });
    c.set('b', 22); // B1 hit: delta = max(1, 0 // 2) = 1 -> p = 1; full; |T1| = 2 > 1: d -> B1
    expect(snap()).toEqual({ t1: ['e'], t2: ['a', 'b'], b1: ['c', 'd'], b2: [], p: 1 });
    expect(c.get('e')).toBe(5); // T1 hit -> T2
    expect(snap()).toEqual({ t1: [], t2: ['a', 'b', 'e'], b1: ['c', 'd'], b2: [], p: 1 });
    c.set('f', 6); // |T1| = 0 <= p, T2 non-empty: a -> B2; 3 ghosts > 2: B1 is larger, drop c
    expect(snap()).toEqual({ t1: ['f'], t2: ['b', 'e'], b1: ['d'], b2: ['a'], p: 1 });
    c.set('a', 11); // B2 hit: delta = max(1, 1 // 1) = 1 -> p = 0; |T1| = 1 > 0: f -> B1
    expect(snap()).toEqual({ t1: [], t2: ['b', 'e', 'a'], b1: ['d', 'f'], b2: [], p: 0 });
    expect(c.get('a')).toBe(11);
    expect(c.get('b')).toBe(22);
    expect(c.get('f')).toBeUndefined();
    expect(c.stats()).toMatchObject({ hits: 4, misses: 1, t2Size: 3, b1Size: 2 });
  });

  it('property: size <= capacity, ghosts <= ghostCapacity, 0 <= p <= capacity, lists disjoint', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(opArb, { maxLength: 150 }),
        (capacity, ghostCapacity, ops) => {
          const cache = new ArcCache<number, number>(capacity, ghostCapacity);
          for (const op of ops) {
            if (op.kind === 'get') cache.get(op.key);
            else cache.set(op.key, op.value);
            const s = cache.snapshot();
            expect(cache.size).toBeLessThanOrEqual(capacity);
            expect(s.b1.length + s.b2.length).toBeLessThanOrEqual(ghostCapacity);
            expect(s.p).toBeGreaterThanOrEqual(0);
            expect(s.p).toBeLessThanOrEqual(capacity);
            const all = [...s.t1, ...s.t2, ...s.b1, ...s.b2];
            expect(new Set(all).size).toBe(all.length);
          }
        },
      ),
    );
  });

  it('property: matches the reference model step by step on random traces', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(opArb, { maxLength: 150 }),
        (capacity, ghostCapacity, ops) => {
          const cache = new ArcCache<number, number>(capacity, ghostCapacity);
          const model = new ReferenceArc(capacity, ghostCapacity);
          for (const op of ops) {
            if (op.kind === 'get') {
              expect(cache.get(op.key)).toBe(model.get(op.key));
            } else {
              cache.set(op.key, op.value);
              model.set(op.key, op.value);
            }
            expect(cache.snapshot()).toEqual({
              t1: model.t1,
              t2: model.t2,
              b1: model.b1,
              b2: model.b2,
              p: model.p,
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
