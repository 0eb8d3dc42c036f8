import { MODEL_ID, modelRootPath } from '@anamnesis/model-default';
import { AnamnesisError, assertArray } from '@anamnesis/errors';
import { ArcCache, type UsageEventKind } from '@anamnesis/ranking';
import { sha256Hex } from './content-hash.ts';
import { DedupIndex } from './dedup-index.ts';
import { RetrievedEvents } from './retrieved-events.ts';
import { cacheKey } from './cache-key.ts';
import { DenseSimilarity } from './dense-similarity.ts';
import type { Embedder, ProgressEvent, TransformersEmbedderOptions } from './embedder.ts';
import { buildFilter, EVERY_MEMORY, isForgetAll, type ForgetAll } from './filter.ts';
import { createModelEmbedder } from './model-embedder.ts';
import { newId } from './ids.ts';
import { exportJsonl, importPlan, type ImportOptions, type ExportOptions } from './jsonl.ts';
import { Reader } from './reader.ts';
import { recall as runRecall } from './recall.ts';
import { RecallMemo } from './rid-memo.ts';
import { LoadingSimilarity } from './loading-similarity.ts';
import { BULK_READ_PAGE_CACHE, DEFAULT_PAGE_CACHE_MB, migrate, pageCachePragma } from './schema.ts';
import { loadSqlite, mapSqliteError, transaction } from './sqlite.ts';
import type { StorageBackend, StorageKind, StorageOpenSteps } from './storage/backend.ts';
import { openStorage } from './storage/open.ts';
import {
  dedupKey,
  insertMemories,
  MEMORY_COLUMNS,
  rowById,
  ridsByIds,
  toMemory,
  readMemoryRow,
} from './store.ts';
import { TfidfSimilarity, type TfidfSimilarityOptions } from './tfidf-similarity.ts';
import type {
  ChangeKind,
  EngineStats,
  LinkInput,
  Memory,
  MemoryFilter,
  RecallOptions,
  RecallResult,
  RememberInput,
  StoreChange,
  UpdateInput,
} from './types.ts';
import {
  validateId,
  MAX_LINKS,
  validateLinks,
  validateRemember,
  validateUpdate,
  type NewMemory,
} from './validate.ts';
import type { SimilarityBackend } from './similarity.ts';
import { WritePath } from './write-path.ts';

export type { StorageKind };

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Store name: the OPFS file name. Default `'anamnesis'`. */
  name?: string;
  /**
   * `'opfs'` (opfs-sahpool VFS, dedicated workers only), `'memory'`, `'file'` (Node: the database is
   * loaded from and saved to `path` after every write), or `'auto'`: OPFS in a worker when it
   * works, memory otherwise (and `stats().backendReason` says why). Default `'auto'`.
   */
  storage?: StorageKind;
  /** File path for `storage: 'file'`. */
  path?: string;
  /**
   * The embedder, or options for the transformers.js embedder, or `'tfidf'` / `{ tfidf: options }`
   * for the zero-model TF-IDF backend (no model, no stored vectors; see {@link TfidfSimilarityOptions}).
   * Default: the embedded default model (`@anamnesis/model-default`), read from this package in
   * Node; a browser passes its served URL.
   *
   * A promise of an embedder opens the store without waiting for the model: until it resolves,
   * `recall` answers from the lexical legs alone and marks its results `partial`, and writes store
   * their texts at once, embedded when the model is ready (see {@link Engine.model}).
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
   * recall p50. A memory or file store is in memory already and ignores it.
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
}

/** Options of `rememberMany`. */
export interface RememberManyOptions {
  /** Called after each embedded batch with items done and total. */
  onProgress?: (event: ProgressEvent) => void;
}

/** Options of `list`. */
export interface ListOptions {
  /** Only memories matching this filter. */
  filter?: MemoryFilter;
  /** Newest first by `'updated'` (default) or `'created'` time. */
  order?: 'updated' | 'created';
  /** Page size, 1–10,000. Default 100. */
  limit?: number;
  /** Memories to skip. Default 0. */
  offset?: number;
}

/** The engine's write methods: each is one transaction through the write path. */
export const WRITE_METHODS = {
  remember: true,
  rememberMany: true,
  update: true,
  forget: true,
  link: true,
  unlink: true,
  markUsed: true,
  import: true,
} as const;

/** The name of a write method (see {@link Engine.once}). */
export type WriteMethod = keyof typeof WRITE_METHODS;

/** Options of `markUsed`. */
export type UsageEvent = Extract<UsageEventKind, 'selected' | 'used' | 'discarded'>;

const DEFAULT_MAX_TEXT = 4 * 1024 * 1024;
/** The recall cache's time slot, ms: an answer is served from the cache within one minute's slot. */
export const RECALL_CACHE_SLOT_MS = 60_000;
/** Where the embedding model is (see {@link Engine.model}). */
export type ModelState = 'loading' | 'ready' | 'failed';

/** Where {@link Engine.open} spent its time, in ms (each step after the one before). */
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
   * ({@link Engine.model}), and {@link OpenTimings.vectorsMs} says how long that took.
   */
  loadMs: number;
  /** Loading the stored vectors once a promised model was ready; absent until then. */
  vectorsMs?: number;
}

