import { AnamnesisError } from '@anamnesis/errors';
import { recoverStore, type RecoverResult } from '../io/recover.ts';
import { loadSqlite, mapSqliteError, type Sqlite3 } from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';
import { fileHeader } from '../io/page-scan.ts';
import { checkHeader } from './encryption.ts';
import { rollBackHotJournals } from './sahpool-locks.ts';
import { wasmBackend } from './memory.ts';

/**
 * The page size of a new OPFS store, 16 KiB (this SQLite-WASM build makes 8 KiB without it):
 * each page SQLite reads or writes is one call into JavaScript and one sync access handle read
 * or write. Measured in Chromium on the shared 2-core machine (`docs/benchmark-log.md`,
 * 2026-11-30): ingest +12 % at 100k memories and +6 % at a million, warm and first recalls the
 * same within the runs' spread; 64 KiB pages ingested faster still but made a single `remember`
 * 1.5× slower.
 */
const PAGE_SIZE_PRAGMA = 'PRAGMA page_size = 16384';

/** The opfs-sahpool pool of one store. */
export type StorePool = Awaited<ReturnType<Sqlite3['installOpfsSAHPoolVfs']>>;

/** The database file's name inside its pool. */
export function storeFile(name: string): string {
  return `/${name}.sqlite3`;
}

/**
 * Installs the pool (VFS and OPFS folder `.anamnesis/<name>`) of one store. One pool per store:
 * opfs-sahpool holds every file of its folder exclusively, so stores of different names can be
 * owned by different tabs. A failed install (another worker still holds the files, e.g. during an
 * owner hand-over) must neither delete the folder (the default on failure) nor stay cached: a
 * retry re-opens. A pool that would never roll back a hot journal is made to
 * (`sahpool-locks.ts`).
 */
export async function installStorePool(sqlite3: Sqlite3, name: string): Promise<StorePool> {
  const pool = await sqlite3.installOpfsSAHPoolVfs({
    name: `anamnesis-sahpool-${name}`,
    directory: `.anamnesis/${name}`,
    // A store opens two files: the database and its rollback journal (temporary files are in
    // memory); one more is spare. Each file of the pool is created on the first visit and held
    // open on every visit, so the default of 6 costs time for nothing. (A pool made with more
    // keeps them.)
    initialCapacity: 3,
    preserveOnInitFailure: true,
    forceReinitIfPreviouslyFailed: true,
    // Silent: a pool that cannot open its files yet (the previous owner's worker still holds them
    // during a reload or a hand-over) is retried, and any real failure reaches the caller as a
    // typed error, so the pool's own console logging would only alarm.
    verbosity: 0,
  } as Parameters<Sqlite3['installOpfsSAHPoolVfs']>[0]);
  rollBackHotJournals(sqlite3, pool.vfsName);
  return pool;
}

/**
 * Opens a store in OPFS through its opfs-sahpool pool (dedicated workers only). `STORE_LOCKED`
 * when another worker holds its files; `UNSUPPORTED` when OPFS cannot be used here;
 * `ENCRYPTION_MISMATCH` for an encrypted store (opened without its passphrase).
 */
export async function openOpfsStorage(sqlite3: Sqlite3, name: string): Promise<StorageBackend> {
  try {
    const start = performance.now();
    const pool = await installStorePool(sqlite3, name);
    const pooled = performance.now();
    const db = new pool.OpfsSAHPoolDb(storeFile(name));
    try {
      db.selectValue('SELECT count(*) FROM sqlite_master');
      // takes effect in a new store (at its first write); a store made before keeps its pages
      db.exec(PAGE_SIZE_PRAGMA);
    } catch (e) {
      db.close();
      // Not a SQLite file: an encrypted store says so in its header (bytes 16–23, left plain by
      // SQLite3 Multiple Ciphers). Read through the pool, whole: only on this failure.
      const head = pool.exportFile(storeFile(name)).subarray(0, 24);
      checkHeader(fileHeader(head), false, `the OPFS store ${name}`, { name });
      throw mapSqliteError(e, `opening the OPFS store ${name}`);
    }
    return {
      ...wasmBackend(sqlite3, db, 'opfs', undefined),
      openSteps: {
        poolMs: pooled - start,
        dbMs: performance.now() - pooled,
        poolFiles: pool.getCapacity(),
      },
    };
  } catch (e) {
    throw opfsError(e);
  }
}

/**
 * What a failure to open an OPFS store is: `STORE_LOCKED` when another worker holds its files
 * (the browser refuses a second sync access handle), else `UNSUPPORTED` (no OPFS here). A typed
 * error passes through.
 */
