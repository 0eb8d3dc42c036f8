import { AnamnesisError } from '@anamnesis/errors';
import { mapSqliteError } from '../store/sqlite.ts';
import { fileHeader } from '../io/page-scan.ts';
import type { StorageBackend } from './backend.ts';
import {
  checkHeader,
  checkPassphrase,
  CIPHER,
  keyHolder,
  rawKey,
  SALT_BYTES,
  type Scrypt,
} from './encryption.ts';
import { NativeDatabase, NativeReader, type NativeConnection } from './native-database.ts';
import { GroupSync } from './group-sync.ts';

/** The SQLite library of a plain file store, and the command that installs it. */
const LIBRARY = 'better-sqlite3';
const INSTALL = 'npm install better-sqlite3@12.11.1';
/**
 * The SQLite library of an encrypted file store: better-sqlite3 built with SQLite3 Multiple
 * Ciphers (the same API), and the command that installs it. 12.11.1 is the version that installs
 * on Node 20 (13.x needs Node 22).
 */
const CIPHER_LIBRARY = 'better-sqlite3-multiple-ciphers';
const CIPHER_INSTALL = 'npm install better-sqlite3-multiple-ciphers@12.11.1';

/** Default of `EngineOptions.busyTimeoutMs`: how long a write waits for another process's, in ms. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

type Open = new (
  path: string,
  options: { timeout: number; readonly?: boolean; fileMustExist?: boolean },
) => NativeConnection;
const libraries = new Map<string, Promise<Open>>();

/**
 * better-sqlite3 (or, for an encrypted store, better-sqlite3-multiple-ciphers), imported when the
 * first file store opens (never by a browser bundle: the name is not a literal a bundler follows).
 * Optional peer dependencies of `@anamnesis/engine`: `UNSUPPORTED`, naming the install command,
 * where the one needed is not installed.
 */
function loadLibrary(encrypted: boolean): Promise<Open> {
  const name = encrypted ? CIPHER_LIBRARY : LIBRARY;
  let library = libraries.get(name);
  if (!library) {
    library = import(/* @vite-ignore */ name as string).then(
      (m: { default: Open }) => m.default,
      (cause: unknown) => {
        libraries.delete(name);
        throw new AnamnesisError(
          'UNSUPPORTED',
          encrypted
            ? `an encrypted file store needs ${name} (SQLite with SQLite3 Multiple Ciphers for Node, a native module), which is not installed: ${CIPHER_INSTALL}`
            : `storage 'file' needs ${name} (SQLite for Node, a native module), which is not installed: ${INSTALL}`,
          { cause },
        );
      },
    );
    libraries.set(name, library);
  }
  return library;
}

/** Options of {@link openFileStorage}. */
export interface FileStorageOptions {
  /** How long a write waits for another process's to finish, in ms, before `STORE_LOCKED`. */
  busyTimeoutMs?: number;
  /** Create the file when it does not exist (default true); false: `STORE_NOT_FOUND` instead. */
  create?: boolean;
  /** The store is (or, when new, becomes) encrypted with a key derived from this passphrase. */
  passphrase?: string;
}

