/**
 * An encrypted OPFS store (a browser's dedicated worker): the store's opfs-sahpool pool installed
 * on SQLite3 Multiple Ciphers' build of SQLite WASM (`#cipher-sqlite`, `@evolu/sqlite-wasm`), a
 * cipher VFS made over the pool (the pool does not encrypt by itself), and the database opened on
 * it with the raw key `encryption.ts` derives (scrypt from `@noble/hashes` here, the same
 * parameters and key as a file store's). Every page of the database and of its rollback journal
 * is encrypted and authenticated (chacha20) before it reaches OPFS.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { scryptAsync } from '@noble/hashes/scrypt.js';

import { loadCipherSqlite } from './cipher-sqlite.ts';
import { mapSqliteError, type Sqlite3, type WasmDatabase } from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';
import {
  checkHeader,
  CIPHER,
  fileHeader,
  keyHolder,
  rawKey,
  SALT_BYTES,
  type Scrypt,
} from './encryption.ts';
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
  if (header) checkHeader(header, true, what, { name });
  let pool: StorePool;
  try {
    pool = await installStorePool(sqlite3, name);
  } catch (e) {
    throw opfsError(e);
  }
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
  const db = openKeyed(sqlite3, cipherVfs(sqlite3, pool.vfsName), name, key);
  return {
    ...wasmBackend(sqlite3, db, 'opfs', undefined),
    encrypted: true,
    ...keyHolder(browserScrypt, key, (next) => rekey(db, name, next)),
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

/**
 * Opens the database on the cipher VFS and keys it before any other statement (preparing one
 * reads the schema), then reads the first page: `WRONG_PASSPHRASE` when it does not authenticate.
 */
function openKeyed(sqlite3: Sqlite3, vfs: string, name: string, key: string): WasmDatabase {
  let db: WasmDatabase | undefined;
  try {
    db = new sqlite3.oo1.DB({ filename: storeFile(name), vfs, flags: 'c' });
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
 * Re-keys the open store with `key` (derived from the new passphrase and the store's salt):
 * SQLite3MC rewrites every page in one transaction through the store's rollback journal, so a
 * crash leaves the old key or the new, never a mix. Synchronous: no other call of the engine runs
 * in between.
 */
function rekey(db: WasmDatabase, name: string, key: string): void {
  try {
    db.exec(`PRAGMA rekey = '${key}'`);
  } catch (e) {
    throw mapSqliteError(e, `changing the passphrase of the OPFS store ${name}`);
  }
}
