import { WasmReader } from '../store/reader.ts';
import { asDatabase, type Sqlite3 } from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';

/** A store in memory: lost when the engine closes. `reason` says why, when it was not asked for. */
export function openMemoryStorage(sqlite3: Sqlite3, reason?: string): StorageBackend {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  return wasmBackend(sqlite3, db, 'memory', reason);
}

/** The {@link StorageBackend} of a SQLite-WASM database: the only connection to its store. */
export function wasmBackend(
  sqlite3: Sqlite3,
  db: InstanceType<Sqlite3['oo1']['DB']>,
  kind: 'memory' | 'opfs',
  reason: string | undefined,
): StorageBackend {
  return {
    db: asDatabase(db),
    kind,
    reason,
    reader: (capacity) => new WasmReader(db, sqlite3, capacity),
    sqliteWasmBytes: () => sqlite3.wasm.heap8u().byteLength,
    changedElsewhere: () => false,
    close: () => db.close(),
  };
}
