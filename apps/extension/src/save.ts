/**
 * Storing one click's capture: the passages `planCapture` planned, replacing what an earlier save
 * of the same page stored.
 */
import type { MemoryClient } from '@anamnesis/client';

import type { CapturePlan } from './chunk.ts';

/** What saving needs of the store. */
export type SaveTarget = Pick<MemoryClient, 'rememberMany'>;

/**
 * Stores `plan`'s passages in place of the page's earlier ones (`plan.replace`), in one write: the
 * engine deletes the old and stores the new in one transaction (`rememberMany`'s `replace`), so a
 * save that fails (a full quota) leaves the page as it was, never without passages. Resolves with
 * the new passages' ids.
 */
export function saveCapture(memory: SaveTarget, plan: CapturePlan): Promise<string[]> {
  return memory.rememberMany(plan.memories, plan.replace ? { replace: plan.replace } : {});
}
