import { AnamnesisError } from '@anamnesis/errors';
import { ArcCache } from '@anamnesis/ranking';
import { ChangeLog } from './engine/change-log.ts';
import { passphraseOf, type EncryptionOptions } from './storage/encryption.ts';
import type { EngineContext } from './engine/context.ts';
import {
  defaultEmbedderOptions,
  ModelLifecycle,
  partial,
  type ModelState,
} from './engine/model.ts';
import { openStore } from './engine/open.ts';
import { SyncSlot } from './sync-plugin.ts';
import {
  WRITE_METHODS,
  type EngineOptions,
  type OpenTimings,
  type RememberManyOptions,
  type WriteMethod,
} from './engine/options.ts';
import { dropSnapshots, saveSnapshots } from './engine/snapshots.ts';
import { engineStats, storeAbout, verifyStore, type StoreAbout } from './engine/stats.ts';
import { forgetPurge } from './engine/forget-purge.ts';
import { lexicalMerge } from './engine/lexical-merge.ts';
import { VectorParts } from './engine/vector-parts.ts';
import type { ForgetAll } from './input/filter.ts';
import { validateId } from './input/validate.ts';
import { SUPERSEDES, supersessionHistory } from './writes/supersession.ts';
import { augment, type AugmentInput, type AugmentResult } from './chat/augment.ts';
import { learn, type LearnInput, type LearnResult } from './chat/learn.ts';
import { backupStore, type BackupResult } from './storage/backup.ts';
import { exportJsonl, importPlan, type ExportOptions, type ImportOptions } from './io/jsonl.ts';
import { deepFreeze, recallKey } from './recall/cache-key.ts';
import { recall as runRecall } from './recall/recall.ts';
import { listMemories, type ListOptions } from './recall/list.ts';
import { RecallMemo } from './recall/rid-memo.ts';
import { emptyStageTimes } from './recall/stage-clock.ts';
import type { SimilarityBackend } from './similarity/similarity.ts';
import type { StorageBackend } from './storage/backend.ts';
import { DedupIndex } from './store/dedup-index.ts';
import { QuietSteps } from './store/quiet-steps.ts';
import { warmTimeStep } from './recall/query/time.ts';
import { forgetting, purge, purgeDue } from './store/secure-delete.ts';
import type { Reader } from './store/reader.ts';
import { RetrievedEvents } from './store/retrieved-events.ts';
import { bulkRead, pageCacheMbOf } from './store/schema.ts';
import { mapSqliteError } from './store/sqlite.ts';
import { rowById, toMemory } from './store/store.ts';
import type {
  HistoryEntry,
  ChangeKind,
  EngineStats,
  LinkInput,
  Memory,
  MemoryFilter,
  RecallOptions,
  RecallResult,
  RememberInput,
  StoreChange,
  StoreSync,
  UpdateInput,
} from './types.ts';
import {
  deviceUsagePlan,
  forgetPlan,
  linkPlan,
  pinPlan,
  unlinkPlan,
  updatePlan,
  usagePlan,
  type DeviceUsage,
  type UsageEvent,
} from './writes/edits.ts';
import { rememberPlan } from './writes/remember.ts';
import { WritePath } from './writes/write-path.ts';

export type { StorageKind } from './storage/backend.ts';
export type {
  EngineOptions,
  ListOptions,
  ModelState,
  OpenTimings,
  DeviceUsage,
  RememberManyOptions,
  StoreAbout,
  UsageEvent,
  WriteMethod,
};
export { defaultEmbedderOptions, WRITE_METHODS };

const DEFAULT_MAX_TEXT = 4 * 1024 * 1024;
/** How often an engine with listeners checks whether another process wrote its file store, ms. */
const ELSEWHERE_POLL_MS = 1000;
/**
 * Quiet time (ms) before the rest of the stored vectors is read behind the open (a part per
 * step, ~1 MB), as the Bloom filter's rebuild waits: a first recall never queues behind it.
 */
