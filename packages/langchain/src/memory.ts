import type { Engine } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

/**
 * What {@link AnamnesisRetriever} needs of a memory: `recall`. An `Engine` (`createEngine`, in Node
 * or in a worker) and a client from `openMemory`/`connectMemory` (`@anamnesis/client`) both have it.
 */
export type RecallMemory = Pick<Engine, 'recall'>;

/**
 * What {@link AnamnesisVectorStore} needs of a memory: `recall`, `rememberMany`, `update`,
 * `forget` and `list`. An `Engine` and a client from `openMemory` both have them.
 */
export type VectorStoreMemory = Pick<
  Engine,
  'recall' | 'rememberMany' | 'update' | 'forget' | 'list'
>;

/**
 * Throws `INVALID_INPUT` unless `memory` is an object with each of `methods` as a function (an
 * engine, a client, or anything shaped like them).
 */
export function assertMemory<M extends string>(
  memory: unknown,
  methods: readonly M[],
  who: string,
): asserts memory is Record<M, (...args: never[]) => unknown> {
  const missing =
    memory === null || (typeof memory !== 'object' && typeof memory !== 'function')
      ? methods
      : methods.filter((m) => typeof (memory as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${who} needs an anamnesis engine or client as \`memory\` (missing ${missing.join(', ')})`,
    );
  }
}
