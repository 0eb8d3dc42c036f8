/**
 * A store's sync with other devices, as `createEngine({ sync })` and the client's
 * `openMemory({ sync })` hold it: started once the store is open, handed out by `sync()`,
 * stopped before the store closes. The contract (`SyncPlugin`, `StoreSync`) is in `types.ts`;
 * neither the engine nor the client depends on `@anamnesis/sync`, which implements it, so an app
 * that does not sync installs and loads none of it.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { StoreSync, SyncPlace, SyncPlugin } from './types.ts';

/**
 * The `sync()` of a store opened with a plugin: resolves with the running sync once it started
 * (for a browser tab, once it holds the origin's sync lock of the store), rejects with the error
 * that stopped it from starting, and with `INVALID_INPUT` for a store opened without `sync`.
 */
export class SyncSlot<T = unknown> {
  readonly #started: Promise<StoreSync> | undefined;
  readonly #abort = new AbortController();

  constructor(plugin: SyncPlugin<T> | undefined, store: T, place: SyncPlace) {
    this.#started = plugin?.start(store, place, this.#abort.signal);
    this.#started?.catch(() => undefined); // told through `get()`
  }

  /** The running sync (see the class). */
  get(): Promise<StoreSync> {
    return (
      this.#started ??
      Promise.reject(new AnamnesisError('INVALID_INPUT', 'this store was opened without a sync'))
    );
  }

  /**
   * Stops the sync before its store closes: one still starting gives up (or is closed as soon as
   * it started); errors are reported, not thrown. Idempotent.
   */
  async stop(): Promise<void> {
    if (!this.#started || this.#abort.signal.aborted) return;
    this.#abort.abort();
    let sync: StoreSync;
    try {
      sync = await this.#started;
    } catch {
      return; // never started: nothing to stop
    }
    try {
      await sync.close();
    } catch (e) {
      console.error('anamnesis: the sync did not stop cleanly', e);
    }
  }
}
