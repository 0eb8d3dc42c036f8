import type { Database, Sqlite3 } from '../sqlite.ts';

/** Where a store lives: `'auto'` picks OPFS in a dedicated worker and memory elsewhere. */
export type StorageKind = 'auto' | 'opfs' | 'memory' | 'file';

/** What the engine needs of an opened store, whichever backend holds it. */
export interface StorageBackend {
  readonly sqlite3: Sqlite3;
  /** The open database; every write to it is one transaction. */
  readonly db: Database;
  readonly kind: 'opfs' | 'memory' | 'file';
  /** Why the store is not where it was asked to be (e.g. no OPFS: memory), for `stats()`. */
  readonly reason: string | undefined;
  /**
   * Makes committed transactions durable when the database itself is not (the file backend
   * rewrites its file); absent where COMMIT is durable or nothing is kept (OPFS, memory).
   */
  readonly persist: (() => Promise<void>) | undefined;
  close(): void;
}