export function opfsError(e: unknown): AnamnesisError {
  if (e instanceof AnamnesisError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (/locked|NoModificationAllowed|InvalidState|access handle/i.test(message)) {
    return new AnamnesisError('STORE_LOCKED', `the OPFS store is open elsewhere: ${message}`, {
      cause: e,
    });
  }
  return new AnamnesisError('UNSUPPORTED', `OPFS is not available: ${message}`, { cause: e });
}

/**
 * The OPFS folder `.anamnesis` when it holds store `name`'s folder, else undefined. Installing a
 * pool creates its folder: this looks first, so that an unknown name writes nothing.
 */
async function storesFolder(name: string): Promise<FileSystemDirectoryHandle | undefined> {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle('.anamnesis').catch(() => undefined);
  const exists = await folder?.getDirectoryHandle(name).then(
    () => true,
    () => false,
  );
  return exists ? folder : undefined;
}

/** The pool of a store no engine has open: `STORE_LOCKED` when another worker holds its files. */
async function idlePool(name: string): Promise<StorePool> {
  try {
    return await installStorePool(await loadSqlite(), name);
  } catch (e) {
    throw new AnamnesisError('STORE_LOCKED', `the OPFS store ${name} is open elsewhere`, {
      cause: e,
    });
  }
}

/** The part of a worker's `FileSystemSyncAccessHandle` used here. */
interface SyncAccessHandle {
  write(data: Uint8Array, options: { at: number }): number;
  flush(): void;
  close(): void;
}

/** What {@link recoverOpfsStore} salvaged, and where the damaged file was kept. */
export interface OpfsRecoverResult extends RecoverResult {
  /** Bytes of the damaged database file. */
  bytes: number;
  /** With `reset`: the OPFS path of the kept copy of the damaged file. */
  backup?: string;
}

/** Options of {@link recoverOpfsStore}. */
export interface OpfsRecoverOptions {
  /**
   * After salvaging, keep a copy of the damaged file (`.anamnesis/<name>.damaged-<ms>.sqlite3`)
   * and delete the store, so the next open starts empty and `import(result.jsonl)` restores it.
   * Default false: nothing is written.
   */
  reset?: boolean;
}

/**
 * Salvages an OPFS store that no engine has open (dedicated worker only): reads its database file
 * through its pool without opening it as a database, and runs {@link recoverStore} on the bytes.
 * `NOT_FOUND` when the store has no file; `STORE_LOCKED` when another worker holds it.
 */
export async function recoverOpfsStore(
  name: string,
  options: OpfsRecoverOptions = {},
): Promise<OpfsRecoverResult> {
  const folder = await storesFolder(name);
  if (!folder)
    throw new AnamnesisError('NOT_FOUND', `no store named ${name}`, { details: { name } });
  const pool = await idlePool(name);
  const dbFile = storeFile(name);
  if (!pool.getFileNames().includes(dbFile))
    throw new AnamnesisError('NOT_FOUND', `no store named ${name}`, { details: { name } });
  const image = pool.exportFile(dbFile);
  const result: OpfsRecoverResult = { ...(await recoverStore(image)), bytes: image.length };
  if (options.reset) {
    const backup = `${name}.damaged-${Date.now()}.sqlite3`;
    const file = (await folder.getFileHandle(backup, { create: true })) as unknown as {
      createSyncAccessHandle(): Promise<SyncAccessHandle>;
    };
    const handle = await file.createSyncAccessHandle();
    let kept: boolean;
    try {
      kept = handle.write(image, { at: 0 }) === image.length;
      handle.flush();
    } catch {
      kept = false;
    } finally {
      handle.close();
    }
    if (!kept) {
      await folder.removeEntry(backup).catch(() => undefined);
      throw new AnamnesisError('QUOTA_EXCEEDED', 'no room to keep a copy of the damaged store');
    }
    await pool.wipeFiles();
    result.backup = `.anamnesis/${backup}`;
  }
  return result;
}

/**
 * Deletes an OPFS store that no engine has open (dedicated worker only): its pool's folder
 * (`.anamnesis/<name>`, the database and its journal, plain or encrypted) is removed from OPFS.
 * Resolves `false` when there was no such store; `STORE_LOCKED` when another worker holds it.
 * What the browser does with the freed disk blocks is its own (OPFS gives no secure erase).
 */
export async function deleteOpfsStore(name: string): Promise<boolean> {
  if (!(await storesFolder(name))) return false;
  const pool = await idlePool(name);
  // Unregisters the pool's VFS, closes its handles and removes the folder, recursively.
  await pool.removeVfs();
  return true;
}
