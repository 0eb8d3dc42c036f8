import type {
  Embedder,
  ProgressEvent,
  TransformersEmbedderOptions,
} from '../embedding/embedder.ts';
import type { TfidfSimilarityOptions } from '../similarity/tfidf-similarity.ts';
import type { StorageKind, StorageOpenSteps } from '../storage/backend.ts';
import type { EncryptionOptions } from '../storage/encryption.ts';
import type { MemoryFilter, StoreChange, SyncPlugin } from '../types.ts';

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Store name: the OPFS file name. Default `'anamnesis'`. */
  name?: string;
  /**
   * `'opfs'` (opfs-sahpool VFS, dedicated workers only), `'memory'`, `'file'` (Node: real SQLite on
   * disk at `path`, in WAL mode, each write synced at commit; any number of processes may open the
   * same file; needs the optional peer dependency `better-sqlite3`, else `UNSUPPORTED`), or
   * `'auto'`: OPFS in a worker when it works, memory otherwise (and `stats().backendReason` says
   * why). Default `'auto'`.
   */
  storage?: StorageKind;
  /**
   * File path for `storage: 'file'` (created, readable by its owner only, when absent). The CLI
   * and the MCP server default to `~/.anamnesis/memory.db` (`defaultStorePath`).
   */
  path?: string;
  /**
   * `storage: 'file'`: create the file when there is none at `path`. `false`: a missing file is
   * `STORE_NOT_FOUND` and nothing is created (a reader given a mistyped path). Default true.
   */
  create?: boolean;
  /**
   * `storage: 'file'`: how long a write waits for another process's write to the same file to
   * finish, in ms (0–600,000), before failing with `STORE_LOCKED` (nothing written; retry). The
   * wait does not stop the process: the lock is tried in short attempts, and reads (and other
   * calls) answer meanwhile. Reads never wait. Default 5,000.
   */
  busyTimeoutMs?: number;
  /**
   * Encryption at rest, opt-in, for a store on disk (`storage: 'file'` in Node, `'opfs'` or
   * `'auto'` in a browser's worker; `'memory'` is `UNSUPPORTED`): every page of the store and of its
   * log or journal is encrypted and authenticated (SQLite3 Multiple Ciphers, ChaCha20-Poly1305)
   * with a key derived from `passphrase` (scrypt, N = 2^17, r = 8, p = 1: 128 MiB and a few hundred
   * ms natively, about a second in a browser, at each open; the salt is the first 16 bytes of the
   * file). A new store is created encrypted; an existing one must have been created with it. Needs
   * an optional peer dependency (else `UNSUPPORTED`): `better-sqlite3-multiple-ciphers` in Node,
   * `@evolu/sqlite-wasm` in a browser (with `anamnesis({ encryption: true })` in the Vite config).
   * A wrong passphrase is `WRONG_PASSPHRASE`; an encrypted store opened without this option, or a
   * plain one with it, is `ENCRYPTION_MISMATCH`; neither changes the file.
   * `Engine.changePassphrase` re-keys. Default: none (the store is not encrypted). See
   * `docs/encryption.md`.
   */
  encryption?: EncryptionOptions;
  /**
   * The embedder, or options for the transformers.js embedder, or `'tfidf'` / `{ tfidf: options }`
   * for the zero-model TF-IDF backend (no model, no stored vectors; see {@link TfidfSimilarityOptions}).
   * Default: the embedded default model (`@anamnesis/model-default`'s `anamnesis/static-multi-64d`,
   * multilingual), read from this package in Node; a browser passes its served URL. Another model
   * root by its options: the English model is `{ model: ENGLISH_MODEL_ID, localModelPath: await
   * englishModelRootPath() }` (both from `@anamnesis/model-default`).
   *
   * A promise of an embedder opens the store without waiting for the model: until it resolves,
   * `recall` answers from the lexical legs alone and marks its results `partial`, and writes store
   * their texts at once, embedded when the model is ready (see `Engine.model`).
   */
  embedder?:
    | Embedder
    | Promise<Embedder>
    | TransformersEmbedderOptions
    | 'tfidf'
    | { tfidf: TfidfSimilarityOptions };
  /** When the store holds vectors of another model: `'error'` (`MODEL_MISMATCH`) or `'reembed'`. Default `'error'`. */
  onModelMismatch?: 'error' | 'reembed';
  /** The clock, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Live entries of the recall result cache. Default 500. */
  cacheSize?: number;
  /** Longest accepted text, in characters. Default 4,194,304. */
  maxTextLength?: number;
  /**
   * SQLite's page cache of an OPFS store, in MB (1–4,096): how much of what recalls and writes read
   * it keeps between calls, and so how far SQLite's memory can grow (a WebAssembly memory never
   * shrinks). Default 64 (seed 002). A session at 100k memories fills 64 MB within a few hundred
   * recalls; in `bench:speed` at 100k, 16 MB held SQLite at ~25 MB instead of ~91 for ~0.5 ms more
   * recall p50. A file store (native SQLite) keeps up to this much too, 16 MB by default (the
   * operating system caches its file as well); a memory store is in memory already and ignores it.
   */
  pageCacheMb?: number;
  /** Progress of model loading and re-embedding. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Called after every committed change, in commit order, before the write's caller is answered:
   * what changed and the new generation. A write that changes nothing (a duplicate text, an unlink
   * of no link, a write re-sent under an operation id it already ran under) calls nothing. Errors
   * the listener throws are reported with `console.error` and never fail the write.
   */
  onChange?: (change: StoreChange) => void;
  /**
   * Sync with the user's other devices, started once the store is open and stopped before it
   * closes: `nodeSync({ url, room, passphrase })` from `@anamnesis/sync/node` (installed beside
   * the engine). `engine.sync()` gives the running sync (status, events). Default: none.
   */
  sync?: SyncPlugin;
}

