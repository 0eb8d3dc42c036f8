/**
 * ARC — Adaptive Replacement Cache (Megiddo & Modha, FAST 2003), exactly as seed 002 §7 specifies
 * it: four insertion-ordered lists (insertion order = LRU order, oldest first) and an adaptive
 * target size `p` for T1.
 *
 * - T1: live entries seen once (recency). T2: live entries seen twice or more (frequency).
 * - B1 / B2: ghost keys (no values) recently evicted from T1 / T2.
 * - `get` hit in T1 moves the entry to the MRU end of T2; a hit in T2 refreshes it to the MRU end.
 *   A `get` of a ghost key is a plain miss with no side effects: the adaptation happens when the
 *   caller then `set`s the value it fetched.
 * - `set` of a key that is a ghost in B1: `p = min(capacity, p + max(1, |B2| // max(1, |B1|)))`;
 *   in B2: `p = max(0, p - max(1, |B1| // max(1, |B2|)))` (integer division). The ghost is dropped,
 *   one entry is evicted when `|T1| + |T2| >= capacity`, and the entry is inserted at the MRU end of
 *   T2 (it has now been seen twice).
 * - `set` of a brand-new key evicts when `|T1| + |T2| >= capacity`, then inserts at the MRU end of
 *   T1.
 * - `set` of a live key replaces the value: in T1 it stays where it is (a write is not a re-access,
 *   as in the reference implementation); in T2 it is refreshed to the MRU end.
 * - Eviction: if `|T1| > p` or T2 is empty, the LRU of T1 goes to the MRU end of B1; otherwise the
 *   LRU of T2 goes to the MRU end of B2. After each eviction the ghosts are trimmed: while
 *   `|B1| + |B2| > ghostCapacity`, the oldest key of the larger ghost list is dropped (B1 on a tie).
 */

import { AnamnesisError } from '@anamnesis/errors';

/** A read-only copy of the four lists (each oldest first) and `p`, for tests and debugging. */
export interface ArcSnapshot<K> {
  readonly t1: readonly K[];
  readonly t2: readonly K[];
  readonly b1: readonly K[];
  readonly b2: readonly K[];
  readonly p: number;
}

/** Counters and list sizes of an {@link ArcCache}. */
export interface ArcStats {
  /** Live entries seen once. */
  readonly t1Size: number;
  /** Live entries seen at least twice. */
  readonly t2Size: number;
  /** Ghost keys evicted from T1. */
  readonly b1Size: number;
  /** Ghost keys evicted from T2. */
  readonly b2Size: number;
  /** Maximum live entries (T1 + T2). */
  readonly capacity: number;
  /** Maximum ghost keys (B1 + B2). */
  readonly ghostCapacity: number;
  /** Current target size of T1, in entries, within [0, capacity]. */
  readonly p: number;
  /** `get` calls that found a live entry. */
  readonly hits: number;
  /** `get` calls that did not. */
  readonly misses: number;
  /** hits / (hits + misses); 0 before the first `get`. */
  readonly hitRate: number;
}