const REST_IDLE_MS = 250;
/** Quiet time (ms) before a step of the time parsers' warm-up (each 1–90 ms of compiling). */
const WARM_IDLE_MS = 250;
/**
 * How long saving queued `retrieved` events waits for another process's write lock, in ms: the
 * save runs before a call, and SQLite's wait stops the thread (when it is held, they are saved
 * later).
 */
const USAGE_LOCK_MS = 50;

/**
 * The anamnesis engine: one store, one embedder, the recall pipeline. Every public write is one
 * SQLite transaction; in-memory state (vectors, Bloom filter, cache) changes only after it commits.
 * A file store may be open in other processes too: each call first catches up with what they
 * committed (see `engine/change-log.ts`).
 *
 * The class holds the engine's state and answers its public calls; the work is in the modules it
 * delegates to: the write plans (`writes/`), the model's lifecycle (`engine/model.ts`), what is
 * saved behind the writes (`engine/vector-parts.ts`, `engine/snapshots.ts`), stats and verify
 * (`engine/stats.ts`), export and import (`io/jsonl.ts`), recall (`recall/`).
 */
export class Engine {
  readonly #io: StorageBackend;
  /** The recall path's reads, on kept prepared statements. */
  readonly #read: Reader;
  /** The model's lifecycle: the similarity backend in use, and whether the model is ready. */
  readonly #model: ModelLifecycle;
  #timings: OpenTimings = { sqliteMs: 0, storageMs: 0, schemaMs: 0, loadMs: 0 };
  readonly #now: () => number;
  readonly #maxText: number;
  /** SQLite's page cache of an OPFS store, MB (restored after the bulk read at open). */
  readonly #pageCacheMb: number;
  readonly #cache: ArcCache<string, readonly RecallResult[]>;
  readonly #dedup: DedupIndex;
  /** What recalls read per memory, kept until the store changes. */
  readonly #memo = new RecallMemo();
  /** Each recall stage's time since open (`stats().recallStages`). */
  readonly #stages = emptyStageTimes();
  #generation = 0;
  readonly #onChange: ((change: StoreChange) => void) | undefined;
  /** Listeners added with {@link Engine.subscribe}. */
  readonly #listeners = new Set<(change: StoreChange) => void>();
  #schemaVersion: number;
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #writes: WritePath;
  readonly #retrieved: RetrievedEvents;
  /** Where this engine is in the store's change log (what other processes changed). */
  readonly #log: ChangeLog;
  /** The snapshot parts of the stored vectors, written behind the writes. */
  readonly #parts: VectorParts;
  /** What the similarity backend's open left on disk (the float32 rows), read while quiet. */
  readonly #rest: QuietSteps;
  /** The lexical indexes merged behind the calls (see `lexicalMerge`). */
  readonly #merge: QuietSteps;
  /** The time parsers warmed up behind the calls (`recall/query/time.ts`, warmTimeStep). */
  readonly #warm: QuietSteps;
  /** Forgotten text purged from the file behind the calls and at close (see `forgetPurge`). */
  readonly #purge: QuietSteps;
  /** What the engine's parts (`engine/`, the write plans) use of it. */
  readonly #ctx: EngineContext;
  /** The timer of {@link Engine.#watchElsewhere}, once started. */
  #watch: ReturnType<typeof setInterval> | undefined;
  /** The sync with other devices (`EngineOptions.sync`), started once the store is open. */
  #sync: SyncSlot | undefined;

