import type { Engine } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

/**
 * What {@link memoryTools} needs of a memory: `remember` and `recall`. An `Engine`
 * (`createEngine`, in Node or in a worker) and a client from `openMemory` (`@anamnesis/client`)
 * both have them.
 */
export type ToolsMemory = Pick<Engine, 'remember' | 'recall'>;

/** Throws `INVALID_INPUT` unless `memory` has `remember` and `recall` functions. */
export function assertToolsMemory(memory: unknown): asserts memory is ToolsMemory {
  const has = (name: string) =>
    memory !== null &&
    (typeof memory === 'object' || typeof memory === 'function') &&
    typeof (memory as Record<string, unknown>)[name] === 'function';
  if (!has('remember') || !has('recall')) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'memoryTools needs an anamnesis engine or client (with remember and recall)',
    );
  }
}
