/**
 * What the React tests share: tabs simulated as in the client's tests (`TabSet` of
 * `packages/client/test/tab-set.ts`: the real worker API and engine behind Comlink over a
 * MessageChannel, Node's BroadcastChannel and a shared Web Locks registry), the default model,
 * and a client that counts the recalls its live recalls run.
 */
import { liveRecall, type MemoryClient, type OpenMemoryOptions } from '@anamnesis/client';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { MODEL_ID } from '@anamnesis/model-default';

import { LockRegistry, TabSet, until, type Tab } from '../../client/test/tab-set.ts';

export { LockRegistry, until };

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

const opened = new TabSet();

/** Closes what the test opened (after React Testing Library's cleanup has unmounted it). */
export function cleanUp(): Promise<void> {
  return opened.close();
}

export function newTab(registry: LockRegistry): Tab {
  return opened.newTab(registry);
}

export async function storeOptions(name: string): Promise<OpenMemoryOptions> {
  return { name, device: 'auto', assets: { models: MODELS } };
}

/** `connectMemory` in `tab`, counting its calls (what `MemoryProvider`'s `connect` takes). */
export function connectIn(tab: Tab): {
  connect: (options: OpenMemoryOptions) => MemoryClient;
  opened: MemoryClient[];
} {
  const connected: MemoryClient[] = [];
  return {
    opened: connected,
    connect: (options) => {
      const memory = opened.connect(tab, options);
      connected.push(memory);
      return memory;
    },
  };
}

/** `openMemory` in `tab` (a second tab's client, outside React). */
export function openIn(tab: Tab, options: OpenMemoryOptions): Promise<MemoryClient> {
  return opened.open(tab, options);
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
