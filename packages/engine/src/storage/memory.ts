import type { Sqlite3 } from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';

/** A store in memory: lost when the engine closes. `reason` says why, when it was not asked for. */
export function openMemoryStorage(sqlite3: Sqlite3, reason?: string): StorageBackend {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  return { sqlite3, db, kind: 'memory', reason, persist: undefined, close: () => db.close() };
}
