/**
 * Sync of one memory store between devices through a Yjs websocket server (`y-websocket`'s
 * protocol; the server is `@y/websocket-server`, or any server of that protocol): `startSync`, and
 * the sync a caller holds. A device syncs in one room at a time (`room.ts` runs it); when its code
 * changes (a device removed, `devices.ts`), the sync moves to the new room with the same store and
 * device id, and the caller keeps the same object.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { SyncConflict, SyncDevice, TrashedMemory } from '@anamnesis/engine';
import * as Y from 'yjs';
import { parseSyncCode } from './code.ts';
import { loadIdentity, newIdentity, type Identity } from './identity.ts';
import { RoomSync } from './room.ts';
import { deriveKeys } from './seal.ts';
import type { RoomSyncStatus, SavedSyncState, Sync, SyncEngine, SyncOptions } from './types.ts';

export type {
  Cipher,
  RecordCipher,
  RepairKind,
  RoomSyncStatus,
  SavedSyncState,
  Scrypt,
  Sync,
  SyncEngine,
  SyncOptions,
  SyncStateStore,
} from './types.ts';

/** Starts syncing `engine` with the room; resolves once the keys are derived and the state loaded. */
export async function startSync(engine: SyncEngine, options: SyncOptions): Promise<Sync> {
  checkSyncOptions(options);
  const saved = await options.state?.load();
  const identity = saved?.identity ? await loadIdentity(saved.identity) : await newIdentity();
  const sync = new MovingSync(engine, options, identity);
  await sync.open(options, saved);
  return sync;
}

/** `INVALID_INPUT` unless `options` has a ws(s) URL, a room and a passphrase of the sizes allowed. */
export function checkSyncOptions(options: SyncOptions): void {
  if (!options || typeof options.url !== 'string' || !/^wss?:\/\//.test(options.url))
    throw new AnamnesisError('INVALID_INPUT', 'sync.url must be a ws:// or wss:// URL');
  if (typeof options.room !== 'string' || options.room.length === 0 || options.room.length > 256)
    throw new AnamnesisError('INVALID_INPUT', 'sync.room must be a string of 1–256 characters');
  if (
    typeof options.passphrase !== 'string' ||
    options.passphrase.length === 0 ||
    options.passphrase.length > 1024
  )
    throw new AnamnesisError(
      'INVALID_INPUT',
      'sync.passphrase must be a string of 1–1,024 characters',
    );
  if (
    options.trashDays !== undefined &&
    !(typeof options.trashDays === 'number' && options.trashDays >= 0 && options.trashDays < 1e6)
  )
    throw new AnamnesisError('INVALID_INPUT', 'sync.trashDays must be a number of days ≥ 0');
  if (options.scrypt !== undefined && typeof options.scrypt !== 'function')
    throw new AnamnesisError('INVALID_INPUT', 'sync.scrypt must be a function');
  if (options.cipher !== undefined && typeof options.cipher !== 'function')
    throw new AnamnesisError('INVALID_INPUT', 'sync.cipher must be a function');
}

/** The sync a caller holds: one room's, moved to the next room when the code changes. */
class MovingSync implements Sync {
  readonly #engine: SyncEngine;
  #options: SyncOptions;
  readonly #identity: Identity;
  #room!: RoomSync;
  /** What the room's own listeners are removed with, when it is left. */
  #detach: (() => void)[] = [];
  readonly #statusListeners = new Set<(status: RoomSyncStatus) => void>();
  readonly #appliedListeners = new Set<(ids: string[]) => void>();
  readonly #codeListeners = new Set<(code: string) => void>();
  #moving: Promise<void> | undefined;
  #closed = false;

  constructor(engine: SyncEngine, options: SyncOptions, identity: Identity) {
    this.#engine = engine;
    this.#options = options;
    this.#identity = identity;
  }

  /** Starts the room of `options` with `saved` (the device's state), and follows it. */
  async open(options: SyncOptions, kept: SavedSyncState | undefined): Promise<void> {
    const keys = await deriveKeys(options.passphrase, options.room, options.scrypt, options.cipher);
    // a state of another room (this device moved to a new code, and starts with the old one):
    // its device id and key, not its document
    const saved =
      kept?.room !== undefined && kept.room !== keys.room
        ? {
            device: kept.device,
            identity: this.#identity.saved,
            doc: Y.encodeStateAsUpdate(new Y.Doc()),
          }
        : kept;
    const room = new RoomSync(this.#engine, options, keys, saved, this.#identity, (code) => {
      void this.#move(code).catch((e: unknown) =>
        console.error('anamnesis sync: moving to the new code failed', e),
      );
    });
    this.#room = room;
    this.#detach = [
      room.onStatus((s) => {
        for (const l of this.#statusListeners) l(s);
      }),
      room.onApplied((ids) => {
        for (const l of this.#appliedListeners) l(ids);
      }),
    ];
    await room.start(saved);
  }

  /** Leaves this room for the one of `code`, with a fresh document and the same device id. */
  #move(code: string): Promise<void> {
    this.#moving ??= (async () => {
      const old = this.#room;
      const device = old.status().device;
      await old.close();
      for (const off of this.#detach) off();
      if (this.#closed) return;
      const fresh: SavedSyncState = {
        device,
        identity: this.#identity.saved,
        doc: Y.encodeStateAsUpdate(new Y.Doc()),
      };
      this.#options = { ...this.#options, ...parseSyncCode(code) };
      await this.open(this.#options, fresh);
      for (const l of this.#codeListeners) {
        try {
          l(code);
        } catch (e) {
          console.error('anamnesis sync: a code listener threw', e);
        }
      }
    })().finally(() => (this.#moving = undefined));
    return this.#moving;
  }

  async removeDevice(id: string): Promise<string> {
    await this.#moving;
    const code = await this.#room.removeDevice(id);
    await this.#move(code);
    return code;
  }

  onCodeChange(listener: (code: string) => void): () => void {
    this.#codeListeners.add(listener);
    return () => this.#codeListeners.delete(listener);
  }

  status(): RoomSyncStatus {
    return this.#room.status();
  }

  onStatus(listener: (status: RoomSyncStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  onApplied(listener: (ids: string[]) => void): () => void {
    this.#appliedListeners.add(listener);
    return () => this.#appliedListeners.delete(listener);
  }

  connect(): void {
    this.#room.connect();
  }

  disconnect(): void {
    this.#room.disconnect();
  }

  async settled(): Promise<void> {
    await this.#moving;
    await this.#room.settled();
  }

  async synced(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.#moving;
      const room = this.#room;
      try {
        await room.synced(Math.max(0, end - Date.now()));
        return;
      } catch (e) {
        // the room was left for a new one meanwhile: wait for that one
        if (this.#closed || room === this.#room || !(e instanceof AnamnesisError)) throw e;
      }
    }
  }

  conflicts(): SyncConflict[] {
    return this.#room.conflicts();
  }

  resolveConflict(id: string, text: string): Promise<void> {
    return this.#room.resolveConflict(id, text);
  }

  trash(): TrashedMemory[] {
    return this.#room.trash();
  }

  restore(id: string): Promise<void> {
    return this.#room.restore(id);
  }

  emptyTrash(ids?: readonly string[]): Promise<number> {
    return this.#room.emptyTrash(ids);
  }

  devices(): SyncDevice[] {
    return this.#room.devices();
  }

  renameDevice(name: string): Promise<void> {
    return this.#room.renameDevice(name);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#moving?.catch(() => undefined);
    await this.#room.close();
  }
}
