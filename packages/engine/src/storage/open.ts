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
 * A file store runs on native SQLite and does not load SQLite-WASM.
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
  if (passphrase !== undefined)
    throw new AnamnesisError(
      'UNSUPPORTED',
      "encryption is supported for storage 'file' (Node) only so far; an OPFS or memory store cannot be encrypted yet",
    );
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
    if (storage === 'opfs' || (e instanceof AnamnesisError && e.code === 'STORE_LOCKED')) throw e;
    const cause = (e as { cause?: unknown }).cause ?? e;
    const message = cause instanceof Error ? cause.message : String(cause);
    return openMemoryStorage(
      sqlite3,
      `OPFS is not available (${message}); the store lives in memory and is lost on reload`,
    );
  }
}