function assertPositiveInt(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a positive integer, got ${String(value)}`,
    );
  }
}

function oldest<K>(keys: Iterable<K>): K | undefined {
  for (const key of keys) return key;
  return undefined;
}

/** Adaptive Replacement Cache; see the module documentation for the exact rules. */
export class ArcCache<K, V> {
  /** Maximum number of live entries (T1 + T2). */
  readonly capacity: number;
  /** Maximum number of ghost keys (B1 + B2). */
  readonly ghostCapacity: number;

  #p = 0;
  readonly #t1 = new Map<K, V>();
  readonly #t2 = new Map<K, V>();
  readonly #b1 = new Set<K>();
  readonly #b2 = new Set<K>();
  #hits = 0;
  #misses = 0;

  /**
   * @param capacity Maximum live entries held in T1 + T2, a positive integer. Default 500.
   * @param ghostCapacity Maximum ghost keys held in B1 + B2, a positive integer. Default 1000.
   * @throws AnamnesisError `INVALID_INPUT` when either is not a positive safe integer.
   */
  constructor(capacity = 500, ghostCapacity = 1000) {
    assertPositiveInt(capacity, 'capacity');
    assertPositiveInt(ghostCapacity, 'ghostCapacity');
    this.capacity = capacity;
    this.ghostCapacity = ghostCapacity;
  }

  /** Live entries (|T1| + |T2|); never more than {@link capacity}. */
  get size(): number {
    return this.#t1.size + this.#t2.size;
  }

  /** Target size of T1 in entries, adapted on ghost hits; within [0, capacity]. Starts at 0. */
  get p(): number {
    return this.#p;
  }

  /** Number of `get` calls that returned a live entry. */
  get hits(): number {
    return this.#hits;
  }

  /** Number of `get` calls that did not. */
  get misses(): number {
    return this.#misses;
  }

  /**
   * The value for `key`, or `undefined` on a miss. A T1 hit moves the entry to the MRU end of T2;
   * a T2 hit refreshes it to the MRU end of T2. Counts a hit or a miss.
   */
  get(key: K): V | undefined {
    if (this.#t1.has(key)) {
      const value = this.#t1.get(key) as V;
      this.#t1.delete(key);
      this.#t2.set(key, value);
      this.#hits++;
      return value;
    }
    if (this.#t2.has(key)) {
      const value = this.#t2.get(key) as V;
      this.#t2.delete(key);
      this.#t2.set(key, value);
      this.#hits++;
      return value;
    }
    this.#misses++;
    return undefined;
  }

  /** True when `key` is live (in T1 or T2). No side effects: neither order nor counters change. */
  has(key: K): boolean {
    return this.#t1.has(key) || this.#t2.has(key);
  }

  /** Inserts or replaces the value for `key` following the ARC rules (see the module docs). */
  set(key: K, value: V): this {
    if (this.#t1.has(key)) {
      this.#t1.set(key, value); // in place: Map.set on an existing key keeps its position
      return this;
    }
    if (this.#t2.has(key)) {
      this.#t2.delete(key);
      this.#t2.set(key, value);
      return this;
    }
    if (this.#b1.has(key)) {
      const delta = Math.max(1, Math.floor(this.#b2.size / Math.max(1, this.#b1.size)));
      this.#p = Math.min(this.capacity, this.#p + delta);
      this.#b1.delete(key);
      if (this.size >= this.capacity) this.#evict();
      this.#t2.set(key, value);
      return this;
    }
    if (this.#b2.has(key)) {
      const delta = Math.max(1, Math.floor(this.#b1.size / Math.max(1, this.#b2.size)));
      this.#p = Math.max(0, this.#p - delta);
      this.#b2.delete(key);
      if (this.size >= this.capacity) this.#evict();
      this.#t2.set(key, value);
      return this;
    }
    if (this.size >= this.capacity) this.#evict();
    this.#t1.set(key, value);
    return this;
  }

  /**
   * Forgets `key` entirely: its live entry and any ghost of it. `p` and the counters are unchanged.
   * Returns true when a live entry was removed.
   */
  delete(key: K): boolean {
    const live = this.#t1.delete(key) || this.#t2.delete(key);
    this.#b1.delete(key);
    this.#b2.delete(key);
    return live;
  }

  /** Drops every live and ghost entry and resets `p`, `hits` and `misses` to 0. */
  clear(): void {
    this.#t1.clear();
    this.#t2.clear();
    this.#b1.clear();
    this.#b2.clear();
    this.#p = 0;
    this.#hits = 0;
    this.#misses = 0;
  }

  /** Counters and list sizes. */
  stats(): ArcStats {
    const total = this.#hits + this.#misses;
    return {
      t1Size: this.#t1.size,
      t2Size: this.#t2.size,
      b1Size: this.#b1.size,
      b2Size: this.#b2.size,
      capacity: this.capacity,
      ghostCapacity: this.ghostCapacity,
      p: this.#p,
      hits: this.#hits,
      misses: this.#misses,
      hitRate: total === 0 ? 0 : this.#hits / total,
    };
  }

  /** A copy of the four lists, each ordered LRU (oldest) first, and `p`. */
  snapshot(): ArcSnapshot<K> {
    return {
      t1: [...this.#t1.keys()],
      t2: [...this.#t2.keys()],
      b1: [...this.#b1],
      b2: [...this.#b2],
      p: this.#p,
    };
  }

  /** Evicts one live entry into a ghost list, then trims the ghosts. */
  #evict(): void {
    if (this.#t1.size > 0 && (this.#t1.size > this.#p || this.#t2.size === 0)) {
      const key = oldest(this.#t1.keys()) as K;
      this.#t1.delete(key);
      this.#b1.add(key);
    } else if (this.#t2.size > 0) {
      const key = oldest(this.#t2.keys()) as K;
      this.#t2.delete(key);
      this.#b2.add(key);
    }
    while (this.#b1.size + this.#b2.size > this.ghostCapacity) {
      const from = this.#b1.size >= this.#b2.size ? this.#b1 : this.#b2;
      from.delete(oldest(from) as K);
    }
  }
}
