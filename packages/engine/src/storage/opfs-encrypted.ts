/**
 * An encrypted OPFS store (a browser's dedicated worker): the store's opfs-sahpool pool installed
 * on SQLite3 Multiple Ciphers' build of SQLite WASM (`#cipher-sqlite`, `@evolu/sqlite-wasm`), a
 * cipher VFS made over the pool (the pool does not encrypt by itself), and the database opened on
 * it with the raw key `encryption.ts` derives (scrypt from `@noble/hashes` here, the same
 * parameters and key as a file store's). Every page of the database and of its rollback journal
 * is encrypted and authenticated (chacha20) before it reaches OPFS.
 *
 * A change of passphrase first copies the store (under its current key) beside it, then re-keys
 * it in place, then deletes the copy: SQLite3MC's in-place re-key through the pool's rollback
 * journal was seen to leave a store that no key opens when the browser was killed while it
 * committed (1 of 24 kills on a profile on disk). An open that finds the copy checks the store
 * under the key given, and when it does not open whole, puts the copy back (see {@link openStore}).
 */
import { AnamnesisError } from '@anamnesis/errors';
import { scryptAsync } from '@noble/hashes/scrypt.js';

import { loadCipherSqlite } from './cipher-sqlite.ts';
import { mapSqliteError, type Sqlite3, type WasmDatabase } from '../store/sqlite.ts';
import { fileHeader } from '../io/page-scan.ts';
import type { StorageBackend } from './backend.ts';
import { checkHeader, CIPHER, keyHolder, rawKey, SALT_BYTES, type Scrypt } from './encryption.ts';
import { wasmBackend } from './memory.ts';
import { installStorePool, opfsError, storeFile, type StorePool } from './opfs.ts';
import { opfsStoreHead } from './opfs-store-head.ts';

/** SQLite's result code for "file is not a database": what a key that does not fit answers. */
const SQLITE_NOTADB = 26;

/**
 * scrypt from `@noble/hashes` (JavaScript; it yields to the worker's event loop every few ms, so
 * the worker still answers while a key is derived).
 */
const browserScrypt: Scrypt = (passphrase, salt, { N, r, p, keyBytes }) =>
  scryptAsync(passphrase, salt, { N, r, p, dkLen: keyBytes, maxmem: 256 * N * r * p });

/**
 * Opens store `name` in OPFS encrypted under `passphrase` (already checked and NFC-normalised): a
 * new store is created encrypted with a random salt. `ENCRYPTION_MISMATCH` for a store that is
 * not encrypted, `WRONG_PASSPHRASE` when the key does not authenticate its first page (nothing is
 * written: both are told before or by a read), `STORE_LOCKED` when another worker holds its
 * files, `UNSUPPORTED` without OPFS or without SQLite3 Multiple Ciphers in the app's build.
 */
export async function openEncryptedOpfsStorage(
  name: string,
  passphrase: string,
): Promise<StorageBackend> {
  const start = performance.now();
  const sqlite3 = await loadCipherSqlite();
  let head: Uint8Array | undefined;
  try {
    head = await opfsStoreHead(name, 24);
  } catch (e) {
    throw opfsError(e);
  }
  const what = `the OPFS store ${name}`;
  let header = head && fileHeader(head);
  if (header && header !== 'empty') checkHeader(header, true, what, { name });
  let pool: StorePool;
  try {
    pool = await installStorePool(sqlite3, name);
  } catch (e) {
    throw opfsError(e);
  }
  const backup = backupFile(name);
  if (header === 'empty' && pool.getFileNames().includes(backup)) {
    // a re-key's copy, and no store: the copy was being put back (its salt is the store's)
    head = pool.exportFile(backup).subarray(0, 24);
    header = fileHeader(head);
  }
  if (header) checkHeader(header, true, what, { name });
  if (!head) {
    // The header could not be read beside the pool (a file held elsewhere, which the install
    // would have refused): read it through the pool, whole (rare).
    const file = storeFile(name);
    head = pool.getFileNames().includes(file)
      ? pool.exportFile(file).subarray(0, 24)
      : new Uint8Array(0);
    header = fileHeader(head);
    checkHeader(header, true, what, { name });
  }
  const pooled = performance.now();
  const salt =
    header === 'encrypted'
      ? head.slice(0, SALT_BYTES)
      : crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await rawKey(browserScrypt, passphrase, salt);
  const keyed = performance.now();
  const db = openStore(sqlite3, pool, name, key);
  return {
    ...wasmBackend(sqlite3, db, 'opfs', undefined),
    encrypted: true,
    ...keyHolder(browserScrypt, key, (next) => rekey(db, pool, name, next)),
    openSteps: {
      poolMs: pooled - start,
      keyMs: keyed - pooled,
      dbMs: performance.now() - keyed,
      poolFiles: pool.getCapacity(),
    },
  };
}

/**
 * The name of SQLite3MC's cipher VFS over the pool's VFS, made on first use (once per worker: a
 * store closed and opened again reuses it).
 */
