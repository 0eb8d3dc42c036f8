import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { AnamnesisError } from '@anamnesis/errors';
import type { Database } from './database.ts';

/** The initialised SQLite-WASM module. */
export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
/** A SQLite-WASM `oo1` database handle (memory and OPFS stores, recovery). */
export type WasmDatabase = InstanceType<Sqlite3['oo1']['DB']>;

/** A SQLite-WASM handle as the engine's {@link Database} (the subset of `oo1.DB` it uses). */
export function asDatabase(db: WasmDatabase): Database {
  return db as unknown as Database;
}

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

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_NOMEM = 7;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;
const SQLITE_IOERR_SHORT_READ = SQLITE_IOERR | (2 << 8);

/** SQLite's primary result codes by name, as better-sqlite3 names them in `code`. */
const PRIMARY_CODES: Readonly<Record<string, number>> = {
  SQLITE_BUSY,
  SQLITE_LOCKED,
  SQLITE_NOMEM,
  SQLITE_READONLY,
  SQLITE_IOERR,
  SQLITE_CORRUPT,
  SQLITE_FULL,
  SQLITE_NOTADB,
};

/**
 * The primary result code of a SQLite error: SQLite-WASM's carry it as a number (`resultCode`,
 * extended codes in the high bits), better-sqlite3's as a name (`code`, e.g.
 * `SQLITE_IOERR_WRITE`).
 */
function primaryCode(e: unknown): number | undefined {
  const { resultCode, code } = (e ?? {}) as { resultCode?: unknown; code?: unknown };
  if (typeof resultCode === 'number') return resultCode & 0xff;
  if (typeof code === 'string') return PRIMARY_CODES[/^SQLITE_[A-Z]+/.exec(code)?.[0] ?? ''];
  return undefined;
}

/** A read past the end of the file (`SQLITE_IOERR_SHORT_READ`): a truncated store. */
function shortRead(e: unknown): boolean {
  const { resultCode, code } = (e ?? {}) as { resultCode?: unknown; code?: unknown };
  return resultCode === SQLITE_IOERR_SHORT_READ || code === 'SQLITE_IOERR_SHORT_READ';
}

/**
 * Maps a SQLite error to the catalogue: a full disk, or SQLite out of memory, is `QUOTA_EXCEEDED`
 * (a store in memory lives in SQLite-WASM's heap, which this build caps at 2 GiB: its writes fail
 * there, and nothing of them is kept), corruption (or a file cut short) `STORE_CORRUPT`, a store another process holds past the busy timeout `STORE_LOCKED`, a
 * read-only file or folder `READ_ONLY`.
 */
export function mapSqliteError(e: unknown, what: string): AnamnesisError {
  if (e instanceof AnamnesisError) return e;
  const primary = primaryCode(e);
  const message = e instanceof Error ? e.message : String(e);
  if (primary === SQLITE_FULL || /quota|QuotaExceeded|disk is full/i.test(message)) {
    return new AnamnesisError('QUOTA_EXCEEDED', what, { cause: e });
  }
  if (primary === SQLITE_NOMEM) {
    return new AnamnesisError('QUOTA_EXCEEDED', `${what}: SQLite ran out of memory`, { cause: e });
  }
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB || shortRead(e)) {
    return new AnamnesisError('STORE_CORRUPT', `${what}: ${message}`, { cause: e });
  }
  if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) {
    return new AnamnesisError(
      'STORE_LOCKED',
      `${what}: another process held the store past the busy timeout (${message})`,
      { cause: e },
    );
  }
  if (primary === SQLITE_READONLY) {
    return new AnamnesisError('READ_ONLY', `${what}: ${message}`, { cause: e });
  }
  if (primary === SQLITE_IOERR) {
    return new AnamnesisError('INTERNAL', `${what}: I/O error: ${message}`, { cause: e });
  }
  return new AnamnesisError('INTERNAL', `${what}: ${message}`, { cause: e });
}

/**
 * Runs `fn` inside one `BEGIN IMMEDIATE … COMMIT`; any throw rolls everything back and is mapped
 * to the error catalogue. `fn` must be synchronous, so no other call can interleave. `begun`: the
 * caller ran `BEGIN IMMEDIATE` already ({@link tryBegin}), in the same synchronous step.
 */
export function transaction<T>(db: Database, what: string, fn: () => T, begun = false): T {
  if (!begun) db.exec('BEGIN IMMEDIATE');
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
export function exportDatabase(sqlite3: Sqlite3, db: WasmDatabase): Uint8Array {
  return sqlite3.capi.sqlite3_js_db_export(db);
}

/**
 * Opens an in-memory database holding a copy of `bytes` (an SQLite file image). The image of a
 * store in WAL mode (a file store, closed: its log checkpointed into the file) is read as a
 * rollback-journal one: an in-memory database has no log to read.
 */
export function importDatabase(sqlite3: Sqlite3, bytes: Uint8Array): WasmDatabase {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  // the file format's write and read versions (bytes 18 and 19): 2 for WAL, 1 for a journal
  if (bytes.length >= 100 && bytes[18] === 2 && bytes[19] === 2) {
    bytes = bytes.slice();
    bytes[18] = 1;
    bytes[19] = 1;
  }
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

/** Sets the connection's busy timeout (ms, a whole number ≥ 0). */
function setBusyTimeout(db: Database, ms: number): void {
  const waitFor = Math.max(0, Math.floor(ms));
  db.exec(`PRAGMA busy_timeout = ${waitFor}`);
}

/**
 * How long, in ms, SQLite's busy handler waits at each try within {@link tryBegin}. Its own
 * handler sleeps 1, 2, 5, 10, 15… ms between tries, so a lock freed just after a try was seen up
 * to 10 ms late: beside a process that writes one memory after another, its lock is free for a few
 * ms at a time (while it embeds and syncs), and a `remember` waited for the next try.
 */
const TRY_EVERY_MS = 1;

/**
 * `BEGIN IMMEDIATE`, waiting at most `waitMs` for another process's write lock, tried about every
 * {@link TRY_EVERY_MS} (SQLite's busy handler sleeps the thread: a long wait here would stop every
 * other call of this process, the reads included). Returns false when the lock stayed held
 * (nothing begun), true once the write transaction is open; throws (mapped) for anything else. The
 * connection's busy timeout is put back as it was.
 */
export function tryBegin(db: Database, waitMs: number, what: string): boolean {
  const before = Number(db.selectValue('PRAGMA busy_timeout'));
  const deadline = performance.now() + waitMs;
  setBusyTimeout(db, Math.min(TRY_EVERY_MS, waitMs));
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return true;
      } catch (e) {
        const mapped = mapSqliteError(e, what);
        if (mapped.code !== 'STORE_LOCKED') throw mapped;
        if (performance.now() >= deadline) return false;
      }
    }
  } finally {
    setBusyTimeout(db, before);
  }
}
