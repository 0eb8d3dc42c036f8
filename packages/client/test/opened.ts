/**
 * What the client's Node tests share: simulated tabs (`tabs.ts`) and the stores opened in them on
 * the default model, all closed after each test of the file that imports this module (a
 * {@link TabSet}).
 */
import { modelRootPath } from '@anamnesis/model-default';
import { afterEach } from 'vitest';

import type { MemoryClient, OpenMemoryOptions } from '../src/index.ts';
import { TabSet, until, type LockRegistry, type Tab } from './tab-set.ts';

const opened = new TabSet();
afterEach(() => opened.close());

/** A new tab of the origin whose Web Locks are `registry`'s; disposed after the test. */
export function newTab(registry: LockRegistry): Tab {
  return opened.newTab(registry);
}

/** `openMemory` in `tab` on the default model; closed after the test. */
export async function open(tab: Tab, options: OpenMemoryOptions = {}): Promise<MemoryClient> {
  return opened.open(tab, {
    device: 'auto',
    assets: { models: await modelRootPath() },
    ...options,
  });
}

/** Closes clients the test opened itself after it. */
export function closeAfterTest(...clients: MemoryClient[]): void {
  for (const client of clients) opened.add(client);
}

export { LockRegistry } from './tab-set.ts';
export { until };
