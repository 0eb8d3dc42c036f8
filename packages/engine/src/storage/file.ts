import { AnamnesisError } from '@anamnesis/errors';
import {
  exportDatabase,
  importDatabase,
  mapSqliteError,
  type Database,
  type Sqlite3,
} from '../store/sqlite.ts';
import type { StorageBackend } from './backend.ts';

/**
 * A store in one SQLite file (Node only). `node:fs` is imported when a file store is opened, not
 * with this module: a bundler that inlines the engine's lazy `import()` of this module (esbuild
 * without code splitting) must not give a browser worker a top-level `node:` import. The whole
 * database is held in memory and the file is replaced (write to a temporary file, then rename)
 * after every write, so it is always a committed state.
 *
 * The temporary file, `${path}.<random hex>.tmp`, is created exclusively (`O_CREAT | O_EXCL`, and
 * `O_NOFOLLOW` where the platform has it) with mode 0600: a file or symlink planted under its name
 * makes the write fail instead of being written through, and the store (the renamed temporary
 * file) is readable and writable by its owner only.
 */
export async function openFileStorage(sqlite3: Sqlite3, path: string): Promise<StorageBackend> {
  const { open: openFile, readFile, rename, unlink } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const { randomBytes } = await import('node:crypto');
  const exclusive =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let db: Database | undefined;
  try {
    const bytes = await readFile(path);
    db = importDatabase(sqlite3, new Uint8Array(bytes));
    // The whole file is in memory already; a structural check finds damage before a save
    // could spread it (the file is rewritten on every write). `recoverStore` salvages it.
    const check = db.selectValues('PRAGMA quick_check(1)').map(String);
    const pages = Number(db.selectValue('PRAGMA page_count'));
    const pageSize = Number(db.selectValue('PRAGMA page_size'));
    if (pages * pageSize !== bytes.length) check.push(`${bytes.length} bytes, not ${pages} pages`);
    if (check.join() !== 'ok') {
      throw new AnamnesisError('STORE_CORRUPT', `${path}: ${check.join('; ')}`);
    }
  } catch (e) {
    db?.close();
    if ((e as { code?: string }).code !== 'ENOENT') throw mapSqliteError(e, `opening ${path}`);
    db = new sqlite3.oo1.DB(':memory:', 'c');
  }
  const open = db;
  return {
    sqlite3,
    db: open,
    kind: 'file',
    reason: undefined,
    persist: async () => {
      const tmp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
      const handle = await openFile(tmp, exclusive, 0o600);
      try {
        try {
          await handle.writeFile(exportDatabase(sqlite3, open));
        } finally {
          await handle.close();
        }
        await rename(tmp, path);
      } catch (e) {
        await unlink(tmp).catch(() => undefined);
        throw e;
      }
    },
    close: () => open.close(),
  };
}
