/**
 * What the client's Node tests share: simulated tabs (`tabs.ts`) and the stores opened in them on
 * the default model, all closed after each test of the file that imports this module.
 */
import { modelRootPath } from '@anamnesis/model-default';
import { afterEach } from 'vitest';

import { openMemory, type MemoryClient, type OpenMemoryOptions } from '../src/index.ts';
import { LockRegistry, Tab } from './tabs.ts';

const tabs: Tab[] = [];
const memories: MemoryClient[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((m) => m.close().catch(() => undefined)));
  await Promise.all(tabs.splice(0).map((t) => t.dispose()));
});

/** A new tab of the origin whose Web Locks are `registry`'s; disposed after the test. */
export function newTab(registry: LockRegistry): Tab {
  const tab = new Tab(registry);
  tabs.push(tab);
  return tab;
}

/** `openMemory` in `tab` on the default model; closed after the test. */
export async function open(tab: Tab, options: OpenMemoryOptions = {}): Promise<MemoryClient> {
  const memory = await openMemory(
    { device: 'auto', assets: { models: await modelRootPath() }, ...options },
    tab.env,
  );
  memories.push(memory);
  return memory;
}

/** Closes clients the test opened itself after it. */
export function closeAfterTest(...clients: MemoryClient[]): void {
  memories.push(...clients);
}

/** Waits until `check()` holds (polled every 10 ms); throws after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export { LockRegistry };