/**
 * Quiet time (ms) after the last call before the stored vectors' snapshot parts are written
 * behind the writes, one part per task; any call in between postpones the next part.
 */
const VECTOR_PARTS_IDLE_MS = 1000;

/** Why results are `partial`, by model state. */
const PARTIAL_REASONS: Record<Exclude<ModelState, 'ready'>, string> = {
  loading: 'the embedding model is still loading: lexical legs only',
  failed: 'the embedding model failed to load: lexical legs only',
};

/**
 * The anamnesis engine: one store, one embedder, the recall pipeline. Every public write is one
 * SQLite transaction; in-memory state (vectors, Bloom filter, cache) changes only after it commits.
 */
export class Engine {
  readonly #io: StorageBackend;
  /** The recall path's reads, on kept prepared statements. */
  readonly #read: Reader;
  /** The similarity backend: a {@link LoadingSimilarity} until a promised embedder is ready. */
  #similarity: SimilarityBackend;
  #modelState: ModelState = 'ready';
  #timings: OpenTimings = { sqliteMs: 0, storageMs: 0, schemaMs: 0, loadMs: 0 };
  #model: Promise<void> = Promise.resolve();
  /** True when the engine created the backend (and so disposes it on close). */
  #ownsSimilarity = false;
  readonly #now: () => number;
  readonly #maxText: number;
  /** SQLite's page cache of an OPFS store, MB (restored after the bulk read at open). */
  readonly #pageCacheMb: number;
  readonly #cache: ArcCache<string, readonly RecallResult[]>;
  readonly #dedup: DedupIndex;
  /** What recalls read per memory, kept until the store changes. */
  readonly #memo = new RecallMemo();
  #generation = 0;
  readonly #onChange: ((change: StoreChange) => void) | undefined;
  #schemaVersion: number;
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #writes: WritePath;
  #dirty = false;
  readonly #retrieved: RetrievedEvents;
  /** The next write of a snapshot part of the stored vectors, when one is due. */
  #partsTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    io: StorageBackend,
    backend: SimilarityBackend,
    options: EngineOptions,
    schemaVersion: number,
  ) {
    this.#io = io;
    this.#read = new Reader(io.db, io.sqlite3);
    this.#similarity = backend;
    this.#now = options.now ?? Date.now;
    this.#maxText = options.maxTextLength ?? DEFAULT_MAX_TEXT;
    this.#pageCacheMb = options.pageCacheMb ?? DEFAULT_PAGE_CACHE_MB;
    this.#cache = new ArcCache(options.cacheSize ?? 500, (options.cacheSize ?? 500) * 2);
    this.#onChange = options.onChange;
    this.#dedup = new DedupIndex(io.db, this.#read, (read) => this.#bulkRead(read));
    this.#retrieved = new RetrievedEvents(io.db, () => {
      this.#dirty = true;
      this.#memo.clear(); // access counts changed
    });
    this.#schemaVersion = schemaVersion;
    this.#writes = new WritePath(io.db, {
      closed: () => this.#closed,
      bump: (change) => this.#bump(change),
      persist: () => this.#persist(),
      now: () => this.#now(),
    });
  }

  /** Opens (or creates) a store and loads its vectors. */
  static async open(options: EngineOptions): Promise<Engine> {
    if (!options || typeof options !== 'object')
      throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
    const pageCacheMb = options.pageCacheMb ?? DEFAULT_PAGE_CACHE_MB;
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
      await loadSqlite();
      sqliteMs = step();
      io = await openStorage(options);
    } catch (e) {
      if (owned) await backend.dispose?.();
      throw e;
    }
    try {
      const storageMs = step();
      let version: number;
      try {
        version = migrate(io.db, io.kind, pageCacheMb);
        // Reading the schema and counting rows touches the file's structure; a full integrity
        // check is O(size) and runs on demand in verify().
        io.db.selectValue('SELECT count(*) FROM memories');
      } catch (e) {
        throw mapSqliteError(e, 'opening the store');
      }
      const schemaMs = step();
      const engine = new Engine(io, backend, options, version);
      engine.#ownsSimilarity = owned;
      const onMismatch = options.onModelMismatch ?? 'error';
      if (promised) {
        engine.#dedup.load(Number(io.db.selectValue('SELECT count(*) FROM memories')));
        engine.#activateWhenReady(promised, onMismatch, options.onProgress);
      } else await engine.#load(backend, onMismatch, options.onProgress);
      engine.#timings = {
        sqliteMs,
        storageMs,
        ...(io.openSteps ? { storageSteps: { ...io.openSteps } } : {}),
        schemaMs,
        loadMs: step(),
      };
      engine.#scheduleVectorParts();
      return engine;
    } catch (e) {
      io.close();
      if (owned) await backend.dispose?.();
      throw mapSqliteError(e, 'opening the store');
    }
  }

  /** Where {@link Engine.open} spent its time (see {@link OpenTimings}). */
  get openTimings(): OpenTimings {
    const { storageSteps, ...rest } = this.#timings;
    return { ...rest, ...(storageSteps ? { storageSteps: { ...storageSteps } } : {}) };
  }

  /**
   * Where the embedding model is: `'ready'` from the start unless the engine was given a promise
   * of an embedder, `'loading'` until it resolves and the stored memories' vectors are loaded (and
   * those written meanwhile embedded), `'failed'` if it rejects or does not fit the store
   * (`MODEL_MISMATCH`); recall then stays lexical and writes stay unembedded until a later open.
   */
  get modelState(): ModelState {
    return this.#modelState;
  }

  /** Resolves when the model is ready (see {@link modelState}); rejects with why it failed. */
  get model(): Promise<void> {
    return this.#model;
  }

  /**
   * Swaps in the promised embedder's backend once it resolves: alone on the write path (no write
   * overlaps), it checks the model against the store, loads the stored vectors and embeds the
   * memories written while it loaded, then replaces the loading backend; cached recalls are dropped.
   */
  #activateWhenReady(
    promised: Promise<Embedder>,
    onMismatch: 'error' | 'reembed',
    onProgress?: (e: ProgressEvent) => void,
  ): void {
    this.#modelState = 'loading';
    this.#model = promised
      .catch((e: unknown) => {
        throw e instanceof AnamnesisError
          ? e
          : new AnamnesisError('MODEL_LOAD_FAILED', e instanceof Error ? e.message : String(e), {
              cause: e,
            });
      })
      .then((embedder) =>
        this.#run(() =>
          this.#writes.exclusive(async () => {
            if (this.#closed) throw new AnamnesisError('CLOSED');
            const backend = new DenseSimilarity(embedder);
            const start = performance.now();
            await this.#load(backend, onMismatch, onProgress);
            this.#timings.vectorsMs = performance.now() - start;
            this.#similarity = backend;
            this.#generation++;
            this.#modelState = 'ready';
            this.#scheduleVectorParts();
            this.#changed({ kind: 'model', ids: [] });
          }),
        ),
      )
      .catch((e: unknown) => {
        if (this.#modelState === 'loading') this.#modelState = 'failed';
        throw e;
      });
    this.#model.catch(() => undefined); // the state says it; `model` rejects for who asks
  }

  /** Checks the model, loads the similarity backend and the Bloom filter; handles a model change. */
  async #load(
    backend: SimilarityBackend,
    onMismatch: 'error' | 'reembed',
    onProgress?: (e: ProgressEvent) => void,
  ): Promise<void> {
    const { db } = this.#io;
    const { id: model, dims } = backend;
    const storedModel = db.selectValue("SELECT value FROM meta WHERE key = 'model'") as
      string | undefined;
    const storedDims = Number(db.selectValue("SELECT value FROM meta WHERE key = 'dims'") ?? 0);
    const count = Number(db.selectValue('SELECT count(*) FROM memories'));
    if (storedModel !== undefined && (storedModel !== model || storedDims !== dims) && count > 0) {
      if (onMismatch !== 'reembed') {
        throw new AnamnesisError(
          'MODEL_MISMATCH',
          `the store was embedded with ${storedModel} (${storedDims} dims), not ${model} (${dims} dims); open with onModelMismatch: 'reembed'`,
          { details: { stored: storedModel, storedDims, model, dims } },
        );
      }
    }
    if (this.#modelState !== 'loading') this.#dedup.load(count);
    await this.#bulkRead(() => backend.load(db, this.#io.sqlite3, onProgress));
    // The meta row names the model every stored vector is of: it changes in the same transaction
    // that deletes any other model's vectors, so a store already recorded for this model has
    // nothing to delete (and the open writes nothing).
    if (storedModel === model && storedDims === dims) return;
    transaction(db, 'recording the model', () => {
      db.exec({
        sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('model', ?), ('dims', ?)",
        bind: [model, String(dims)],
      });
      db.exec({ sql: 'DELETE FROM embeddings WHERE model <> ?', bind: [model] });
    });
    this.#dirty = true;
    await this.#persist();
  }

  /**
   * Inside a write transaction that adds, changes or deletes texts: drops the snapshots it makes
   * stale (the Bloom filter's, the similarity backend's), so a snapshot on disk always matches the rows.
   */
  #dropSnapshots(): void {
    this.#dedup.dropSnapshot();
    const key = this.#similarity.snapshotKey;
    if (key !== undefined) this.#io.db.exec({ sql: 'DELETE FROM meta WHERE key = ?', bind: [key] });
  }

  /** Saves the Bloom filter and the similarity backend's snapshot so the next open need not rebuild them. */
  #saveSnapshots(): void {
    const backend = this.#similarity.snapshot?.();
    const key = this.#similarity.snapshotKey;
    const parts = this.#similarity.saveVectorPart?.bind(this.#similarity);
    if (
      this.#dedup.snapshotCurrent &&
      (backend === undefined || key === undefined) &&
      parts === undefined
    )
      return;
    transaction(this.#io.db, 'saving snapshots', () => {
      if (this.#dedup.saveSnapshot()) this.#dirty = true;
      while (parts?.(this.#io.db, this.#read, true)) this.#dirty = true;
      if (backend !== undefined && key !== undefined) {
        this.#io.db.exec({
          sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
          bind: [key, backend],
        });
        this.#dirty = true;
      }
    });
  }

  /**
   * Runs a public call: refused once closing, tracked so `close` waits for it. Queued `retrieved`
   * events are written first, except by `recall`: a burst of searches (search as you type) stays
   * pure reads, and its access counts catch up in the next quiet second.
   */
  #run<T>(fn: () => Promise<T>, flushRetrieved = true): Promise<T> {
    if (this.#closed || this.#closing) return Promise.reject(new AnamnesisError('CLOSED'));
    if (this.#partsTimer !== undefined) this.#scheduleVectorParts(); // not while calls come
    if (flushRetrieved && this.#retrieved.pending) this.#retrieved.flush();
    // Only catalogued errors leave the engine: SQLite's (a page found corrupt by a read) are
    // mapped, anything else is INTERNAL.
    const p = fn().catch((e: unknown) => {
      throw mapSqliteError(e, 'reading the store');
    });
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  /**
   * Runs `read` on the small bulk-read page cache when the store is on OPFS, then restores the
   * store's own (when its promise settles, for an asynchronous read): pages read once (the stored
   * vectors at open, ~40 MB at 100k memories; a dedup rebuild's rows; the stored vectors a snapshot
   * part copies) do not fill the cache, whose memory would stay (a WebAssembly memory never
   * shrinks).
   */
  #bulkRead<T>(read: () => T): T {
    if (this.#io.kind !== 'opfs') return read();
    const restore = () => this.#io.db.exec(pageCachePragma(this.#pageCacheMb));
    this.#io.db.exec(BULK_READ_PAGE_CACHE);
    let out: T;
    try {
      out = read();
    } catch (e) {
      restore();
      throw e;
    }
    if (out instanceof Promise) return out.finally(restore) as T;
    restore();
    return out;
  }

  #bump(change: { kind: ChangeKind; ids: readonly string[] }): void {
    this.#generation++;
    this.#memo.clear();
    this.#dirty = true;
    this.#scheduleVectorParts();
    this.#changed(change);
  }

  /** Tells the change listener (see `EngineOptions.onChange`). */
  #changed(change: { kind: ChangeKind; ids: readonly string[] }): void {
    if (!this.#onChange) return;
    try {
      this.#onChange({ kind: change.kind, ids: [...change.ids], generation: this.#generation });
    } catch (e) {
      console.error('anamnesis: an onChange listener threw', e);
    }
  }

  /**
   * Writes the stored vectors' next snapshot part once the engine has been quiet for
   * {@link VECTOR_PARTS_IDLE_MS}, then the next, while parts are due; each part is one
   * transaction on the write path. A part that cannot be written (a full disk) is left for the
   * next write or close: the parts only speed up the next open.
   */
  #scheduleVectorParts(delay = VECTOR_PARTS_IDLE_MS): void {
    if (this.#partsTimer !== undefined) clearTimeout(this.#partsTimer);
    this.#partsTimer = undefined;
    if (this.#closed || this.#closing || !this.#similarity.vectorPartsDue?.()) return;
    this.#partsTimer = setTimeout(() => {
      this.#partsTimer = undefined;
      this.#run(
        () =>
          this.#writes.exclusive(async () => {
            if (this.#closed) return false;
            // a part reads ~1 MB of stored vectors once: not through the store's page cache
            const wrote = this.#bulkRead(() =>
              transaction(this.#io.db, 'saving a snapshot part of the vectors', () =>
                this.#similarity.saveVectorPart!(this.#io.db, this.#read, false),
              ),
            );
            if (wrote) this.#dirty = true;
            return wrote;
          }),
        false,
      ).then(
        (wrote) => {
          if (wrote && this.#partsTimer === undefined) this.#scheduleVectorParts(0);
        },
        () => undefined,
      );
    }, delay);
    (this.#partsTimer as { unref?: () => void }).unref?.(); // never keeps Node alive
  }

  async #persist(): Promise<void> {
    if (this.#io.persist && this.#dirty) {
      this.#dirty = false;
      try {
        await this.#io.persist();
      } catch (e) {
        this.#dirty = true;
        throw mapSqliteError(e, 'saving the store file');
      }
    }
  }

  /** Inserts validated memories with their vectors and links; runs inside a transaction. */
  #insert(
    items: readonly (NewMemory & { id: string; hash: string })[],
    vectors: readonly Float32Array[],
  ): number[] {
    const { db } = this.#io;
    this.#dropSnapshots();
    const now = this.#now();
    const rids = insertMemories(
      db,
      items.map((m) => ({ ...m, updatedAt: now, accessCount: 0, contentHash: m.hash })),
    );
    this.#similarity.store(db, rids, vectors);
    const targets = ridsByIds(
      db,
      items.flatMap((m) => m.links.map((l) => l.to)),
    );
    items.forEach((m, i) => {
      for (const l of m.links) {
        const dst = targets.get(l.to);
        if (dst === undefined)
          throw new AnamnesisError('NOT_FOUND', `link target ${l.to}`, { details: { id: l.to } });
        db.exec({
          sql: 'INSERT OR REPLACE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
          bind: [rids[i]!, dst, l.kind, l.weight],
        });
      }
    });
    return rids;
  }

  /** Stores one memory and returns its id (the existing id for a duplicate text in the same session). */
  remember(input: RememberInput): Promise<string> {
    return this.#run(async () => (await this.#rememberBatch([input]))[0]!);
  }

  /** Stores many memories atomically: all of them or none. Returns ids in input order. */
  rememberMany(
    inputs: readonly RememberInput[],
    options: RememberManyOptions = {},
  ): Promise<string[]> {
    return this.#run(() => this.#rememberBatch(inputs, options.onProgress));
  }

  async #rememberBatch(
    inputs: readonly RememberInput[],
    onProgress?: (e: ProgressEvent) => void,
  ): Promise<string[]> {
    assertArray(inputs, 'rememberMany: inputs');
    const now = this.#now();
    const items = inputs.map((input, i) => {
      try {
        return validateRemember(input, now, this.#maxText);
      } catch (e) {
        if (e instanceof AnamnesisError && inputs.length > 1) {
          throw new AnamnesisError(e.code, `item ${i}: ${e.message}`, {
            cause: e,
            details: { index: i },
          });
        }
        throw e;
      }
    });
    const hashes = items.map((m) => sha256Hex(m.text));
    const ids = new Array<string>(items.length);
    let fresh: (NewMemory & { id: string; hash: string })[] = [];
    const vectors: Float32Array[] = [];
    return this.#writes.run({
      what: 'remembering',
      kind: 'remember',
      ids: () => fresh.map((m) => m.id),
      // In the serialised section: duplicates and taken ids are decided against the store as the
      // transaction will find it, so concurrent identical texts get one id.
      encode: async () => {
        fresh = this.#resolveNew(items, hashes, ids, now);
        const step = 256;
        for (let start = 0; start < fresh.length; start += step) {
          const batch = fresh.slice(start, start + step);
          vectors.push(...(await this.#similarity.encode(batch.map((m) => m.text))));
          onProgress?.({
            phase: 'embed',
            loaded: Math.min(start + step, fresh.length),
            total: fresh.length,
          });
        }
      },
      tx: () => (fresh.length === 0 ? [] : this.#insert(fresh, vectors)),
      apply: (rids) => {
        this.#similarity.apply(
          rids,
          fresh.map((m) => m.text),
          vectors,
        );
        fresh.forEach((m) => this.#dedup.add(dedupKey(m.session, m.hash)));
      },
      changed: () => fresh.length > 0,
      reply: () => ids,
    });
  }

  /**
   * Decides, for each validated item, its id: an existing memory's (same text, same session,
   * unless `allowDuplicate`), an earlier item's of the batch, the caller's or a new one. Fills
   * `ids` and returns the items to insert. `INVALID_INPUT` for an id given twice or already taken.
   */
  #resolveNew(
    items: readonly NewMemory[],
    hashes: readonly string[],
    ids: string[],
    now: number,
  ): (NewMemory & { id: string; hash: string })[] {
    const fresh: (NewMemory & { id: string; hash: string })[] = [];
    const batchKeys = new Map<string, number>();
    const callerIds = new Set<string>();
    items.forEach((m, i) => {
      const hash = hashes[i]!;
      if (!m.allowDuplicate) {
        const key = dedupKey(m.session, hash);
        const existing = this.#dedup.find(m.session, hash);
        if (existing !== undefined) return void (ids[i] = existing);
        const inBatch = batchKeys.get(key);
        if (inBatch !== undefined) return void (ids[i] = ids[inBatch]!);
        batchKeys.set(key, i);
      }
      const id = m.id ?? newId(now);
      if (callerIds.has(id))
        throw new AnamnesisError('INVALID_INPUT', `duplicate id ${id} in the batch`);
      callerIds.add(id);
      ids[i] = id;
      fresh.push({ ...m, id, hash });
    });
    const taken = ridsByIds(
      this.#io.db,
      fresh.map((m) => m.id),
    );
    if (taken.size > 0)
      throw new AnamnesisError('INVALID_INPUT', `id already exists: ${[...taken.keys()][0]}`);
    return fresh;
  }

  /**
   * Memories matching a filter, newest first (by `order`), paged: what an app needs to show a list
   * of notes without a query.
   */
  list(options: ListOptions = {}): Promise<Memory[]> {
    return this.#run(async () => {
      if (!options || typeof options !== 'object')
        throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
      const limit = options.limit ?? 100;
      const offset = options.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        throw new AnamnesisError('INVALID_INPUT', 'limit must be an integer in [1, 10000]');
      }
      if (!Number.isInteger(offset) || offset < 0)
        throw new AnamnesisError('INVALID_INPUT', 'offset must be a non-negative integer');
      const order = options.order ?? 'updated';
      if (order !== 'updated' && order !== 'created')
        throw new AnamnesisError('INVALID_INPUT', "order must be 'updated' or 'created'");
      const column = order === 'updated' ? 'm.updated_at' : 'm.created_at';
      const { where, params } = buildFilter(options.filter);
      return this.#read
        .all(
          `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} ORDER BY ${column} DESC, m.rid DESC LIMIT ? OFFSET ?`,
          [...params, limit, offset],
          readMemoryRow,
        )
        .map(toMemory);
    });
  }

  /** The memory with this id, or `null`. */
  get(id: string): Promise<Memory | null> {
    return this.#run(async () => {
      const row = rowById(this.#io.db, validateId(id));
      return row ? toMemory(row) : null;
    });
  }

  /** Changes fields of a memory; a new text is re-embedded. `NOT_FOUND` for an unknown id. */
  update(id: string, patch: UpdateInput): Promise<Memory> {
    return this.#run(async () => {
      const key = validateId(id);
      const fields = validateUpdate(patch, this.#maxText);
      let vector: Float32Array | undefined;
      return this.#writes.run({
        what: 'updating',
        kind: 'update',
        ids: () => [key],
        encode: async () => {
          const before = rowById(this.#io.db, key);
          if (!before) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
          if (fields.text !== undefined && fields.text !== before.text)
            vector = (await this.#similarity.encode([fields.text]))[0]!;
        },
        tx: (db) => {
          const row = rowById(db, key);
          if (!row) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
          if (fields.text !== undefined || fields.session !== undefined) this.#dropSnapshots();
          const next = { ...row, ...fields };
          db.exec({
            sql: 'UPDATE memories SET text=?, kind=?, session=?, tags=?, meta=?, importance=?, memory_score=?, content_hash=?, updated_at=? WHERE rid=?',
            bind: [
              next.text,
              next.kind,
              next.session,
              JSON.stringify(next.tags),
              JSON.stringify(next.meta),
              next.importance,
              next.memoryScore,
              fields.text !== undefined ? sha256Hex(next.text) : row.contentHash,
              this.#now(),
              row.rid,
            ],
          });
          if (vector) this.#similarity.store(db, [row.rid], [vector]);
          return rowById(db, key)!;
        },
        apply: (row) => {
          if (vector) this.#similarity.apply([row.rid], [row.text], [vector]);
          this.#dedup.add(dedupKey(row.session, row.contentHash));
        },
        reply: toMemory,
      });
    });
  }

  /**
   * Deletes memories by id, ids, or filter; returns how many were deleted. Links and usage go with
   * them. A filter must select something: one that sets no condition (`{}`, `{ meta: {} }`, keys
   * whose value is `undefined`) is `INVALID_INPUT`; `{ all: true }` deletes every memory.
   */
  forget(target: string | string[] | MemoryFilter | ForgetAll): Promise<number> {
    return this.#run(async () => {
      const all = isForgetAll(target);
      const filter: MemoryFilter | undefined = all
        ? undefined
        : typeof target === 'string'
          ? { ids: [validateId(target)] }
          : Array.isArray(target)
            ? { ids: target.map(validateId) }
            : target;
      if (!all && (!filter || typeof filter !== 'object')) {
        throw new AnamnesisError('INVALID_INPUT', 'forget needs an id, ids or a non-empty filter');
      }
      if (Array.isArray(target) && target.length === 0) return 0;
      const { where, params } = buildFilter(filter);
      if (!all && where === EVERY_MEMORY) {
        throw new AnamnesisError(
          'INVALID_INPUT',
          'forget: this filter sets no condition and would delete every memory; pass { all: true } to do that',
        );
      }
      return this.#writes.run({
        what: 'forgetting',
        kind: 'forget',
        tx: (db) => {
          const rows = db.selectArrays(
            `SELECT m.rid, m.id FROM memories m WHERE ${where} ORDER BY m.rid`,
            params,
          );
          const found = rows.map((r) => r[0] as number);
          if (found.length > 0) this.#dropSnapshots();
          db.exec({
            sql: 'DELETE FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
            bind: [JSON.stringify(found)],
          });
          return { rids: found, ids: rows.map((r) => r[1] as string) };
        },
        ids: (found) => found.ids,
        apply: (found) => this.#similarity.remove(found.rids),
        changed: (found) => found.rids.length > 0,
        reply: (found) => found.rids.length,
      });
    });
  }

  /** Links two memories (upsert by source, target and kind). */
  link(from: string, to: string | LinkInput, options: Omit<LinkInput, 'to'> = {}): Promise<void> {
    return this.#run(async () => {
      const src = validateId(from);
      const [l] = validateLinks([typeof to === 'string' ? { to, ...options } : to]);
      await this.#writes.run({
        what: 'linking',
        kind: 'link',
        ids: () => [src, l!.to],
        tx: (db) => {
          const rids = ridsByIds(db, [src, l!.to]);
          for (const id of [src, l!.to])
            if (!rids.has(id)) throw new AnamnesisError('NOT_FOUND', id, { details: { id } });
          const [others] = db.selectArrays(
            'SELECT count(*) FROM links WHERE src = ? AND NOT (dst = ? AND kind = ?)',
            [rids.get(src)!, rids.get(l!.to)!, l!.kind],
          );
          if ((others![0] as number) >= MAX_LINKS) {
            throw new AnamnesisError(
              'INVALID_INPUT',
              `memory ${src} has ${MAX_LINKS} links already, the most a memory may have`,
            );
          }
          db.exec({
            sql: 'INSERT OR REPLACE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
            bind: [rids.get(src)!, rids.get(l!.to)!, l!.kind, l!.weight],
          });
        },
      });
    });
  }

  /** Removes links from one memory to another (of one kind, or all kinds); returns how many. */
  unlink(from: string, to: string, kind?: string): Promise<number> {
    return this.#run(async () => {
      const src = validateId(from);
      const dst = validateId(to);
      if (kind !== undefined && (typeof kind !== 'string' || kind.length === 0)) {
        throw new AnamnesisError('INVALID_INPUT', 'kind must be a non-empty string');
      }
      return this.#writes.run({
        what: 'unlinking',
        kind: 'unlink',
        ids: () => [src, dst],
        tx: (db) => {
          const rids = ridsByIds(db, [src, dst]);
          if (!rids.has(src) || !rids.has(dst)) return 0;
          db.exec({
            sql: 'DELETE FROM links WHERE src = ? AND dst = ? AND (?3 IS NULL OR kind = ?3)',
            bind: [rids.get(src)!, rids.get(dst)!, kind ?? null],
          });
          return db.changes();
        },
        changed: (removed) => removed > 0,
      });
    });
  }

  /** Records that a memory was selected or used (these raise its usage score; `discarded` is stored only). */
  markUsed(id: string, event: UsageEvent = 'used'): Promise<void> {
    return this.#run(async () => {
      const key = validateId(id);
      if (event !== 'selected' && event !== 'used' && event !== 'discarded') {
        throw new AnamnesisError(
          'INVALID_INPUT',
          "event must be 'selected', 'used' or 'discarded'",
        );
      }
      await this.#writes.run({
        what: 'recording usage',
        kind: 'usage',
        ids: () => [key],
        tx: (db) => {
          const rid = ridsByIds(db, [key]).get(key);
          if (rid === undefined)
            throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
          db.exec({
            sql: 'INSERT INTO usage(rid, event, at) VALUES (?,?,?)',
            bind: [rid, event, this.#now()],
          });
        },
      });
    });
  }

  /**
   * Runs one write at most once per `operation` id: the first call applies it and records its
   * reply in the same transaction; a later call with the same id (within a day) changes nothing
   * and resolves with that reply. For callers that may send a write twice without knowing whether
   * the first arrived (the client re-sends a follower tab's write after an owner hand-over).
   */
  once<M extends WriteMethod>(
    operation: string,
    method: M,
    args: Parameters<Engine[M]>,
  ): ReturnType<Engine[M]> {
    if (typeof operation !== 'string' || operation.length === 0 || operation.length > 200)
      return Promise.reject(
        new AnamnesisError('INVALID_INPUT', 'operation must be a string of 1-200 characters'),
      ) as ReturnType<Engine[M]>;
    if (!Object.hasOwn(WRITE_METHODS, method))
      return Promise.reject(
        new AnamnesisError('INVALID_INPUT', `not a write method: ${String(method)}`),
      ) as ReturnType<Engine[M]>;
    const call = this[method] as (...a: unknown[]) => ReturnType<Engine[M]>;
    return this.#writes.once(operation, () => call.apply(this, args));
  }

  /**
   * Runs the recall pipeline (see the README); results are cached until the next write, and for at
   * most `RECALL_CACHE_SLOT_MS` (scores depend on the memories' age).
   */
  recall(query: string, options: RecallOptions = {}): Promise<RecallResult[]> {
    return this.#run(async () => {
      if (typeof query !== 'string')
        throw new AnamnesisError('INVALID_INPUT', 'query must be a string');
      if (options === null || typeof options !== 'object')
        throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
      const normalized = query.normalize('NFKC').replace(/\s+/g, ' ').trim();
      if (normalized.length > this.#maxText)
        throw new AnamnesisError('INVALID_INPUT', 'query is too long');
      if (normalized === '') return [];
      const now = this.#now();
      // Scores depend on age (priors, recency profiles): a cached answer serves one time slot.
      const key = options.noCache
        ? undefined
        : `${this.#generation}\u0000${Math.floor(now / RECALL_CACHE_SLOT_MS)}\u0000${normalized}\u0000${cacheKey(options)}`;
      const cached = key === undefined ? undefined : this.#cache.get(key);
      const results =
        cached ??
        partial(
          await runRecall(
            {
              read: this.#read,
              similarity: this.#similarity,
              now,
              memo: this.#memo,
            },
            normalized,
            options,
          ),
          this.#modelState,
        );
      if (key !== undefined && !cached) this.#cache.set(key, deepFreeze(results));
      if (results.length > 0)
        this.#retrieved.record(
          results.map((r) => r.id),
          this.#now(),
        );
      return results as RecallResult[];
    }, false);
  }

  /** Exports every memory as JSON Lines (deterministic order and key order). */
  export(options: ExportOptions = {}): Promise<string> {
    return this.#run(async () => {
      // With the vectors: a model still loading is waited for (one that failed is not).
      await this.#model.catch(() => undefined);
      return exportJsonl(this.#io.db, this.#similarity, options);
    });
  }

  /** Imports JSON Lines atomically; returns how many memories were added. */
  import(jsonl: string, options: ImportOptions = {}): Promise<number> {
    return this.#run(async () => {
      const plan = importPlan(
        this.#io.db,
        this.#similarity,
        jsonl,
        options,
        this.#now(),
        this.#maxText,
        () => this.#dropSnapshots(),
      );
      return this.#writes.run({
        ...plan,
        apply: (r) => {
          this.#similarity.apply(r.rids, r.texts, r.vectors);
          for (const key of r.dedupKeys) this.#dedup.add(key);
        },
        reply: (r) => r.added,
      });
    });
  }

  /** Counts, sizes, model, cache and generation. */
  stats(): Promise<EngineStats> {
    return this.#run(async () => {
      const { db } = this.#io;
      const n = (sql: string) => Number(db.selectValue(sql));
      const cache = this.#cache.stats();
      const [parts, inParts] = db.selectArray(
        'SELECT count(*), coalesce(sum(n_rows), 0) FROM vector_snapshot',
      ) as [number, number];
      return {
        memories: n('SELECT count(*) FROM memories'),
        links: n('SELECT count(*) FROM links'),
        usageEvents: n('SELECT count(*) FROM usage'),
        bytes: n('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()'),
        backend: this.#io.kind,
        ...(this.#io.reason ? { backendReason: this.#io.reason } : {}),
        model: {
          id: this.#similarity.id,
          dims: this.#similarity.dims,
          device: this.#similarity.device,
          state: this.#modelState,
        },
        truncated: this.#similarity.truncated,
        cache: { hits: cache.hits, misses: cache.misses, size: this.#cache.size },
        generation: this.#generation,
        schemaVersion: this.#schemaVersion,
        vectorParts: { parts, vectors: inParts },
        memory: {
          sqliteWasm: this.#io.sqlite3.wasm.heap8u().byteLength,
          ...(this.#similarity.bytes !== undefined ? { vectors: this.#similarity.bytes } : {}),
        },
      };
    });
  }

  /**
   * Checks the store: SQLite's integrity check, FTS5's own check against the rows, and that every
   * memory has exactly one vector in the index and on disk. Returns the problems found (empty: ok).
   */
  verify(): Promise<string[]> {
    return this.#run(async () => {
      const { db } = this.#io;
      const problems: string[] = [];
      const integrity = db.selectValues('PRAGMA integrity_check').map(String);
      if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);
      try {
        db.exec("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)");
      } catch (e) {
        problems.push(`fts: ${e instanceof Error ? e.message : String(e)}`);
      }
      problems.push(...this.#similarity.verify(db, this.#read));
      return problems;
    });
  }

  /** Waits for calls in flight, saves, and closes. Idempotent; later calls fail with `CLOSED`. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#pending]);
      this.#retrieved.flush();
      this.#dedup.stop();
      this.#closed = true;
      this.#scheduleVectorParts(); // clears the timer
      try {
        this.#saveSnapshots();
      } catch {
        // a full disk: the filter and the similarity index are rebuilt at the next open
      }
      try {
        await this.#persist();
      } finally {
        this.#read.close();
        this.#io.close();
        if (this.#ownsSimilarity) await this.#similarity.dispose?.();
      }
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Results found without the model: each marked `partial`, with the reason in its explanation. */
function partial(results: RecallResult[], state: ModelState): RecallResult[] {
  if (state === 'ready') return results;
  const reason = PARTIAL_REASONS[state];
  return results.map((r) => ({
    ...r,
    partial: true,
    ...(r.explain ? { explain: { ...r.explain, partial: reason } } : {}),
  }));
}