function cipherVfs(sqlite3: Sqlite3, poolVfs: string): string {
  const name = `multipleciphers-${poolVfs}`;
  const capi = sqlite3.capi as unknown as {
    sqlite3_vfs_find(name: string): number;
    sqlite3mc_vfs_create(vfs: string, makeDefault: number): number;
  };
  if (!capi.sqlite3_vfs_find(name)) {
    const rc = capi.sqlite3mc_vfs_create(poolVfs, 0);
    if (rc !== 0)
      throw new AnamnesisError(
        'INTERNAL',
        `SQLite3 Multiple Ciphers' VFS over the pool (rc ${rc})`,
      );
  }
  return name;
}

/** The copy a change of passphrase makes of the store first, under its current key. */
function backupFile(name: string): string {
  return `${storeFile(name)}-rekey`;
}

/**
 * Opens the store under `key`; when a re-key's copy is there (the worker stopped during a change
 * of passphrase), the store is kept if it opens whole under `key` (the re-key committed, or was
 * rolled back), else the copy is put back in its place when it opens whole under `key` (the key
 * before the re-key), and the copy is deleted. `WRONG_PASSPHRASE` when neither opens.
 */
function openStore(sqlite3: Sqlite3, pool: StorePool, name: string, key: string): WasmDatabase {
  const vfs = cipherVfs(sqlite3, pool.vfsName);
  const file = storeFile(name);
  const backup = backupFile(name);
  if (!pool.getFileNames().includes(backup)) return openKeyed(sqlite3, vfs, file, name, key);
  let failure: unknown;
  try {
    const db = openKeyed(sqlite3, vfs, file, name, key);
    if (whole(db)) {
      pool.unlink(backup);
      return db;
    }
    db.close();
  } catch (e) {
    failure = e;
  }
  let copy: WasmDatabase;
  try {
    copy = openKeyed(sqlite3, vfs, backup, name, key);
  } catch (e) {
    throw failure ?? e;
  }
  try {
    if (!whole(copy))
      throw new AnamnesisError(
        'STORE_CORRUPT',
        `the OPFS store ${name} and the copy its change of passphrase made are both damaged`,
        { details: { name } },
      );
    // the store's rollback journal goes too: it belongs to the damaged file
    pool.unlink(file);
    pool.unlink(`${file}-journal`);
    copy.exec(`VACUUM INTO '${file}'`);
  } catch (e) {
    throw mapSqliteError(e, `restoring the OPFS store ${name} from its copy`);
  } finally {
    copy.close();
  }
  const db = openKeyed(sqlite3, vfs, file, name, key);
  pool.unlink(backup);
  return db;
}

/** Whether the open database reads whole (`PRAGMA quick_check`; any error: no). */
function whole(db: WasmDatabase): boolean {
  try {
    return db.selectValue('PRAGMA quick_check') === 'ok';
  } catch {
    return false;
  }
}

/**
 * Opens the database `file` on the cipher VFS and keys it before any other statement (preparing
 * one reads the schema), then reads the first page: `WRONG_PASSPHRASE` when it does not
 * authenticate.
 */
function openKeyed(
  sqlite3: Sqlite3,
  vfs: string,
  file: string,
  name: string,
  key: string,
): WasmDatabase {
  let db: WasmDatabase | undefined;
  try {
    db = new sqlite3.oo1.DB({ filename: file, vfs, flags: 'c' });
    db.exec(`PRAGMA cipher = '${CIPHER}'`);
    db.exec(`PRAGMA key = '${key}'`);
    db.selectValue('SELECT count(*) FROM sqlite_master');
    return db;
  } catch (e) {
    db?.close();
    if (((e as { resultCode?: number }).resultCode ?? 0) % 256 === SQLITE_NOTADB)
      throw new AnamnesisError(
        'WRONG_PASSPHRASE',
        `the OPFS store ${name}: the passphrase does not open it (its first page does not authenticate under the key it derives); nothing was changed`,
        { cause: e, details: { name } },
      );
    throw mapSqliteError(e, `opening the OPFS store ${name}`);
  }
}

/**
 * Re-keys the open store with `key` (derived from the new passphrase and the store's salt): a
 * copy of the store under its current key first (`VACUUM INTO`, on the same cipher VFS and key),
 * then SQLite3MC rewrites every page in one transaction, then the copy is deleted; an open after
 * a crash in between keeps whichever opens whole (see {@link openStore}). The engine's write queue
 * waits for it: no other write runs in between.
 */
async function rekey(db: WasmDatabase, pool: StorePool, name: string, key: string): Promise<void> {
  const backup = backupFile(name);
  try {
    // the store, its journal, the copy (and its journal): the pool's files are made up front
    await pool.reserveMinimumCapacity(5);
    if (pool.getFileNames().includes(backup)) pool.unlink(backup);
    db.exec(`VACUUM INTO '${backup}'`);
    db.exec(`PRAGMA rekey = '${key}'`);
  } catch (e) {
    pool.unlink(backup); // the store is under its old key still (the re-key rolled back)
    throw mapSqliteError(e, `changing the passphrase of the OPFS store ${name}`);
  }
  pool.unlink(backup);
}
