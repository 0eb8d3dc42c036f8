/**
 * Sync in a browser page (`@anamnesis/sync/browser`), over the client of `@anamnesis/client`
 * (`openMemory`), which has what `startSync` needs (`export`, `import`, `update`, `forget`,
 * `link`, `unlink`, `subscribe`). The device's sync state is kept in IndexedDB, and one tab of
 * the origin syncs a store at a time (a Web Lock): every tab of an origin is one device, and the
 * tabs share the store through its owner tab anyway.
 */
import { get, set } from 'idb-keyval';
import type { SyncPlugin } from '@anamnesis/engine';
import {
  checkSyncOptions,
  startSync,
  type Sync,
  type SyncEngine,
  type SyncOptions,
  type SyncStateStore,
} from './sync.ts';

/** A {@link SyncStateStore} in IndexedDB under `key` (idb-keyval's default database). */
export function indexedDbState(key: string): SyncStateStore {
  return {
    load: () => get(key),
    save: (state) => set(key, state),
  };
}

/**
 * Starts syncing the store `name` from this tab once it holds the origin's sync lock for it (at
 * once, unless another tab syncs it: then when that tab closes or stops). The state is kept in
 * IndexedDB under `anamnesis-sync:<name>`. Resolves with the running sync; `close()` it to stop
 * and free the lock. `signal` gives up waiting for the lock (rejects with its reason).
 */
export async function startBrowserSync(
  memory: SyncEngine,
  name: string,
  options: SyncOptions,
  signal?: AbortSignal,
): Promise<Sync> {
  const lock = `anamnesis-sync:${name}`;
  return new Promise<Sync>((resolve, reject) => {
    void navigator.locks
      .request(lock, signal ? { signal } : {}, async () => {
        let sync: Sync;
        try {
          sync = await startSync(memory, { state: indexedDbState(lock), ...options });
        } catch (e) {
          reject(e);
          return;
        }
        // held until the sync is closed
        await new Promise<void>((released) => {
          const close = sync.close.bind(sync);
          sync.close = async () => {
            await close();
            released();
          };
          resolve(sync);
        });
      })
      .catch(reject);
  });
}

/**
 * The sync of a browser store opened by `openMemory({ sync: browserSync({ url, room, passphrase }) })`
 * (`@anamnesis/client`): {@link startBrowserSync} on the store once it is open. The options are
 * checked here (`INVALID_INPUT`); `memory.sync()` gives the running sync.
 */
export function browserSync(options: SyncOptions): SyncPlugin<SyncEngine> {
  checkSyncOptions(options);
  return {
    start: (memory, { name }, signal) => startBrowserSync(memory, name, options, signal),
  };
}