function isPromise(value: unknown): value is Promise<Embedder> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The similarity backend of `options.embedder`, and whether the engine created (so disposes) it. */
async function createSimilarity(
  options: EngineOptions,
): Promise<{ backend: SimilarityBackend; owned: boolean }> {
  const spec = options.embedder ?? (await defaultEmbedderOptions());
  if (spec === 'tfidf') return { backend: new TfidfSimilarity(), owned: true };
  if (typeof spec !== 'object' || spec === null)
    throw new AnamnesisError('INVALID_INPUT', "embedder must be an embedder, options or 'tfidf'");
  if ('tfidf' in spec) return { backend: new TfidfSimilarity(spec.tfidf), owned: true };
  if ('embed' in spec) return { backend: new DenseSimilarity(spec), owned: false };
  if (isPromise(spec))
    throw new AnamnesisError('INTERNAL', 'a promised embedder has no backend yet');
  const embedder = await createModelEmbedder({ onProgress: options.onProgress, ...spec });
  return { backend: new DenseSimilarity(embedder), owned: true };
}

/** Options loading the embedded default model from its package (Node). */
export async function defaultEmbedderOptions(): Promise<TransformersEmbedderOptions> {
  return { model: MODEL_ID, localModelPath: await modelRootPath() };
}

/** Opens an engine (see {@link EngineOptions}). */
export function createEngine(options: EngineOptions): Promise<Engine> {
  return Engine.open(options);
}
