/**
 * Browser tabs simulated in Node for the client's unit tests: each tab has a Web Locks view of one
 * shared lock registry, BroadcastChannels (Node's), and "workers" that are the real worker API on
 * the real engine, reached through a MessageChannel with Comlink. `kill()` makes a tab vanish as a
 * closed tab does: no goodbye, its channels go quiet, its workers stop answering, its locks free.
 */
import * as Comlink from 'comlink';

import type { ClientEnvironment, LockManagerLike } from '../src/environment.ts';
import type { WorkerApi } from '../src/api.ts';
import { answering, createWorkerApi } from '../src/worker-api.ts';

interface Grant {
  tab: Tab;
  callback: (lock: unknown) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  release?: () => void;
}

/** One origin's Web Locks: per name, a holder and a FIFO queue. */
export class LockRegistry {
  readonly #locks = new Map<string, { holder?: Grant; queue: Grant[] }>();

  #entry(name: string) {
    let e = this.#locks.get(name);
    if (!e) this.#locks.set(name, (e = { queue: [] }));
    return e;
  }

  #grant(name: string, g: Grant): void {
    const e = this.#entry(name);
    e.holder = g;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (e.holder === g) e.holder = undefined;
      const next = e.queue.shift();
      if (next) this.#grant(name, next);
    };
    g.release = release;
    Promise.resolve()
      .then(() => g.callback({ name }))
      .then(
        (v) => {
          release();
          g.resolve(v);
        },
        (err: unknown) => {
          release();
          g.reject(err);
        },
      );
  }

  /** The lock manager as `tab` sees it. */
  managerFor(tab: Tab): LockManagerLike {
    return {
      request: (name, options, callback) =>
        new Promise((resolve, reject) => {
          const e = this.#entry(name);
          const g: Grant = { tab, callback, resolve, reject };
          if (!e.holder && e.queue.length === 0) {
            this.#grant(name, g);
            return;
          }
          if (options.ifAvailable) {
            callback(null).then(resolve, reject);
            return;
          }
          e.queue.push(g);
          options.signal?.addEventListener('abort', () => {
            const i = e.queue.indexOf(g);
            if (i >= 0) e.queue.splice(i, 1);
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    };
  }

  /** Frees every lock `tab` holds or waits for (the tab is gone). */
  dropTab(tab: Tab): void {
    for (const e of this.#locks.values()) {
      e.queue = e.queue.filter((g) => g.tab !== tab);
      if (e.holder?.tab === tab) e.holder.release?.();
    }
  }
}

/** A simulated tab. */
export class Tab {
  readonly channels: BroadcastChannel[] = [];
  /** Every worker the tab started: whether it was asked to open a store, and stopped. */
  readonly workers: {
    api: WorkerApi;
    ports: MessagePort[];
    opened: boolean;
    terminated: boolean;
  }[] = [];
  readonly env: ClientEnvironment;
  readonly #registry: LockRegistry;

  constructor(registry: LockRegistry) {
    this.#registry = registry;
    this.env = {
      createWorker: () => {
        const { port1, port2 } = new MessageChannel();
        const api = createWorkerApi();
        const worker = { api, ports: [port1, port2], opened: false, terminated: false };
        const open: WorkerApi['open'] = (...args) => {
          worker.opened = true;
          return api.open(...args);
        };
        Comlink.expose(answering({ ...api, open }), port1);
        this.workers.push(worker);
        return Object.assign(port2, {
          terminate() {
            worker.terminated = true;
            port1.close();
            port2.close();
          },
        });
      },
      locks: registry.managerFor(this),
      createChannel: (name) => {
        const channel = new BroadcastChannel(name);
        this.channels.push(channel);
        return channel;
      },
      baseUrl: undefined,
      persist: undefined,
    };
  }

  /** The tab closes without a goodbye. */
  kill(): void {
    for (const c of this.channels) c.close();
    for (const w of this.workers) for (const p of w.ports) p.close();
    this.#registry.dropTab(this);
  }

  /** Closes the engines its workers opened (the in-process "workers" outlive their ports). */
  async dispose(): Promise<void> {
    this.kill();
    await Promise.all(this.workers.map((w) => w.api.close().catch(() => undefined)));
  }
}
