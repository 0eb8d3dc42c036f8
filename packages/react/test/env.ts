/**
 * What the React tests share: tabs simulated as in the client's tests (`packages/client/test/tabs.ts`:
 * the real worker API and engine behind Comlink over a MessageChannel, Node's BroadcastChannel and
 * a shared Web Locks registry), the default model, and a client that counts the recalls its live
 * recalls run.
 */
import {
  connectMemory,
  liveRecall,
  openMemory,
  type MemoryClient,
  type OpenMemoryOptions,
} from '@anamnesis/client';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { MODEL_ID } from '@anamnesis/model-default';

import { LockRegistry, Tab } from '../../client/test/tabs.ts';

export { LockRegistry, Tab };

/**
 * The default model's folder (what `modelRootPath()` of `@anamnesis/model-default` gives in Node;
 * under happy-dom, Vite rewrites that function's `import.meta.url` for the browser).
 */
const MODELS = join(
  dirname(createRequire(import.meta.url).resolve('@anamnesis/model-default/package.json')),
  'model',
  '/',
);
if (!existsSync(join(MODELS, MODEL_ID, 'config.json')))
  throw new Error(`the default model is not in ${MODELS}`);

const tabs: Tab[] = [];
const memories: MemoryClient[] = [];

/** Closes what the test opened. */
export async function cleanUp(): Promise<void> {
  await Promise.all(memories.splice(0).map((m) => m.close().catch(() => undefined)));
  await Promise.all(tabs.splice(0).map((t) => t.dispose()));
}

export function newTab(registry: LockRegistry): Tab {
  const tab = new Tab(registry);
  tabs.push(tab);
  return tab;
}

export async function storeOptions(name: string): Promise<OpenMemoryOptions> {
  return { name, device: 'auto', assets: { models: MODELS } };
}

/** `connectMemory` in `tab`, counting its calls (what `MemoryProvider`'s `connect` takes). */
export function connectIn(tab: Tab): {
  connect: (options: OpenMemoryOptions) => MemoryClient;
  opened: MemoryClient[];
} {
  const opened: MemoryClient[] = [];
  return {
    opened,
    connect: (options) => {
      const memory = connectMemory(options, tab.env);
      opened.push(memory);
      memories.push(memory);
      return memory;
    },
  };
}

/** `openMemory` in `tab` (a second tab's client, outside React). */
export async function openIn(tab: Tab, options: OpenMemoryOptions): Promise<MemoryClient> {
  const memory = await openMemory(options, tab.env);
  memories.push(memory);
  return memory;
}

/**
 * `memory` whose live recalls record each query they recall (the client's own `live` is
 * `liveRecall` over its `recall` and `subscribe`, as here).
 */
export function countingRecalls(memory: MemoryClient): {
  memory: MemoryClient;
  recalled: string[];
} {
  const recalled: string[] = [];
  const counting = Object.create(memory, {
    live: {
      value: ((query, options, onResults, onError) =>
        liveRecall(
          {
            recall: (q, o) => {
              recalled.push(q);
              return memory.recall(q, o);
            },
            subscribe: (listener) => memory.subscribe(listener),
          },
          query,
          options,
          onResults,
          onError,
        )) satisfies MemoryClient['live'],
    },
  }) as MemoryClient;
  return { memory: counting, recalled };
}

export const until = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