  private constructor(
    io: StorageBackend,
    backend: SimilarityBackend,
    owned: boolean,
    options: EngineOptions,
    schemaVersion: number,
  ) {
    this.#io = io;
    this.#read = io.reader();
    this.#log = new ChangeLog(io.db);
    this.#now = options.now ?? Date.now;
    this.#maxText = options.maxTextLength ?? DEFAULT_MAX_TEXT;
    this.#pageCacheMb = pageCacheMbOf(options);
    this.#cache = new ArcCache(options.cacheSize ?? 500, (options.cacheSize ?? 500) * 2);
    this.#onChange = options.onChange;
    const busy = () => this.#pending.size > 0;
    this.#dedup = new DedupIndex(io.db, this.#read, (read) => this.#bulkRead(read), busy);
    this.#retrieved = new RetrievedEvents(
      io.db,
      () => this.#memo.usageChanged(), // access counts changed
      io.kind === 'file' ? USAGE_LOCK_MS : undefined,
    );
    this.#schemaVersion = schemaVersion;
    this.#writes = new WritePath(io.db, {
      closed: () => this.#closed,
      bump: (change) => this.#bump(change),
      catchUp: () => this.#catchUp(),
      ownChanges: () => this.#log.mark(io.db),
      now: () => this.#now(),
      lockWaitMs: () => io.busyTimeoutMs,
      checkStore: () => io.checkFile?.(true),
      ...(io.durable ? { durable: () => io.durable!() } : {}),
      ...(io.nextTurn ? { nextTurn: () => io.nextTurn!() } : {}),
    });
    this.#ctx = {
      io,
      db: io.db,
      read: this.#read,
      dedup: this.#dedup,
      writes: this.#writes,
      maxText: this.#maxText,
      similarity: () => this.#model.similarity,
      now: () => this.#now(),
      closed: () => this.#closed,
      closing: () => this.#closed || this.#closing !== undefined,
      bulkRead: (read) => this.#bulkRead(read),
      run: (fn, flushRetrieved) => this.#run(fn, flushRetrieved),
      dropSnapshots: () => dropSnapshots(this.#ctx),
    };
    this.#model = new ModelLifecycle(this.#ctx, backend, owned);
    this.#parts = new VectorParts(this.#ctx);
    this.#rest = new QuietSteps(
      () => this.#bulkRead(() => this.#model.similarity.loadStep?.() ?? false),
      REST_IDLE_MS,
      busy,
    );
    this.#merge = lexicalMerge(io.db, busy);
    this.#warm = new QuietSteps(warmTimeStep, WARM_IDLE_MS, busy);
    this.#purge = forgetPurge(
      io.db,
      forgetting(io.db).lexicalSecureDelete,
      io.kind === 'file',
      busy,
    );
  }

  /** Opens (or creates) a store and loads its vectors. */
  static async open(options: EngineOptions): Promise<Engine> {
    const opened = await openStore(options);
    const { io, backend, owned, promised } = opened;
    try {
      const engine = new Engine(io, backend, owned, options, opened.schemaVersion);
      const onMismatch = options.onModelMismatch ?? 'error';
      if (promised) {
        engine.#dedup.load(Number(io.db.selectValue('SELECT count(*) FROM memories')));
        engine.#model.activateWhenReady(promised, onMismatch, options.onProgress, (ms) =>
          engine.#modelReady(ms),
        );
      } else {
        await engine.#model.load(backend, onMismatch, options.onProgress);
        engine.#rest.start();
      }
      const { sqliteMs, storageMs, schemaMs } = opened.timings;
      engine.#timings = {
        sqliteMs,
        storageMs,
        ...(io.openSteps ? { storageSteps: { ...io.openSteps } } : {}),
        schemaMs,
        loadMs: opened.step(),
      };
      engine.#parts.schedule();
      engine.#merge.start();
      engine.#warm.start();
      if (purgeDue(io.db)) engine.#purge.start();
      engine.#sync = new SyncSlot(options.sync, engine, {
        name: options.name ?? 'anamnesis',
        ...(options.path === undefined ? {} : { path: options.path }),
      });
      return engine;
    } catch (e) {
      await opened.abandon();
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
    return this.#model.state;
  }

  /**
   * What the store and its model are, as {@link stats} says them (backend, why it is memory where
   * OPFS was asked for, encryption, the model's id, dimensions, device and state), without
   * {@link stats}' counts: nothing is read from the store. What an open reports.
   */
  get about(): StoreAbout {
    return storeAbout(this.#ctx, this.#model.state);
  }

  /** Resolves when the model is ready (see {@link modelState}); rejects with why it failed. */
  get model(): Promise<void> {
    return this.#model.ready;
  }

  /** A promised model is ready (its backend swapped in): cached lexical-only recalls are dropped. */
  #modelReady(vectorsMs: number): void {
    this.#timings.vectorsMs = vectorsMs;
    this.#generation++;
    this.#parts.schedule();
    this.#rest.start();
    this.#changed({ kind: 'model', ids: [] });
  }

  /**
   * Runs a public call: refused once closing, tracked so `close` waits for it. Queued `retrieved`
   * events are written first, except by `recall`: a burst of searches (search as you type) stays
   * pure reads, and its access counts catch up in the next quiet second.
   */
  #run<T>(fn: () => Promise<T>, flushRetrieved = true): Promise<T> {
    if (this.#closed || this.#closing) return Promise.reject(new AnamnesisError('CLOSED'));
    try {
      this.#io.checkFile?.(false); // a file store whose file was deleted, moved or replaced
    } catch (e) {
      return Promise.reject(e);
    }
    if (this.#parts.scheduled) this.#parts.schedule(); // not while calls come
    this.#dedup.postpone(); // nor a rebuild of the Bloom filter
    this.#rest.postpone(); // nor the rest of the stored vectors
    this.#merge.postpone(); // nor a merge of the lexical indexes
    this.#warm.postpone(); // nor the time parsers' warm-up
    // What other processes committed to a shared file store, before this call reads anything.
    this.#catchUp();
    if (flushRetrieved && this.#retrieved.pending) this.#retrieved.flush();
    // Only catalogued errors leave the engine: SQLite's (a page found corrupt by a read) are
    // mapped, anything else is INTERNAL.
    const p = fn().catch((e: unknown) => {
      const error = mapSqliteError(e, 'reading the store');
      // a read-only store says why it is (the file, the folder, a -shm left unwritable)
      if (error.code === 'READ_ONLY' && this.#io.reason && !error.message.includes(this.#io.reason))
        throw new AnamnesisError('READ_ONLY', `${error.message} (${this.#io.reason})`, {
          cause: error,
          ...(error.details === undefined ? {} : { details: error.details }),
        });
      throw error;
    });
    this.#pending.add(p);
    const done = () => {
      this.#pending.delete(p);
      this.#dedup.postpone();
      this.#rest.postpone();
      this.#merge.postpone();
    };
    p.then(done, done);
    return p;
  }

  /**
   * At close: saves the queued `retrieved` events, waiting (without stopping the thread) up to the
   * busy timeout for another process's write lock.
   */
  async #saveRetrieved(): Promise<void> {
    const deadline = performance.now() + (this.#io.busyTimeoutMs ?? 0);
    while (!this.#retrieved.flush(true) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
  }

  /** Runs a read of pages read once on the small bulk-read page cache (see `bulkRead`). */
  #bulkRead<T>(read: () => T): T {
    return this.#io.kind === 'memory' ? read() : bulkRead(this.#io.db, this.#pageCacheMb, read);
  }

  /**
   * When another process committed to the store (a file store shared by processes): refreshes what
   * this engine keeps in memory of the rows it changed (vectors or TF-IDF, the Bloom filter), and
   * drops cached recalls and what recalls keep per memory (access counts, usage and links may have
   * changed too). Returns whether anything was committed elsewhere.
   */
  #catchUp(): boolean {
    if (!this.#io.changedElsewhere()) return false;
    const { db } = this.#io;
    const changed = this.#log.since(db);
    this.#bulkRead(() => {
      this.#model.similarity.refresh?.(db, (capacity) => this.#io.reader(capacity), changed);
      this.#dedup.refresh(changed);
    });
    if (changed === 'all') this.#rest.start(); // the vectors were read again
    this.#generation++;
    this.#memo.clear();
    if (this.#listeners.size > 0 || this.#onChange) {
      const rids = changed === 'all' ? [] : changed;
      const ids = db.selectValues(
        'SELECT id FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
        [JSON.stringify(rids)],
      ) as string[];
      this.#changed({ kind: 'elsewhere', ids });
    }
    return true;
  }

  /**
   * While anyone listens to a store other processes may write (a file store), checks every
   * second whether one committed, so listeners hear it (`'elsewhere'`) without waiting for a call.
   */
  #watchElsewhere(): void {
    if (this.#io.kind !== 'file' || this.#watch !== undefined) return;
    this.#watch = setInterval(() => {
      if (this.#closed || this.#closing || this.#listeners.size === 0) return;
      try {
        this.#catchUp();
      } catch {
        // a store another process holds mid-commit: the next tick or call catches up
      }
    }, ELSEWHERE_POLL_MS);
    (this.#watch as { unref?: () => void }).unref?.(); // never keeps Node alive
  }

  #bump(change: { kind: ChangeKind; ids: readonly string[] }): void {
    this.#generation++;
    this.#memo.clear();
    this.#parts.schedule();
    this.#merge.start();
    this.#purge.start(); // a purge when quiet, if text was removed
    this.#changed(change);
  }

  /** Tells the change listeners (`EngineOptions.onChange`, then each of {@link subscribe}'s). */
  #changed(change: { kind: ChangeKind; ids: readonly string[] }): void {
    for (const listener of [this.#onChange, ...this.#listeners]) {
      if (!listener) continue;
      try {
        listener({ kind: change.kind, ids: [...change.ids], generation: this.#generation });
      } catch (e) {
        console.error('anamnesis: an onChange listener threw', e);
      }
    }
  }

  /**
   * Adds a change listener beside `EngineOptions.onChange` (what a sync or a cache beside the
   * engine hears): called after each committed change, as `onChange` is. Returns the function that
   * removes it.
   */
  subscribe(listener: (change: StoreChange) => void): () => void {
    this.#listeners.add(listener);
    this.#watchElsewhere();
    return () => this.#listeners.delete(listener);
  }

  /** Stores one memory and returns its id (the existing id for a duplicate text in the same session). */
  remember(input: RememberInput): Promise<string> {
    return this.#run(async () => (await this.#writes.run(rememberPlan(this.#ctx, [input])))[0]!);
  }

  /**
   * Stores many memories atomically: all of them or none. Returns ids in input order. With
   * `options.replace` (a filter), the memories it selects are deleted in the same transaction:
   * the old are never gone without the new in their place (see {@link RememberManyOptions}).
   */
  rememberMany(
    inputs: readonly RememberInput[],
    options: RememberManyOptions = {},
  ): Promise<string[]> {
    return this.#run(async () =>
      this.#writes.run(rememberPlan(this.#ctx, inputs, options?.onProgress, options?.replace)),
    );
  }

  /**
   * Memories matching a filter, newest first (by `order`), paged: what an app needs to show a list
   * of notes without a query.
   */
  list(options: ListOptions = {}): Promise<Memory[]> {
    return this.#run(async () => listMemories(this.#read, options));
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
    return this.#run(async () => this.#writes.run(updatePlan(this.#ctx, id, patch)));
  }

  /**
   * Deletes memories by id, ids, or filter; returns how many were deleted. Links and usage go with
   * them. A filter must select something: one that sets no condition (`{}`, `{ meta: {} }`, keys
   * whose value is `undefined`) is `INVALID_INPUT`; `{ all: true }` deletes every memory.
   */
  forget(target: string | string[] | MemoryFilter | ForgetAll): Promise<number> {
    return this.#run(async () => {
      const plan = forgetPlan(this.#ctx, target);
      return plan ? this.#writes.run(plan) : 0;
    });
  }

  /** Links two memories (upsert by source, target and kind). */
  link(from: string, to: string | LinkInput, options: Omit<LinkInput, 'to'> = {}): Promise<void> {
    return this.#run(async () => {
      await this.#writes.run(linkPlan(from, to, options));
    });
  }

  /**
   * Marks `newId` as superseding `oldId`: it states a new value for the same fact ("We moved to
   * Lisbon" after "I live in Porto"), so recall ranks the older below it for questions about that
   * fact (not for questions about its past: "where did I live before") and `explain.supersededBy`
   * says so. Confirms a supersession the engine found when `newId` was written, or sets one it did
   * not find. Nothing is deleted. `NOT_FOUND` for an unknown id, `INVALID_INPUT` for one id twice.
   */
  supersede(oldId: string, newId: string): Promise<void> {
    if (oldId === newId)
      return Promise.reject(
        new AnamnesisError('INVALID_INPUT', 'a memory cannot supersede itself'),
      );
    return this.link(newId, oldId, { kind: SUPERSEDES, weight: 1 });
  }

  /** Undoes a supersession (found by the engine or set by `supersede`); returns whether there was one. */
  unsupersede(oldId: string, newId: string): Promise<boolean> {
    return this.#run(
      async () => (await this.#writes.run(unlinkPlan(newId, oldId, SUPERSEDES))) > 0,
    );
  }

  /**
   * The chain of supersessions `id` is in, oldest first: each memory with the one that superseded
   * it (`supersededBy`: its id, when it was made, and whether the app confirmed it). A memory
   * nothing supersedes and that supersedes nothing is a chain of one. `NOT_FOUND` for an unknown id.
   */
  history(id: string): Promise<HistoryEntry[]> {
    return this.#run(async () => supersessionHistory(this.#io.db, validateId(id)));
  }

  /**
   * The memories a chat turn should see, as a fenced memory block for the model (see
   * {@link AugmentInput}): recalled for the user's message and, lightly, the last user turns of
   * `history`; current facts only (a superseded memory is left out unless the message asks about
   * the past); within `tokenBudget` (default 600 tokens). `debug` says why each memory recalled
   * was used or left out. `INVALID_INPUT` for a bad input.
   */
  augment(input: AugmentInput): Promise<AugmentResult> {
    return this.#run(async () => augment(this, input, this.#maxText), false);
  }

  /**
   * Stores the durable facts the person stated in a chat turn (see {@link LearnInput}): each a
   * memory of its own with its provenance in `meta` (`source: 'learn'`, `conversation`, `turn`),
   * none the store already holds, all in one transaction, superseding the older facts they
   * replace. Nothing the assistant said is stored but a question of its that the person
   * confirmed. Returns what was stored, what it superseded, and what was skipped and why.
   */
  learn(input: LearnInput): Promise<LearnResult> {
    return this.#run(async () =>
      learn(
        {
          db: this.#io.db,
          similarity: () => this.#model.similarity,
          maxText: this.#maxText,
          rememberMany: (inputs) => this.rememberMany(inputs),
          history: (id) => this.history(id),
        },
        input,
      ),
    );
  }

  /**
   * Pins a memory (`pinned` true, the default) or unpins it (false); returns whether that changed
   * it (false: it was so already). A pinned memory never decays: recall ranks it as if it were
   * made now, in every profile that weighs age. And it is always a candidate for its topics: a
   * recall whose query shares a word with it, or whose meaning is close to it (its meaning
   * strength at least `WEAK_MATCH`, 0.3), finds it however many newer memories on the same
   * topic outrank it in the other legs. `Memory.pinned` says it; `list({ filter: { pinned: true } })`
   * lists the pinned memories. `NOT_FOUND` for an unknown id, `INVALID_INPUT` for a `pinned` that
   * is not a boolean.
   */
  pin(id: string, pinned = true): Promise<boolean> {
    return this.#run(async () => this.#writes.run(pinPlan(id, pinned)));
  }

  /** Removes links from one memory to another (of one kind, or all kinds); returns how many. */
  unlink(from: string, to: string, kind?: string): Promise<number> {
    return this.#run(async () => this.#writes.run(unlinkPlan(from, to, kind)));
  }

  /** Records that a memory was selected or used (these raise its usage score; `discarded` is stored only). */
  markUsed(id: string, event: UsageEvent = 'used'): Promise<void> {
    return this.#run(async () => {
      await this.#writes.run(usagePlan(this.#ctx, id, event));
    });
  }

  /**
   * Replaces what another device recorded of a memory's use (`@anamnesis/sync` applies it): per
   * event kind, its events folded (count, decayed sum, newest time). The usage score counts them
   * beside this store's own `markUsed` events; an export carries only the store's own. `NOT_FOUND`
   * for an unknown id.
   */
  setDeviceUsage(id: string, device: string, usage: DeviceUsage[]): Promise<void> {
    return this.#run(async () => {
      await this.#writes.run(deviceUsagePlan(id, device, usage));
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
   * most one minute's time slot (`RECALL_CACHE_SLOT_MS`: scores depend on the memories' age).
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
        : recallKey(this.#generation, now, normalized, options);
      const cached = key === undefined ? undefined : this.#cache.get(key);
      const results =
        cached ??
        partial(
          await runRecall(
            {
              read: this.#read,
              similarity: this.#model.similarity,
              now,
              memo: this.#memo,
              stages: this.#stages,
            },
            normalized,
            options,
          ),
          this.#model.state,
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
      await this.#model.ready.catch(() => undefined);
      return exportJsonl(this.#io.db, this.#model.similarity, options);
    });
  }

  /**
   * Imports JSON Lines (an `export`, or lines of `remember`'s fields with an `id` each)
   * atomically; returns how many memories were added. `createdAt` and `updatedAt` are ms or
   * ISO 8601 strings, as `remember`'s `createdAt`. `INVALID_INPUT`, nothing imported, for a bad
   * line, for one id on two lines (`details.id`, `details.lines`) and, unless
   * `onConflict: 'skip'`, for an id the store holds already.
   */
  import(jsonl: string, options: ImportOptions = {}): Promise<number> {
    return this.#run(async () => {
      const plan = importPlan(
        this.#io.db,
        this.#model.similarity,
        jsonl,
        options,
        this.#now(),
        this.#maxText,
        () => this.#ctx.dropSnapshots(),
      );
      return this.#writes.run({
        ...plan,
        apply: (r) => {
          this.#model.similarity.apply(r.rids, r.texts, r.vectors);
          for (const key of r.dedupKeys) this.#dedup.add(key);
        },
        reply: (r) => r.added,
      });
    });
  }

  /** Counts, sizes, model, cache and generation. */
  stats(): Promise<EngineStats> {
    return this.#run(async () =>
      engineStats(this.#ctx, {
        cache: this.#cache,
        generation: this.#generation,
        schemaVersion: this.#schemaVersion,
        modelState: this.#model.state,
        recallStages: this.#stages,
        usageQueue: { pending: this.#retrieved.pendingEvents, dropped: this.#retrieved.dropped },
      }),
    );
  }

  /**
   * Checks the store: SQLite's integrity check, FTS5's own check against the rows, and that every
   * memory has exactly one vector in the index and on disk. Returns the problems found (empty: ok).
   */
  verify(): Promise<string[]> {
    return this.#run(async () => verifyStore(this.#ctx));
  }

  /**
   * Writes a consistent copy of a file store to `dest`, a new file (`VACUUM INTO`: one snapshot,
   * taken while other processes go on writing; compact, with no `-wal` beside it; an encrypted
   * store's copy encrypted under the same passphrase). Copy a live store this way, never with `cp`:
   * its newest pages are in `-wal`. `INVALID_INPUT` when `dest` exists (a backup never overwrites)
   * or the store is not a file store (OPFS, memory: use `export()`); `QUOTA_EXCEEDED` when the
   * disk is full (nothing is left behind).
   */
  backup(dest: string): Promise<BackupResult> {
    return this.#run(async () => backupStore(this.#io, dest));
  }

  /**
   * Re-keys an encrypted store (opened with `encryption`) with a key derived from `passphrase` and
   * a new salt: every page is rewritten in one transaction, so a crash leaves the store under the
   * old passphrase or the new one, never a mix. From then on only the new passphrase opens it.
   * `ENCRYPTION_MISMATCH` for a store that is not encrypted; `STORE_LOCKED` while another process
   * has the file open (nothing changes); `INVALID_INPUT` for a passphrase that is not a non-empty
   * string of at most 1,024 characters.
   */
  changePassphrase(passphrase: string): Promise<void> {
    return this.#run(async () => {
      if (!this.#io.rekey)
        throw new AnamnesisError(
          'ENCRYPTION_MISMATCH',
          'the store is not encrypted: only an encrypted store has a passphrase to change',
          { details: { encrypted: false } },
        );
      await this.#io.rekey(passphrase);
    });
  }

  /**
   * Checks that opening this store with `encryption` (or without it) would succeed, as a tab that
   * forwards to the store's owner does instead of opening it: `WRONG_PASSPHRASE` for a passphrase
   * that does not derive the store's key (one key derivation, about as long as an open's),
   * `ENCRYPTION_MISMATCH` for a passphrase on a plain store or none on an encrypted one,
   * `INVALID_INPUT` for a malformed option. Resolves when it would open. Changes nothing.
   */
  checkEncryption(encryption?: EncryptionOptions): Promise<void> {
    return this.#run(async () => {
      const passphrase = passphraseOf(encryption);
      const encrypted = this.#io.encrypted === true;
      if (encrypted !== (passphrase !== undefined))
        throw new AnamnesisError(
          'ENCRYPTION_MISMATCH',
          encrypted
            ? 'the store is encrypted: open it with encryption: { passphrase }'
            : 'the store is not encrypted: open it without encryption',
          { details: { encrypted } },
        );
      if (passphrase !== undefined && !(await this.#io.keyMatches!(passphrase)))
        throw new AnamnesisError(
          'WRONG_PASSPHRASE',
          'the passphrase does not open this store; nothing was changed',
        );
    });
  }

  /**
   * The running sync of `EngineOptions.sync`: resolves once it started, rejects with what kept it
   * from starting, and with `INVALID_INPUT` for an engine opened without `sync`.
   */
  sync(): Promise<StoreSync> {
    return this.#sync!.get(); // set by `open`, before anyone holds the engine
  }

  /**
   * Stops the sync (if any), waits for calls in flight, saves snapshots, and closes. Idempotent;
   * later calls fail with `CLOSED`.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#sync?.stop();
      clearInterval(this.#watch);
      await Promise.allSettled([...this.#pending]);
      await this.#saveRetrieved();
      this.#dedup.stop();
      this.#rest.stop();
      this.#merge.stop();
      this.#warm.stop();
      this.#purge.stop();
      this.#closed = true;
      this.#parts.schedule(); // clears the timer
      try {
        // forgotten text gone from the file before it is left (a purge the quiet time did not run)
        purge(this.#io.db, forgetting(this.#io.db).lexicalSecureDelete, this.#io.kind === 'file');
      } catch {
        // a store another process holds, a full disk: the next open's quiet time purges it
      }
      try {
        this.#catchUp(); // snapshots must hold what other processes wrote too
        saveSnapshots(this.#ctx);
      } catch {
        // a full disk, a store another process holds: the filter and the similarity index are
        // rebuilt at the next open
      }
      try {
        this.#read.close();
        this.#io.close();
      } finally {
        await this.#model.dispose();
      }
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Opens an engine (see {@link EngineOptions}). */
export function createEngine(options: EngineOptions): Promise<Engine> {
  return Engine.open(options);
}
