/**
 * A LangChain `Document`'s metadata as anamnesis `meta`, and back. anamnesis keeps metadata as flat
 * JSON scalars under identifier keys (those are what its filters compare); LangChain metadata may
 * hold anything JSON can (text splitters add `loc: { lines: { from, to } }`). So each entry whose
 * key is an identifier and whose value is a string, a finite number, a boolean or null is stored
 * as a `meta` field of its own (filterable); every other entry is kept, JSON-encoded, under the one
 * reserved key {@link EXTRA_KEY}. Decoding merges the two back into the original object.
 */
import type { MetaValue } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

/** The `meta` key that holds the metadata entries anamnesis cannot store as fields, as JSON. */
export const EXTRA_KEY = '__langchain';

/** The engine's rule for metadata keys (`packages/engine/src/input/filter.ts`, `IDENTIFIER`). */
const META_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** True for the values anamnesis stores as `meta` fields: strings, finite numbers, booleans, null. */
export function isMetaValue(value: unknown): value is MetaValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** True when `key` can be an anamnesis `meta` field (and so a filter key). */
export function isMetaKey(key: string): boolean {
  return META_KEY.test(key) && key !== EXTRA_KEY;
}

/**
 * Document metadata → anamnesis `meta`. `INVALID_INPUT` when `metadata` is not a plain object or an
 * entry cannot be JSON-encoded (a BigInt, a cycle). What JSON changes in the other entries comes
 * back changed (a `Date` as its ISO string, `undefined` dropped, `NaN` as `null`).
 */
export function encodeMetadata(metadata: unknown): Record<string, MetaValue> {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new AnamnesisError('INVALID_INPUT', 'document metadata must be a plain object');
  }
  const fields: [string, MetaValue][] = [];
  const extra: [string, unknown][] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (isMetaKey(key) && isMetaValue(value)) fields.push([key, value]);
    else if (value !== undefined) extra.push([key, value]);
  }
  if (extra.length > 0) {
    let json: string;
    try {
      json = JSON.stringify(Object.fromEntries(extra));
    } catch (cause) {
      throw new AnamnesisError('INVALID_INPUT', 'document metadata must be JSON-serialisable', {
        cause,
      });
    }
    fields.push([EXTRA_KEY, json]);
  }
  return Object.fromEntries(fields);
}

/** anamnesis `meta` → document metadata: the inverse of {@link encodeMetadata}. */
export function decodeMetadata(meta: Readonly<Record<string, MetaValue>>): Record<string, unknown> {
  const entries: [string, unknown][] = Object.entries(meta).filter(([key]) => key !== EXTRA_KEY);
  const extra = meta[EXTRA_KEY];
  if (extra !== undefined) {
    const parsed = parseObject(extra);
    // Not ours (a memory written by something else under this key): kept as it is.
    entries.push(...(parsed ? Object.entries(parsed) : [[EXTRA_KEY, extra] as [string, unknown]]));
  }
  return Object.fromEntries(entries);
}

function parseObject(value: MetaValue): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
