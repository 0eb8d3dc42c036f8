/**
 * The vector store's filter: LangChain-style metadata equality (`{ source: 'a.md' }`, as the
 * LangChain.js vector store guides write it), mapped to an anamnesis {@link MemoryFilter}
 * (`{ meta: { source: 'a.md' } }`), plus the anamnesis filters themselves under `$memory`.
 */
import type { MemoryFilter, MetaValue } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

import { isMetaKey, isMetaValue } from './metadata.ts';

/**
 * A filter of {@link AnamnesisVectorStore}: every entry but `$memory` is a metadata field that must
 * equal the given value (keys are identifiers, values strings, finite numbers, booleans or null:
 * the metadata entries that are stored as fields). All conditions must hold.
 *
 * @example { source: 'pets.md', $memory: { after: Date.now() - 86_400_000 } }
 */
export interface VectorStoreFilter {
  /** anamnesis filters (tags, kind, session, `after`/`before` in ms, ids, meta), applied as well. */
  $memory?: MemoryFilter;
  [key: string]: MetaValue | MemoryFilter | undefined;
}

const MEMORY = '$memory';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * {@link VectorStoreFilter} → the engine's {@link MemoryFilter} (`undefined` for none).
 * `INVALID_INPUT` for a filter that is not an object, a key that is no identifier, or a value that
 * is not a scalar (such metadata entries are stored JSON-encoded and cannot be compared).
 */
export function toMemoryFilter(filter: unknown): MemoryFilter | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (!isPlainObject(filter)) {
    throw new AnamnesisError('INVALID_INPUT', 'a vector store filter must be a plain object');
  }
  const base = filter[MEMORY];
  if (base !== undefined && !isPlainObject(base)) {
    throw new AnamnesisError('INVALID_INPUT', '$memory must be an anamnesis filter object');
  }
  const meta: [string, MetaValue][] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === MEMORY || value === undefined) continue;
    if (!isMetaKey(key) || !isMetaValue(value)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `cannot filter on metadata ${JSON.stringify(key)}: only identifier keys with string, number, boolean or null values are comparable`,
      );
    }
    meta.push([key, value]);
  }
  const memory = (base ?? {}) as MemoryFilter;
  if (meta.length === 0) return base === undefined ? undefined : memory;
  return { ...memory, meta: { ...(memory.meta ?? {}), ...Object.fromEntries(meta) } };
}
