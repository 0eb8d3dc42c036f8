/**
 * A backup of a live file store (`Engine.backup`, `anamnesis backup`). Copying the file (`cp
 * memory.db`) while a process has it open gives an old or empty copy: in WAL mode the newest pages
 * live in `memory.db-wal` until a checkpoint. `VACUUM INTO` instead writes one consistent snapshot
 * (a read transaction: other processes go on writing, and nothing waits for them) as a new, compact
 * store file with no journal beside it. An encrypted store's copy is encrypted under the same key
 * and salt (SQLite3 Multiple Ciphers writes the attached copy with the main database's cipher), so
 * the same passphrase opens it and it holds no plaintext.
 *
 * The copy is written beside the destination under a temporary name, synced, made readable by its
 * owner only (0600: it is as private as the store), and then linked to the destination, which must
 * not exist: a backup never overwrites a file (or follows a link planted under the name).
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { StorageBackend } from './backend.ts';

/** What a backup wrote. */
export interface BackupResult {
  /** The backup's path, as given. */
  path: string;
  /** The backup file's size in bytes. */
  bytes: number;
  /** Whether the copy is encrypted (as its store is). */
  encrypted: boolean;
}

/** Writes a consistent copy of the open file store `io` to the new file `dest`. */
export async function backupStore(io: StorageBackend, dest: string): Promise<BackupResult> {
  if (typeof dest !== 'string' || dest.trim() === '' || dest.includes('\0'))
    throw new AnamnesisError('INVALID_INPUT', 'backup needs the path of a new file', {
      details: { dest: typeof dest === 'string' ? dest : typeof dest },
    });
  if (io.kind !== 'file')
    throw new AnamnesisError(
      'INVALID_INPUT',
      `backup copies a file store; this store lives in ${io.kind}: use export() for a copy of its memories`,
      { details: { storage: io.kind } },
    );
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  const target = path.resolve(dest);
  if (
    await fs.lstat(target).then(
      () => true,
      () => false,
    )
  )
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${dest} exists: a backup is written as a new file and never overwrites one; name a new file`,
      { details: { dest } },
    );
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${Math.random().toString(36).slice(2, 10)}`,
  );
  try {
    io.db.exec({ sql: 'VACUUM INTO ?', bind: [temporary] });
    const file = await fs.open(temporary, 'r+');
    try {
      await file.chmod(0o600);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await fs.link(temporary, target); // EEXIST if the name was taken meanwhile
    } catch (e) {
      if ((e as { code?: string }).code === 'EEXIST')
        throw new AnamnesisError(
          'INVALID_INPUT',
          `${dest} exists: a backup is written as a new file and never overwrites one; name a new file`,
          { cause: e, details: { dest } },
        );
      throw e;
    }
    return { path: dest, bytes: (await fs.stat(target)).size, encrypted: io.encrypted === true };
  } finally {
    await fs.rm(temporary, { force: true });
  }
}
