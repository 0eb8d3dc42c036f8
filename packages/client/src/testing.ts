/**
 * `@anamnesis/client/testing`: hooks for tests of the client and of apps built on it, apart from
 * the public API: faults a test may ask for, and what a crash looks like. Nothing here is for an
 * app to ship.
 */
import { browserEnvironment, type ClientEnvironment } from './environment.ts';
import { connectWith, coordinatorOf, type MemoryClient } from './memory.ts';
import type { Faults, OpenMemoryOptions } from './options.ts';

export type { Faults } from './options.ts';

/**
 * Opens a store like `openMemory`, with faults injected: `webGpuFailure` makes ONNX Runtime's own
 * adapter requests fail in the worker after the embedder's check saw an adapter, so the client's
 * fall-back to wasm in a fresh worker can be tested.
 */
export async function openMemoryWithFaults(
  options: OpenMemoryOptions,
  faults: Faults,
  env: ClientEnvironment = browserEnvironment(options.assets?.worker),
): Promise<MemoryClient> {
  const memory = connectWith(options, env, faults, true);
  await memory.ready;
  return memory;
}

/**
 * Terminates the owner's worker without telling anyone, as a crash would: calls in flight then
 * reject with `TIMEOUT`. Returns false in a follower (it has no worker).
 */
export function terminateWorker(memory: MemoryClient): boolean {
  return coordinatorOf(memory).terminateWorker();
}

/** This tab's id in the multi-tab protocol. */
export function tabIdOf(memory: MemoryClient): string {
  return coordinatorOf(memory).tabId;
}
