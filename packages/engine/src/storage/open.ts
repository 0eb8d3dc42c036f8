import { AnamnesisError } from '@anamnesis/errors';
import { loadSqlite } from '../store/sqlite.ts';
import type { StorageBackend, StorageKind } from './backend.ts';
import { passphraseOf, type EncryptionOptions } from './encryption.ts';
import { openMemoryStorage } from './memory.ts';
import { openOpfsStorage } from './opfs.ts';

/** Where to open a store (a subset of the engine's options). */
export interface StorageOptions {
  name?: string;
  storage?: StorageKind;
  path?: string;
  busyTimeoutMs?: number;
  create?: boolean;
  encryption?: EncryptionOptions;
}

/**
 * Opens the store the options ask for, falling back from `'auto'` OPFS to memory with a reason.
 * A file store runs on native SQLite and does not load SQLite-WASM; an encrypted OPFS store loads
 * SQLite3 Multiple Ciphers' build instead (`'auto'` with encryption is OPFS or an error: never a
 * store in memory that the app believes is encrypted on disk).
 */
export async function openStorage(options: StorageOptions): Promise<StorageBackend> {
  const name = options.name ?? 'anamnesis';
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'name must be 1-128 letters, digits, dots, dashes or underscores',
    );
  }
  const storage = options.storage ?? 'auto';
  const passphrase = passphraseOf(options.encryption);
  if (storage === 'file') {
    if (!options.path) throw new AnamnesisError('INVALID_INPUT', "storage 'file' needs a path");
    const { openFileStorage } = await import('./file.ts');
    return openFileStorage(options.path, {
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
      ...(options.create === undefined ? {} : { create: options.create }),
      ...(passphrase === undefined ? {} : { passphrase }),
    });
  }
  if (passphrase !== undefined) {
    // Encryption is at rest: a store in memory has no rest, and 'auto' does not fall back to one.
    if (storage === 'memory')
      throw new AnamnesisError(
        'UNSUPPORTED',
        "encryption is for a store on disk ('opfs', or 'file' in Node); a memory store is never written anywhere",
      );
    const { openEncryptedOpfsStorage } = await import('./opfs-encrypted.ts');
    return openEncryptedOpfsStorage(name, passphrase);
  }
  const sqlite3 = await loadSqlite();
  if (storage === 'memory') return openMemoryStorage(sqlite3);
  const inWorker =
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
  if (storage === 'auto' && !inWorker) {
    return openMemoryStorage(
      sqlite3,
      'not in a dedicated worker: OPFS needs one; the store lives in memory',
    );
  }
  try {
    return await openOpfsStorage(sqlite3, name);
  } catch (e) {
    // Only a missing OPFS falls back: a store held elsewhere, damaged or encrypted is an error.
    if (storage === 'opfs' || !(e instanceof AnamnesisError && e.code === 'UNSUPPORTED')) throw e;
    const message = (e.cause instanceof Error ? e.cause : e).message;
    return openMemoryStorage(
      sqlite3,
      `OPFS is not available (${message}); the store lives in memory and is lost on reload`,
    );
  }
}