/** Options of `rememberMany`. */
export interface RememberManyOptions {
  /** Called after each embedded batch with items done and total. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Memories these new ones replace: what the filter selects is deleted in the same transaction,
   * before the new ones are stored, so either both happen or neither (a page saved again, a file
   * ingested again: the old passages stay until the new ones are stored). A new text equal to a
   * replaced memory's is stored anew, and a replaced memory's id may be given again. The change
   * listeners hear one `'remember'` change naming the new and the deleted ids. A filter that sets
   * no condition is `INVALID_INPUT`, as for `forget`. Default: none (nothing is deleted).
   */
  replace?: MemoryFilter;
}

/** The engine's write methods: each is one transaction through the write path. */
export const WRITE_METHODS = {
  remember: true,
  rememberMany: true,
  update: true,
  forget: true,
  link: true,
  unlink: true,
  /** A newer memory supersedes an older one (a `supersedes` link). */
  supersede: true,
  /** A supersession undone. */
  unsupersede: true,
  markUsed: true,
  /** A memory pinned or unpinned. */
  pin: true,
  /** Another device's usage of a memory, as a sync applies it. */
  setDeviceUsage: true,
  import: true,
} as const;

/** The name of a write method (see {@link Engine.once}). */
export type WriteMethod = keyof typeof WRITE_METHODS;

/** Where `Engine.open` spent its time, in ms (each step after the one before). */
export interface OpenTimings {
  /** Loading and instantiating SQLite-WASM (once per worker or process; then ~0). */
  sqliteMs: number;
  /** Opening the database file (the OPFS pool, or the file, or memory). */
  storageMs: number;
  /**
   * OPFS only: {@link OpenTimings.storageMs} step by step. Wall-clock time: work the worker's
   * thread does meanwhile (a model loading beside the store) counts in whichever step it falls.
   */
  storageSteps?: StorageOpenSteps;
  /** Pragmas, migrations, counting the rows. */
  schemaMs: number;
  /**
   * The dedup index and the similarity backend's stored vectors (or its snapshot); with a
   * promised embedder only the dedup index: the vectors are then loaded when the model is ready
   * (`Engine.model`), and {@link OpenTimings.vectorsMs} says how long that took.
   */
  loadMs: number;
  /** Loading the stored vectors once a promised model was ready; absent until then. */
  vectorsMs?: number;
}
