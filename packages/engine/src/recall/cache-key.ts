import { AnamnesisError } from '@anamnesis/errors';
import { dateTime } from '../input/filter.ts';
import type { RecallOptions } from '../types.ts';

/** The recall cache's time slot, ms: an answer is served from the cache within one minute's slot. */
export const RECALL_CACHE_SLOT_MS = 60_000;

/**
 * The recall cache's key of a normalised query: the store's generation (any committed change), the
 * time slot of `now` (scores depend on age: priors, recency profiles), the query and the options.
 */
export function recallKey(
  generation: number,
  now: number,
  query: string,
  options: RecallOptions,
): string {
  return `${generation}\u0000${Math.floor(now / RECALL_CACHE_SLOT_MS)}\u0000${query}\u0000${cacheKey(options)}`;
}

/** Freezes a cached answer and everything in it: callers share it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * An injective text key for recall options: unlike `JSON.stringify`, values that validate
 * differently never share a key (`NaN` vs `null`, a `Date` vs its ISO string, a present
 * `undefined` or function vs an absent key), so an invalid call can never be answered from the
 * cache of a valid one. BigInts are encoded; a cycle is `INVALID_INPUT`.
 */
export function cacheKey(value: unknown): string {
  const path = new Set<object>();
  const encode = (v: unknown): string => {
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint':
        return `${v}n`;
      case 'boolean':
        return v ? 'true' : 'false';
      case 'undefined':
        return 'undefined';
      case 'function':
        return 'function';
      case 'symbol':
        return 'symbol';
    }
    if (v === null) return 'null';
    const o = v as object;
    if (path.has(o))
      throw new AnamnesisError('INVALID_INPUT', 'recall options must not contain cycles');
    if (o instanceof Date) return `Date(${dateTime(o)})`;
    path.add(o);
    try {
      if (Array.isArray(o)) return `[${o.map(encode).join(',')}]`;
      const proto = Object.getPrototypeOf(o) as { constructor?: { name?: unknown } } | null;
      const name = proto?.constructor?.name;
      const tag = proto === Object.prototype ? '' : typeof name === 'string' ? name : 'null';
      const fields = Object.keys(o).map(
        (k) => `${JSON.stringify(k)}:${encode((o as Record<string, unknown>)[k])}`,
      );
      return `${tag}{${fields.join(',')}}`;
    } finally {
      path.delete(o);
    }
  };
  return encode(value);
}
