import { AnamnesisError } from '@anamnesis/errors';
import { assertWellFormed } from './text.ts';
import type { MemoryFilter, MetaValue } from '../types.ts';

/** Metadata keys, tags-free identifiers: the only caller text that names anything in SQL. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** A WHERE fragment over `m` (the memories table) built only from fixed SQL and `?` parameters. */
export interface SqlFilter {
  where: string;
  params: (string | number | null)[];
}

/** The time of a Date, or `NaN` for an object that only inherits from `Date.prototype`. */
export function dateTime(value: Date): number {
  try {
    return Date.prototype.getTime.call(value);
  } catch {
    return NaN;
  }
}

/** Converts a time given as ms or Date to ms, rejecting anything else. */
export function toMillis(value: unknown, what: string): number {
  const ms = value instanceof Date ? dateTime(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a finite time in ms or a Date`);
  }
  return ms;
}

function strings(value: unknown, what: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((v) => typeof v !== 'string')) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a string or a non-empty array of strings`,
    );
  }
  return (list as string[]).map((v) => assertWellFormed(v, what));
}

/** Validates a metadata value: JSON scalars only. */
export function assertMetaValue(value: unknown, key: string): asserts value is MetaValue {
  if (typeof value === 'string') return void assertWellFormed(value, `meta.${key}`);
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number' && Number.isFinite(value)) return;
  throw new AnamnesisError(
    'INVALID_INPUT',
    `meta.${key} must be a string, a finite number, a boolean or null`,
  );
}

/** Identifiers that name parts of a JavaScript object rather than data: never metadata keys. */
const RESERVED_META_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Validates a metadata key: an identifier, not one of `__proto__`, `constructor`, `prototype`. */
export function assertMetaKey(key: string): void {
  if (!IDENTIFIER.test(key)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `metadata key ${JSON.stringify(key)} is not an identifier`,
    );
  }
  if (RESERVED_META_KEYS.has(key)) {
    throw new AnamnesisError('INVALID_INPUT', `metadata key ${JSON.stringify(key)} is reserved`);
  }
}

/** `forget`'s explicit target for every memory. */
export interface ForgetAll {
  all: true;
}

/**
 * True for `{ all: true }` and nothing else; `INVALID_INPUT` for an object with an `all` key that
 * is not exactly that (`{ all: false }`, `{ all: true, kind: 'x' }`): such a target is ambiguous.
 */
export function isForgetAll(target: unknown): target is ForgetAll {
  if (target === null || typeof target !== 'object' || !Object.hasOwn(target, 'all')) return false;
  const keys = Object.keys(target);
  if ((target as { all: unknown }).all !== true || keys.length !== 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'forget({ all: true }) takes no other key, and `all` must be true',
    );
  }
  return true;
}

/** The condition of a filter that selects every memory. */
export const EVERY_MEMORY = '1';

/**
 * Builds the SQL condition of a filter. A key whose value is `undefined` and an empty `meta` add
 * no condition: such a filter selects every memory ({@link EVERY_MEMORY}), which destructive
 * callers must refuse. Every value is bound; metadata keys are validated as
 * identifiers and also bound (as JSON paths), so no caller text is ever spliced into SQL.
 */
export function buildFilter(filter: MemoryFilter | undefined): SqlFilter {
  const parts: string[] = [];
  const params: (string | number | null)[] = [];
  if (filter === undefined) return { where: EVERY_MEMORY, params };
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    throw new AnamnesisError('INVALID_INPUT', 'filter must be an object');
  }
  const known = new Set(['tags', 'kind', 'session', 'after', 'before', 'meta', 'ids', 'pinned']);
  for (const key of Object.keys(filter)) {
    if (!known.has(key))
      throw new AnamnesisError('INVALID_INPUT', `unknown filter ${JSON.stringify(key)}`);
  }
  if (filter.tags !== undefined) {
    for (const tag of strings(filter.tags, 'filter.tags')) {
      parts.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?)');
      params.push(tag);
    }
  }
  if (filter.kind !== undefined) {
    const kinds = strings(filter.kind, 'filter.kind');
    parts.push(`m.kind IN (${kinds.map(() => '?').join(',')})`);
    params.push(...kinds);
  }
  if (filter.session !== undefined) {
    const sessions = strings(filter.session, 'filter.session');
    parts.push(`m.session IN (${sessions.map(() => '?').join(',')})`);
    params.push(...sessions);
  }
  if (filter.ids !== undefined) {
    parts.push('m.id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(strings(filter.ids, 'filter.ids')));
  }
  if (filter.pinned !== undefined) {
    if (typeof filter.pinned !== 'boolean')
      throw new AnamnesisError('INVALID_INPUT', 'filter.pinned must be a boolean');
    parts.push(
      filter.pinned
        ? 'EXISTS (SELECT 1 FROM pins p WHERE p.rid = m.rid)'
        : 'NOT EXISTS (SELECT 1 FROM pins p WHERE p.rid = m.rid)',
    );
  }
  if (filter.after !== undefined) {
    parts.push('m.created_at >= ?');
    params.push(toMillis(filter.after, 'filter.after'));
  }
  if (filter.before !== undefined) {
    parts.push('m.created_at < ?');
    params.push(toMillis(filter.before, 'filter.before'));
  }
  if (filter.meta !== undefined) {
    if (filter.meta === null || typeof filter.meta !== 'object' || Array.isArray(filter.meta)) {
      throw new AnamnesisError('INVALID_INPUT', 'filter.meta must be an object');
    }
    for (const [key, value] of Object.entries(filter.meta)) {
      assertMetaKey(key);
      assertMetaValue(value, key);
      if (value === null) {
        parts.push("json_type(m.meta, ?) = 'null'");
        params.push(`$.${key}`);
      } else if (typeof value === 'boolean') {
        parts.push(`json_type(m.meta, ?) = ?`);
        params.push(`$.${key}`, value ? 'true' : 'false');
      } else {
        parts.push('json_extract(m.meta, ?) = ?');
        params.push(`$.${key}`, value);
      }
    }
  }
  return { where: parts.length ? parts.join(' AND ') : EVERY_MEMORY, params };
}
