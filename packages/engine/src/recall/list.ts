import { AnamnesisError } from '@anamnesis/errors';
import { buildFilter } from '../input/filter.ts';
import type { Reader } from '../store/reader.ts';
import { MEMORY_COLUMNS, readMemoryRow, toMemory } from '../store/store.ts';
import type { Memory, MemoryFilter } from '../types.ts';

/** Options of `list`. */
export interface ListOptions {
  /** Only memories matching this filter. */
  filter?: MemoryFilter;
  /** Newest first by `'updated'` (default) or `'created'` time. */
  order?: 'updated' | 'created';
  /** Page size, 1–10,000. Default 100. */
  limit?: number;
  /** Memories to skip. Default 0. */
  offset?: number;
}

/**
 * Memories matching a filter, newest first (by `order`), paged: what an app needs to show a list
 * of notes without a query (`Engine.list`).
 */
export function listMemories(read: Reader, options: ListOptions): Memory[] {
  if (!options || typeof options !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
  const limit = options.limit ?? 100;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new AnamnesisError('INVALID_INPUT', 'limit must be an integer in [1, 10000]');
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new AnamnesisError('INVALID_INPUT', 'offset must be a non-negative integer');
  const order = options.order ?? 'updated';
  if (order !== 'updated' && order !== 'created')
    throw new AnamnesisError('INVALID_INPUT', "order must be 'updated' or 'created'");
  const column = order === 'updated' ? 'm.updated_at' : 'm.created_at';
  const { where, params } = buildFilter(options.filter);
  return read
    .all(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} ORDER BY ${column} DESC, m.rid DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
      readMemoryRow,
    )
    .map(toMemory);
}
