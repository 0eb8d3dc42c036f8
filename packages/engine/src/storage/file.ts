import { AnamnesisError } from '@anamnesis/errors';
import { mapSqliteError } from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';
import { NativeDatabase, NativeReader, type NativeConnection } from './native-database.ts';

/** The SQLite library of the file store, and the command that installs it. */
const LIBRARY = 'better-sqlite3';
const INSTALL = 'npm install better-sqlite3@12.11.1';

/** Default of `EngineOptions.busyTimeoutMs`: how long a write waits for another process's, in ms. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

type Open = new (
  path: string,
  options: { timeout: number; readonly?: boolean; fileMustExist?: boolean },
) => NativeConnection;
let library: Promise<Open> | undefined;

/**
 * better-sqlite3, imported when the first file store opens (never by a browser bundle: the name is
 * not a literal a bundler follows). An optional peer dependency of `@anamnesis/engine`:
 * `UNSUPPORTED`, naming the install command, where it is not installed.
 */
function loadLibrary(): Promise<Open> {
  library ??= import(/* @vite-ignore */ LIBRARY as string).then(
    (m: { default: Open }) => m.default,
    (cause: unknown) => {
      library = undefined;
      throw new AnamnesisError(
        'UNSUPPORTED',
        `storage 'file' needs ${LIBRARY} (SQLite for Node, a native module), which is not installed: ${INSTALL}`,
        { cause },
      );
    },
  );
  return library;
}

/** Options of {@link openFileStorage}. */
export interface FileStorageOptions {
  /** How long a write waits for another process's to finish, in ms, before `STORE_LOCKED`. */
  busyTimeoutMs?: number;
  /** Create the file when it does not exist (default true); false: `STORE_NOT_FOUND` instead. */
  create?: boolean;
}

/**
 * A store in one SQLite file on disk (Node only), opened with real SQLite (better-sqlite3): every
 * write transaction writes only the pages it changed, to the write-ahead log (WAL), and syncs it
 * at COMMIT (`synchronous = FULL`), so an acknowledged write survives a crash of the process or of
 * the operating system. SQLite's file locks let any number of processes open the same store: one
 * writes at a time, a write waits up to `busyTimeoutMs` for another process's (then
 * `STORE_LOCKED`), and readers never wait. `PRAGMA data_version` tells the engine, at each call,
 * that another process committed, so it catches up with what it keeps in memory. A store written
 * by an older version (one whole SQLite file, rollback journal) opens as it is and is switched to
 * WAL.
 *
 * A new store file is created by this process with mode 0600 (readable and writable by its owner
 * only) before SQLite opens it; SQLite gives its `-wal` and `-shm` files the store's mode. `node:`
 * modules and better-sqlite3 are imported when a file store opens, not with this module: a bundler
 * that inlines the engine's lazy `import()` of this module must not give a browser worker a
 * top-level `node:` import.
 */
export async function openFileStorage(
  path: string,
  options: FileStorageOptions = {},
): Promise<StorageBackend> {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0 || busyTimeoutMs > 600_000)
    throw new AnamnesisError('INVALID_INPUT', 'busyTimeoutMs must be an integer in [0, 600000]');
  const create = options.create ?? true;
  if (typeof create !== 'boolean')
    throw new AnamnesisError('INVALID_INPUT', 'create must be a boolean');
  const Open = await loadLibrary();
  if (create) await createPrivately(path);
  else await mustExist(path);
  const readonly = !(await writable(path));
  let db: NativeDatabase | undefined;
  try {
    db = new NativeDatabase(
      new Open(path, { timeout: busyTimeoutMs, readonly, fileMustExist: !create }),
    );
    if (!db.connection.readonly) {
      const mode = String(db.selectValue('PRAGMA journal_mode = WAL'));
      if (mode !== 'wal')
        throw new AnamnesisError('INTERNAL', `${path}: SQLite kept journal mode ${mode}, not WAL`);
    }
    db.exec('PRAGMA synchronous = FULL');
    // A first read: a file that is not a SQLite database fails here (`STORE_CORRUPT`).
    db.selectValue('SELECT count(*) FROM sqlite_master');
  } catch (e) {
    db?.close();
    if (readonly && (e as { code?: string }).code === 'SQLITE_CANTOPEN')
      throw new AnamnesisError(
        'READ_ONLY',
        `${path} is in a read-only folder: SQLite needs to create its -wal and -shm files beside it (copy the store to a writable folder to read it)`,
        { cause: e },
      );
    throw mapSqliteError(e, `opening ${path}`);
  }
  const open = db;
  const version = open.statement('PRAGMA data_version').pluck(true);
  let seen = Number(version.get());
  return {
    db: open,
    kind: 'file',
    reason: readonly
      ? 'the store file or its folder is read-only: it is read, and every write fails with READ_ONLY'
      : undefined,
    reader: () => new NativeReader(open),
    sqliteWasmBytes: () => 0,
    changedElsewhere: () => {
      const now = Number(version.get());
      const changed = now !== seen;
      seen = now;
      return changed;
    },
    close: () => open.close(),
  };
}

/**
 * Whether the store file and its folder can be written (SQLite writes its `-wal` and `-shm` files
 * beside the store). A store that cannot is opened read-only: it can be read, and every write
 * fails with `READ_ONLY`.
 */
async function writable(path: string): Promise<boolean> {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const paths = await import('node:path');
  try {
    await fs.access(path, constants.W_OK);
    await fs.access(paths.dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `STORE_NOT_FOUND` unless there is a file at `path` (a store opened with `create: false`: the
 * CLI's reading commands, where a mistyped path must not become an empty store).
 */
async function mustExist(path: string): Promise<void> {
  const { stat } = await import('node:fs/promises');
  const found = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found)
    throw new AnamnesisError(
      'STORE_NOT_FOUND',
      `${path}: no store there (check the path; writing commands such as ingest and import create it)`,
      { details: { path } },
    );
}

/**
 * Creates the store file, empty, with mode 0600 unless it exists: exclusively (`O_EXCL`, and
 * `O_NOFOLLOW` where the platform has it), so a file or symlink planted under its name is never
 * written through by this step. A folder that cannot be written is `READ_ONLY`.
 */
async function createPrivately(path: string): Promise<void> {
  const { open } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  try {
    await (await open(path, flags, 0o600)).close();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'EEXIST') return;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
      throw new AnamnesisError('READ_ONLY', `cannot create ${path}: its folder is read-only`, {
        cause: e,
      });
    if (code === 'ENOSPC' || code === 'EDQUOT')
      throw new AnamnesisError('QUOTA_EXCEEDED', `cannot create ${path}`, { cause: e });
    throw new AnamnesisError('INVALID_INPUT', `cannot create the store file ${path}: ${code}`, {
      cause: e,
    });
  }
}
