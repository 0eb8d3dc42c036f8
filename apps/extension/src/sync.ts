/**
 * The extension's sync, run by the offscreen document (the store's owner): the same
 * `@anamnesis/sync` as the notes app, the MCP server and the CLI, so a page remembered here is found
 * on the person's other devices, and theirs here. Paired from the full page (a server and the code
 * of the person's other devices); the settings are kept in the extension's IndexedDB, so sync starts
 * again with the offscreen document. `@anamnesis/sync` is loaded only when sync is on.
 */
import type { MemoryClient } from '@anamnesis/client';
import type { Sync, SyncStatus } from '@anamnesis/sync';
import { del, get, set } from 'idb-keyval';

import { STORE_NAME, type SyncReply, type SyncSettings } from './messages.ts';

const SETTINGS_KEY = 'anamnesis-extension:sync';

/** One line for a status (as the notes app says it). */
function lineOf(s: SyncStatus): SyncReply {
  if (s.error) return { state: 'error', line: `error: ${s.error.message}` };
  const state = s.synced ? 'synced' : s.connected ? 'connected' : 'offline';
  const last = s.lastSyncedAt
    ? `, last synced ${new Date(s.lastSyncedAt).toLocaleTimeString()}`
    : '';
  return { state, line: `${state}${last}${s.explain ? `. ${s.explain}` : ''}` };
}

/** The offscreen document's sync: started from the kept settings, changed by the full page. */
export class ExtensionSync {
  readonly #memory: MemoryClient;
  #sync: Sync | undefined;
  #settings: SyncSettings | undefined;
  #reply: SyncReply = { state: 'off', line: 'not syncing' };
  /** Bumped by every change of settings: a start that finishes after a later change is dropped. */
  #generation = 0;
  /** The change in progress: changes run one after another. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(memory: MemoryClient) {
    this.#memory = memory;
  }

  /** Starts the sync kept by an earlier run, if any. */
  resume(): Promise<SyncReply> {
    return this.#run(async () => {
      const kept = await get<SyncSettings>(SETTINGS_KEY);
      if (kept) await this.#start(kept);
    });
  }

  /** Syncs with `settings` from now on (kept), or stops and forgets them (`null`). */
  set(settings: SyncSettings | null): Promise<SyncReply> {
    return this.#run(async () => {
      await this.#stop();
      if (!settings) {
        await del(SETTINGS_KEY);
        return;
      }
      await this.#start(settings);
      await set(SETTINGS_KEY, settings);
    });
  }

  /** The state now. */
  state(): SyncReply {
    return { ...this.#reply, ...(this.#settings ? { url: this.#settings.url } : {}) };
  }

  #run(work: () => Promise<void>): Promise<SyncReply> {
    const done = this.#queue.then(work).then(
      () => this.state(),
      (e: unknown) => {
        this.#reply = { state: 'error', line: `sync did not start: ${String(e)}` };
        return this.state();
      },
    );
    this.#queue = done;
    return done;
  }

  async #start(settings: SyncSettings): Promise<void> {
    const generation = ++this.#generation;
    this.#reply = { state: 'starting', line: 'starting…' };
    const [{ parseSyncCode }, { startBrowserSync }] = await Promise.all([
      import('@anamnesis/sync'),
      import('@anamnesis/sync/browser'),
    ]);
    const room = parseSyncCode(settings.code);
    if (!/^wss?:\/\//.test(settings.url))
      throw new Error('the sync server is a ws:// or wss:// address');
    await this.#memory.ready;
    const sync = await startBrowserSync(this.#memory, STORE_NAME, { url: settings.url, ...room });
    if (generation !== this.#generation) {
      await sync.close();
      return;
    }
    this.#sync = sync;
    this.#settings = settings;
    this.#reply = lineOf(sync.status());
    sync.onStatus((s) => {
      if (this.#sync === sync) this.#reply = lineOf(s);
    });
  }

  async #stop(): Promise<void> {
    this.#generation++;
    const sync = this.#sync;
    this.#sync = undefined;
    this.#settings = undefined;
    this.#reply = { state: 'off', line: 'not syncing' };
    await sync?.close();
  }
}
