import type { Database } from '../store/database.ts';
import type { Reader } from '../store/reader.ts';

/** Where a store lives: `'auto'` picks OPFS in a dedicated worker and memory elsewhere. */
export type StorageKind = 'auto' | 'opfs' | 'memory' | 'file';

/** What the engine needs of an opened store, whichever backend holds it. */
export interface StorageBackend {
  /** The open database; every write to it is one transaction, durable once it commits. */
  readonly db: Database;
  readonly kind: 'opfs' | 'memory' | 'file';
  /** Whether the store's pages are encrypted (see `storage/encryption.ts`). */
  readonly encrypted?: boolean;
  /**
   * Encrypted stores only: re-keys the store with a key derived from `passphrase` (a new salt),
   * all pages at once; the old passphrase no longer opens it.
   */
  rekey?(passphrase: string): Promise<void>;
  /**
   * Encrypted stores only: whether `passphrase` (checked and NFC-normalised) derives the key the
   * store is encrypted under now (one key derivation).
   */
  keyMatches?(passphrase: string): Promise<boolean>;
  /** Why the store is not where it was asked to be (e.g. no OPFS: memory), for `stats()`. */
  readonly reason: string | undefined;
  /** A reader of the recall path's SQL on this database, keeping up to `capacity` statements. */
  reader(capacity?: number): Reader;
  /** Bytes of SQLite-WASM's WebAssembly memory (0 where SQLite is native: the file store). */
  sqliteWasmBytes(): number;
  /**
   * Whether another connection (another process on the same file) committed since the last call:
   * `PRAGMA data_version`. Always false where the store has one connection (OPFS, memory).
   */
  changedElsewhere(): boolean;
  /**
   * A file store only: how long a write waits for another process's write lock, in ms
   * (`EngineOptions.busyTimeoutMs`), before `STORE_LOCKED`.
   */
  readonly busyTimeoutMs?: number;
  /**
   * A file store only: throws `STORE_NOT_FOUND` when the store's file was deleted, moved or
   * replaced since it was opened (the file at its path is not the one open), and from then on.
   * Without `force`, the file is looked at once per 250 ms at most.
   */
  checkFile?(force: boolean): void;
  /**
   * A file store only (group commit, see `storage/group-sync.ts`): resolves once every commit
   * made before the call is on disk. Absent: a commit is durable when it returns.
   */
  durable?(): Promise<void>;
  /** With {@link durable}: resolves at the event loop's next turn (`setImmediate`). */
  nextTurn?(): Promise<void>;
  /** A file store only: the syncs {@link durable} made so far (writes that came together share one). */
  syncs?(): number;
  /** OPFS only: where opening the file spent its time (see `OpenTimings.storageSteps`). */
  readonly openSteps?: StorageOpenSteps;
  close(): void;
}

/** Where opening an OPFS store spent its time, in ms, and what its pool holds. */
export interface StorageOpenSteps {
  /**
   * Installing the store's opfs-sahpool pool: SQLite-WASM's check that the browser's sync access
   * handles are fully synchronous (it creates, opens and deletes a probe file), then a sync access
   * handle on every file of the pool's folder (one round trip to the browser's storage process each,
   * in parallel) and the header of each read.
   */
  poolMs: number;
  /**
   * Encrypted stores only: deriving the key from the passphrase (scrypt, 128 MiB; the pool's time
   * includes loading SQLite3 Multiple Ciphers' build and reading the salt).
   */
  keyMs?: number;
  /** Opening the database on the pool (SQLite reads its header and schema). */
  dbMs: number;
  /** Files in the pool (its capacity): the database, its journal and free slots. */
  poolFiles: number;
}
