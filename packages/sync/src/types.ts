/**
 * The sync's public types: what it needs of an engine, where a device keeps its state, the options
 * of `startSync`, and the running sync. A leaf: every part of the package imports it.
 */
import type { DeviceUsage, StoreSync, SyncStatus } from '@anamnesis/engine';
import type { SyncedMemory } from './records.ts';

/** What the sync needs of an engine (`Engine` from `@anamnesis/engine` has it). */
export interface SyncEngine {
  /** JSON Lines of these memories (their links included). */
  export(options: { ids?: readonly string[] }): Promise<string>;
  /** Adds memories received, with their ids, in one transaction. */
  import(jsonl: string, options: { onConflict: 'skip' }): Promise<number>;
  /** Applies an edit received. */
  update(
    id: string,
    patch: Partial<
      Pick<SyncedMemory, 'text' | 'kind' | 'session' | 'tags' | 'importance' | 'meta'>
    >,
  ): Promise<unknown>;
  /** Applies forgets received. */
  forget(ids: string[]): Promise<number>;
  /** Adds a link received. */
  link(from: string, to: { to: string; kind: string; weight: number }): Promise<void>;
  /** Removes a link another device removed. */
  unlink(from: string, to: string, kind?: string): Promise<number>;
  /** Replaces what another device recorded of a memory's use (its `markUsed` events, folded). */
  setDeviceUsage(id: string, device: string, usage: DeviceUsage[]): Promise<unknown>;
  /**
   * Hears this device's changes (to publish them); returns the function that stops it. A change
   * of kind `'elsewhere'` (another process wrote the store) makes the sync compare the whole store.
   */
  subscribe(listener: (change: { kind?: string; ids: string[] }) => void): () => void;
}

/** Where a device keeps its sync state between runs (ciphertext and its device id only). */
export interface SyncStateStore {
  /** The state saved last, or undefined for a device that never synced. */
  load(): Promise<SavedSyncState | undefined>;
  /** Replaces the saved state (atomically: a crash keeps the old state or the new). */
  save(state: SavedSyncState): Promise<void>;
}

/** What a device keeps of its sync between runs. */
export interface SavedSyncState {
  /** This device's id in the room. */
  device: string;
  /**
   * Its private key (a JWK in JSON, see `identity.ts`): what opens a new code another device
   * sealed for it when a device is removed. Absent in a state saved before 0.3 (a new key is made).
   */
  identity?: string;
  /**
   * The room's name on the server that `doc` belongs to (a device moved to a new code keeps its
   * state under the same store, and a start with the old code must not read the new room's
   * document). Absent in a state saved before 0.3.
   */
  room?: string;
  /** The room's Yjs document as this device had applied it (sealed records only). */
  doc: Uint8Array;
}

/**
 * scrypt (RFC 7914): `dkLen` bytes from `password` and `salt` at cost `N`, block size `r` and
 * parallelism `p`, in at most `maxmem` bytes of memory.
 */
export type Scrypt = (
  password: Uint8Array,
  salt: Uint8Array,
  params: { N: number; r: number; p: number; dkLen: number; maxmem: number },
) => Promise<Uint8Array>;

/**
 * AES-256-GCM under one room's key. `seal` gives the ciphertext and its 16-byte tag after it;
 * `open` gives the plaintext, or throws (or rejects) when the bytes do not authenticate under the
 * key, `iv` and `aad`.
 */
export interface RecordCipher {
  /** `plain` sealed under the key, the 12-byte nonce `iv` and the associated data `aad`. */
  seal(iv: Uint8Array, aad: Uint8Array, plain: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** The plaintext of `sealed` (ciphertext ‖ tag); throws when it does not authenticate. */
  open(iv: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/**
 * Makes the {@link RecordCipher} of a 32-byte key. The caller zeroes `key` once this returns: keep
 * a copy (or a platform key object made from it), not the array.
 */
export type Cipher = (key: Uint8Array) => RecordCipher | Promise<RecordCipher>;

/** Options of {@link startSync}. */
export interface SyncOptions {
  /** The Yjs websocket server, e.g. `wss://sync.example.org` (`ws://127.0.0.1:1234` in tests). */
  url: string;
  /** The memory's name, the same on every device (with the passphrase, it makes the keys). */
  room: string;
  /**
   * The sync passphrase, the same on every device: the key every record is sealed with is derived
   * from it (scrypt, about a second at start). Never sent. 1–1,024 characters.
   */
  passphrase: string;
  /** Where this device keeps its sync state. Default: in memory (a restart syncs from scratch). */
  state?: SyncStateStore;
  /** The WebSocket class (Node 20 has none: pass `ws`'s). Default `globalThis.WebSocket`. */
  WebSocket?: unknown;
  /**
   * The scrypt that derives the room's keys from the code, once a start. Default `@noble/hashes`'
   * (JavaScript, any platform: 0.76 s on this project's machine); `startNodeSync` and `nodeSync`
   * pass `node:crypto`'s (OpenSSL, off the event loop: 0.36 s). Any implementation gives the same
   * bytes, so devices of either kind share a room.
   */
  scrypt?: Scrypt;
  /**
   * The AES-256-GCM that seals and opens every record. Default WebCrypto's (a key that cannot be
   * read back, the work off the main thread); `startNodeSync` and `nodeSync` pass `node:crypto`'s,
   * called synchronously (in Node a record costs WebCrypto's promise and thread hop, about four
   * times the cipher itself: a first sync of 10,000 memories opens 10,000 records). Any
   * implementation of AES-256-GCM reads what another sealed.
   */
  cipher?: Cipher;
  /** Connect at start. Default true; `connect()` and `disconnect()` go on and off line. */
  connect?: boolean;
  /** The wall clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /**
   * How long, in ms, this device waits after it sees a room entry deleted, replaced by an older
   * record or made unreadable before it puts the newest record it holds back (anti-entropy), plus
   * up to as much again at random, so that the devices online do not all write the same repair.
   * A join repairs at once. Default 1,000 (a repair within 2 s).
   */
  repairDelayMs?: number;
  /**
   * How long, in days, a forgotten memory stays in the trash (sealed in the room, restorable from
   * any device) before a device purges it everywhere. Default 30; 0 purges every forget at once.
   */
  trashDays?: number;
  /**
   * This device's name in the room's device list. Default: the browser and system from the user
   * agent ("Firefox on Linux"); `nodeSync` and `startNodeSync` give the host's name.
   */
  deviceName?: string;
}

/** Why anti-entropy put an entry back in the room. */
export type RepairKind = keyof SyncStatus['repaired'];

/** The status of a running sync: the engine's {@link SyncStatus} (its `explain` and `repaired` set here). */
export type RoomSyncStatus = SyncStatus;

/** A running sync (the engine's `StoreSync`, with the room's status). */
export interface Sync extends StoreSync {
  status(): RoomSyncStatus;
  onStatus(listener: (status: RoomSyncStatus) => void): () => void;
}