/**
 * A store in one SQLite file on disk (Node only), opened with real SQLite (better-sqlite3): every
 * write transaction writes only the pages it changed, to the write-ahead log (WAL), and a write is
 * acknowledged once the log is synced (group commit: `storage/group-sync.ts`; the COMMIT itself
 * does not wait for the disk, `synchronous = NORMAL`, so writes that come together share one
 * sync), so an acknowledged write survives a crash of the process or of the operating system. SQLite's file locks let any number of processes open the same store: one
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
  const passphrase =
    options.passphrase === undefined
      ? undefined
      : checkPassphrase(options.passphrase, 'encryption.passphrase');
  const Open = await loadLibrary(passphrase !== undefined);
  if (create) await createPrivately(path);
  else await mustExist(path);
  let readonly = !(await writable(path));
  // A store left by a read-only session: its -shm (and -wal) as SQLite made them, read-only.
  const stale = readonly ? undefined : await fixLeftBehind(path);
  if (stale !== undefined) readonly = true;
  const { statSync } = await import('node:fs');
  const fsPromises = await import('node:fs/promises');
  const paths = await import('node:path');
  const group = new GroupSync(
    path,
    paths.dirname(path),
    (file, flags) => fsPromises.open(file, flags),
    (file) => fsPromises.stat(file),
  );
  // Two processes (or connections) creating one new encrypted store at once: each picked its own
  // salt for an empty file, and all but the first find the first's salt in the header only when
  // a read fails (`SQLITE_NOTADB`); they then read the header and derive the key again, once.
  for (let attempt = 0; ; attempt++) {
    const head = await readHead(path);
    // A file that cannot be read: SQLite says why as it opens (a plain store).
    if (head === undefined && passphrase !== undefined)
      throw new AnamnesisError('READ_ONLY', `cannot read ${path}`, { details: { path } });
    const header = head === undefined ? 'unknown' : fileHeader(head);
    checkHeader(header, passphrase !== undefined, path, { path });
    let key: string | undefined;
    if (passphrase !== undefined) {
      const { randomBytes } = await import('node:crypto');
      const salt = header === 'empty' ? randomBytes(SALT_BYTES) : head!.subarray(0, SALT_BYTES);
      key = await rawKey(nodeScrypt, passphrase, salt);
    }
    try {
      return openConnection(Open, path, {
        busyTimeoutMs,
        readonly,
        create,
        key,
        statSync,
        group,
        ...(stale === undefined ? {} : { reason: stale }),
      });
    } catch (e) {
      if (
        attempt === 0 &&
        header === 'empty' &&
        e instanceof AnamnesisError &&
        (e.code === 'WRONG_PASSPHRASE' || e.code === 'STORE_CORRUPT')
      )
        continue;
      throw e;
    }
  }
}

/** Opens the connection, keyed when `key` is given, and the store around it. */
function openConnection(
  Open: Open,
  path: string,
  options: {
    busyTimeoutMs: number;
    readonly: boolean;
    create: boolean;
    key: string | undefined;
    statSync: StatSync;
    /** Syncs the log for the writes' acknowledgements. */
    group: GroupSync;
    /** Why the store is opened read-only, where it is not the file's or folder's mode. */
    reason?: string;
  },
): StorageBackend {
  const { busyTimeoutMs, readonly, create, key, statSync, group } = options;
  let db: NativeDatabase | undefined;
  try {
    db = new NativeDatabase(
      new Open(path, { timeout: busyTimeoutMs, readonly, fileMustExist: !create }),
    );
    if (key !== undefined) applyKey(db, key, path);
    if (!db.connection.readonly) {
      const mode = String(db.selectValue('PRAGMA journal_mode = WAL'));
      if (mode !== 'wal')
        throw new AnamnesisError('INTERNAL', `${path}: SQLite kept journal mode ${mode}, not WAL`);
    }
    // The COMMIT does not wait for the disk; the write's acknowledgement does (`durable`).
    db.exec('PRAGMA synchronous = NORMAL');
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
  const checkFile = fileCheck(path, statSync);
  return {
    db: open,
    kind: 'file',
    encrypted: key !== undefined,
    busyTimeoutMs,
    checkFile,
    durable: () => group.sync(),
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
    syncs: () => group.syncs,
    reason: readonly
      ? (options.reason ??
        'the store file or its folder is read-only: it is read, and every write fails with READ_ONLY')
      : undefined,
    reader: () => new NativeReader(open),
    sqliteWasmBytes: () => 0,
    changedElsewhere: () => {
      const now = Number(version.get());
      const changed = now !== seen;
      seen = now;
      return changed;
    },
    ...(key === undefined ? {} : keyHolder(nodeScrypt, key, (next) => rekeyFile(open, path, next))),
    close: () => {
      open.close();
      void group.close();
    },
  };
}

/**
 * Keys a connection before any other statement, then reads the first page: a key that does not
 * authenticate it (SQLite3MC answers `SQLITE_NOTADB`) is `WRONG_PASSPHRASE`, and nothing was
 * written (a read only).
 */
function applyKey(db: NativeDatabase, key: string, path: string): void {
  // On the connection itself: `NativeDatabase.exec` reads `changes()`, and preparing any
  // statement before the key reads the schema (`SQLITE_NOTADB`).
  db.connection.exec(`PRAGMA cipher = '${CIPHER}'`);
  db.connection.exec(`PRAGMA key = '${key}'`);
  try {
    db.selectValue('SELECT count(*) FROM sqlite_master');
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB')
      throw new AnamnesisError(
        'WRONG_PASSPHRASE',
        `${path}: the passphrase does not open this store (its first page does not authenticate under the key it derives); nothing was changed`,
        { cause: e, details: { path } },
      );
    throw e;
  }
}

/**
 * Re-keys an open encrypted store with `key` (derived from the new passphrase and the store's
 * salt). SQLite3MC cannot re-key a store in WAL mode: the log is checkpointed into the file, the
 * store switched to a rollback journal for the re-key (every page rewritten in one transaction: a
 * crash leaves the old key or the new, never a mix), then back to WAL. The switch needs this
 * connection to be the store's only one: `STORE_LOCKED` while another process has it open, and
 * nothing changes. Synchronous: no other call of the engine runs in between.
 */
function rekeyFile(db: NativeDatabase, path: string, key: string): void {
  try {
    const mode = String(db.selectValue('PRAGMA journal_mode = DELETE'));
    if (mode !== 'delete')
      throw new AnamnesisError(
        'STORE_LOCKED',
        `${path}: another process has the store open; close it there to change the passphrase`,
      );
  } catch (e) {
    throw mapSqliteError(e, `changing the passphrase of ${path}`);
  }
  try {
    // a rollback journal's commit is this call's acknowledgement: it waits for the disk
    db.exec('PRAGMA synchronous = FULL');
    db.exec(`PRAGMA rekey = '${key}'`);
  } catch (e) {
    throw mapSqliteError(e, `changing the passphrase of ${path}`);
  } finally {
    db.selectValue('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
  }
}

/** `fs.statSync` (imported when a file store opens: see {@link openFileStorage}). */
type StatSync = (path: string) => { dev: number; ino: number };

/** At most this often, in ms, a call looks at whether the store file is still there. */
const FILE_CHECK_MS = 250;

/**
 * {@link StorageBackend.checkFile} of the store at `path`: the file there must be the one opened
 * (the same device and inode). One deleted (`rm memory.db*`), moved or replaced under the running
 * process is `STORE_NOT_FOUND` from then on: SQLite would go on writing to the deleted file, and
 * every write it acknowledged would be gone.
 */
function fileCheck(path: string, statSync: StatSync): (force: boolean) => void {
  const opened = statSync(path);
  let checkedAt = performance.now();
  let gone: string | undefined;
  return (force) => {
    if (gone === undefined && (force || performance.now() - checkedAt >= FILE_CHECK_MS)) {
      checkedAt = performance.now();
      let now: { dev: number; ino: number } | undefined;
      try {
        now = statSync(path);
      } catch {
        now = undefined;
      }
      if (now === undefined) gone = 'deleted or moved';
      else if (now.dev !== opened.dev || now.ino !== opened.ino) gone = 'replaced by another file';
    }
    if (gone !== undefined)
      throw new AnamnesisError(
        'STORE_NOT_FOUND',
        `${path}: the store file was deleted, moved or replaced (${gone}) while this process had it open; nothing written since has been acknowledged, and this call did nothing. Close the engine and open the store again: where no file is at the path, that creates a new, empty store`,
        { details: { path } },
      );
  };
}

/**
 * A store left by a read-only session (SQLite made its `-shm`, and maybe its `-wal`, with the
 * read-only file's mode) whose file is writable again: each of them that cannot be written is
 * given the store file's mode when this user owns it. Returns why the store must stay read-only
 * (one this user does not own, naming it), or undefined.
 */
async function fixLeftBehind(path: string): Promise<string | undefined> {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const mode = (await fs.stat(path)).mode & 0o666;
  const uid = process.getuid?.();
  for (const side of [`${path}-shm`, `${path}-wal`]) {
    const stat = await fs.stat(side).catch(() => undefined);
    if (!stat) continue;
    if (
      await fs.access(side, constants.W_OK).then(
        () => true,
        () => false,
      )
    )
      continue;
    if (uid !== undefined && stat.uid === uid) {
      const fixed = await fs.chmod(side, mode | 0o200).then(
        () => true,
        () => false,
      );
      if (fixed) continue;
    }
    return `${side} cannot be written (a read-only session left it so): the store is read, and every write fails with READ_ONLY; make it writable (chmod u+w ${side}), or remove it while no process has the store open`;
  }
  return undefined;
}

/** scrypt from `node:crypto` (OpenSSL's, in the thread pool: the event loop is not blocked). */
const nodeScrypt: Scrypt = async (passphrase, salt, { N, r, p, keyBytes }) => {
  const { scrypt } = await import('node:crypto');
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, keyBytes, { N, r, p, maxmem: 256 * N * r * p }, (e, key) =>
      e ? reject(new AnamnesisError('INTERNAL', 'deriving the key', { cause: e })) : resolve(key),
    ),
  );
};

/** The first 24 bytes of the file at `path` (fewer if it is shorter); undefined if unreadable. */
async function readHead(path: string): Promise<Uint8Array | undefined> {
  const { open } = await import('node:fs/promises');
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const head = new Uint8Array(24);
    const { bytesRead } = await file.read(head, 0, 24, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
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
