/** What the client needs from its realm: browser globals by default, injected by the Node tests. */

import type * as Comlink from 'comlink';

/** A started worker: a Comlink endpoint that can be terminated. */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

/** The part of `BroadcastChannel` used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** What `openMemory` needs from its realm. */
export interface ClientEnvironment {
  createWorker(): WorkerLike;
  /** Web Locks; without them every tab owns its store (a second one gets `STORE_LOCKED`). */
  locks: LockManagerLike | undefined;
  createChannel: ((name: string) => ChannelLike) | undefined;
  /** Base URL for relative asset URLs (the page's). */
  baseUrl: string | undefined;
  /** `navigator.storage.persist()`. */
  persist: (() => Promise<boolean>) | undefined;
}

export function browserEnvironment(workerUrl?: string | URL): ClientEnvironment {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  return {
    // `./worker.js` also in the sources: the built file's name; Vite finds `worker.ts` for it.
    createWorker: () =>
      workerUrl === undefined
        ? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
        : new Worker(workerUrl, { type: 'module' }),
    locks: nav?.locks,
    createChannel:
      typeof BroadcastChannel === 'function' ? (name) => new BroadcastChannel(name) : undefined,
    baseUrl: (globalThis as { location?: Location }).location?.href,
    persist: nav?.storage?.persist ? () => nav.storage.persist() : undefined,
  };
}
