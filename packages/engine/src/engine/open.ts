import { AnamnesisError } from '@anamnesis/errors';
import type { Embedder } from '../embedding/embedder.ts';
import { LoadingSimilarity } from '../similarity/loading-similarity.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import type { StorageBackend } from '../storage/backend.ts';
import { openStorage } from '../storage/open.ts';
import { migrate, pageCacheMbOf } from '../store/schema.ts';
import { loadSqlite, mapSqliteError } from '../store/sqlite.ts';
import { createSimilarity, isPromise } from './model.ts';
import type { EngineOptions } from './options.ts';

/** A store opened and migrated with its similarity backend, before the engine around it exists. */
export interface OpenedStore {
  readonly io: StorageBackend;
  readonly backend: SimilarityBackend;
  /** True when the engine created the backend (and so disposes it). */
  readonly owned: boolean;
  /** The promised embedder, when the engine opens before its model is ready. */
  readonly promised: Promise<Embedder> | undefined;
  readonly schemaVersion: number;
  /** Loading SQLite-WASM, opening the file, migrating: ms each (see `OpenTimings`). */
  readonly timings: { sqliteMs: number; storageMs: number; schemaMs: number };
  /** Ms since the last step timed. */
  step(): number;
  /** Closes the store and disposes an owned backend: the open failed after this point. */
  abandon(): Promise<void>;
}

/**
 * The first steps of `Engine.open`: checks the options, creates the similarity backend (a loading
 * one for a promised embedder), loads SQLite-WASM, opens the storage and migrates the schema. What
 * it created is released when a step fails.
 */
export async function openStore(options: EngineOptions): Promise<OpenedStore> {
  if (!options || typeof options !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
  const pageCacheMb = pageCacheMbOf(options);
  if (typeof pageCacheMb !== 'number' || !(pageCacheMb >= 1 && pageCacheMb <= 4096))
    throw new AnamnesisError('INVALID_INPUT', 'pageCacheMb must be a number of MB in [1, 4096]');
  const promised = isPromise(options.embedder) ? options.embedder : undefined;
  promised?.catch(() => undefined); // handled once the store is open; never "unhandled" before
  const { backend, owned }: { backend: SimilarityBackend; owned: boolean } = promised
    ? { backend: new LoadingSimilarity(), owned: false }
    : await createSimilarity(options);
  let t = performance.now();
  const step = () => {
    const now = performance.now();
    const ms = now - t;
    t = now;
    return ms;
  };
  let io: StorageBackend;
  let sqliteMs: number;
  try {
    // A file store runs on native SQLite (better-sqlite3): no SQLite-WASM to load; an encrypted
    // OPFS store loads SQLite3 Multiple Ciphers' build as it opens.
    if (options.storage !== 'file' && options.encryption === undefined) await loadSqlite();
    sqliteMs = step();
    io = await openStorage(options);
  } catch (e) {
    if (owned) await backend.dispose?.();
    throw e;
  }
  const abandon = async () => {
    io.close();
    if (owned) await backend.dispose?.();
  };
  try {
    const storageMs = step();
    let schemaVersion: number;
    try {
      schemaVersion = migrate(io.db, io.kind, pageCacheMb);
      // Reading the schema and counting rows touches the file's structure; a full integrity
      // check is O(size) and runs on demand in verify().
      io.db.selectValue('SELECT count(*) FROM memories');
    } catch (e) {
      throw mapSqliteError(e, 'opening the store');
    }
    const schemaMs = step();
    return {
      io,
      backend,
      owned,
      promised,
      schemaVersion,
      timings: { sqliteMs, storageMs, schemaMs },
      step,
      abandon,
    };
  } catch (e) {
    await abandon();
    throw mapSqliteError(e, 'opening the store');
  }
}
