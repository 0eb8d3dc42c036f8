import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { AnamnesisError } from '@anamnesis/errors';

/** The initialised SQLite-WASM module. */
export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
/** An `oo1` database handle. */
export type Database = InstanceType<Sqlite3['oo1']['DB']>;

let modulePromise: Promise<Sqlite3> | undefined;

/**
 * Loads SQLite-WASM once per realm (worker or Node process): every store opened in the realm
 * shares the load. Calling it before the first open (a worker, as it starts) lets the wasm
 * download and compile while the open is still being decided.
 */
export function loadSqlite(): Promise<Sqlite3> {
  modulePromise ??= sqlite3InitModule().catch((cause: unknown) => {
    modulePromise = undefined;
    throw new AnamnesisError('UNSUPPORTED', 'SQLite-WASM failed to load', { cause });
  });
  return modulePromise;
}

const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;
const SQLITE_IOERR = 10;

/** Maps a SQLite error to the catalogue: a full disk is `QUOTA_EXCEEDED`, corruption `STORE_CORRUPT`. */
export function mapSqliteError(e: unknown, what: string): AnamnesisError {
  if (e instanceof AnamnesisError) return e;
  const rc = (e as { resultCode?: number } | null)?.resultCode;
  const primary = typeof rc === 'number' ? rc & 0xff : undefined;
  const message = e instanceof Error ? e.message : String(e);
  if (primary === SQLITE_FULL || /quota|QuotaExceeded|disk is full/i.test(message)) {
    return new AnamnesisError('QUOTA_EXCEEDED', what, { cause: e });
  }
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB) {
    return new AnamnesisError('STORE_CORRUPT', `${what}: ${message}`, { cause: e });
  }
  if (primary === SQLITE_IOERR) {
    return new AnamnesisError('INTERNAL', `${what}: I/O error: ${message}`, { cause: e });
  }
  return new AnamnesisError('INTERNAL', `${what}: ${message}`, { cause: e });
}

/**
 * Runs `fn` inside one `BEGIN IMMEDIATE … COMMIT`; any throw rolls everything back and is mapped
 * to the error catalogue. `fn` must be synchronous, so no other call can interleave.
 */
export function transaction<T>(db: Database, what: string, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // the transaction may already be rolled back by SQLite (e.g. SQLITE_FULL)
    }
    throw mapSqliteError(e, what);
  }
}

/** Serialises a database to bytes (the SQLite file format). */
export function exportDatabase(sqlite3: Sqlite3, db: Database): Uint8Array {
  return sqlite3.capi.sqlite3_js_db_export(db);
}

/** Opens an in-memory database holding a copy of `bytes` (an SQLite file image). */
export function importDatabase(sqlite3: Sqlite3, bytes: Uint8Array): Database {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const p = sqlite3.wasm.allocFromTypedArray(bytes);
  const { capi } = sqlite3;
  const rc = capi.sqlite3_deserialize(
    db,
    'main',
    p,
    bytes.byteLength,
    bytes.byteLength,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
  );
  if (rc !== 0) {
    db.close();
    throw new AnamnesisError('STORE_CORRUPT', `could not load the store file (rc ${rc})`);
  }
  return db;
}
