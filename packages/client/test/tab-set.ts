/**
 * The tabs and clients a test opened, closed together after it: what the client's tests
 * (`opened.ts`) and the React tests (`packages/react/test/env.ts`) share. No test hook is
 * registered here; each caller closes the set when it should (`opened.ts` after each test, the
 * React tests after React Testing Library's own cleanup).
 */
import type { ClientEnvironment } from '../src/environment.ts';
import {
  connectMemory,
  openMemory,
  type MemoryClient,
  type OpenMemoryOptions,
} from '../src/index.ts';
import { LockRegistry, Tab } from './tabs.ts';

export { LockRegistry, Tab };

/** Simulated tabs and the clients opened in them, closed together by {@link TabSet.close}. */
export class TabSet {
  readonly #tabs: Tab[] = [];
  readonly #memories: MemoryClient[] = [];

  /** A new tab of the origin whose Web Locks are `registry`'s. */
  newTab(registry: LockRegistry): Tab {
    const tab = new Tab(registry);
    this.#tabs.push(tab);
    return tab;
  }

  /** `openMemory` in `tab` (its environment: `tab.env`). */
  async open(tab: { env: ClientEnvironment }, options: OpenMemoryOptions): Promise<MemoryClient> {
    return this.add(await openMemory(options, tab.env));
  }

  /** `connectMemory` in `tab`, without waiting for the store. */
  connect(tab: { env: ClientEnvironment }, options: OpenMemoryOptions): MemoryClient {
    return this.add(connectMemory(options, tab.env));
  }

  /** Closes `memory` with the set. */
  add(memory: MemoryClient): MemoryClient {
    this.#memories.push(memory);
    return memory;
  }

  /** Closes every client, then disposes every tab (its workers' engines closed). */
  async close(): Promise<void> {
    await Promise.all(this.#memories.splice(0).map((m) => m.close().catch(() => undefined)));
    await Promise.all(this.#tabs.splice(0).map((t) => t.dispose()));
  }
}

/** Waits until `check()` holds (polled every 10 ms); throws after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
