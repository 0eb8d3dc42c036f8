import { AnamnesisError } from '@anamnesis/errors';
import type { Database } from '../store/database.ts';
import { transaction, tryBegin } from '../store/sqlite.ts';
import type { ChangeKind } from '../types.ts';

/**
 * One write, as the {@link WritePath} runs it: `encode` → `BEGIN IMMEDIATE` → `tx` → `COMMIT`
 * → `apply` → bump the generation; its caller is answered once the commit is on disk (at COMMIT,
 * or by a sync shared with the writes around it: {@link WritePathHooks.durable}). Plans run one at a time in
 * this engine, so what `encode` reads of the store (duplicates, taken ids, the row being updated)
 * is still true when `tx` runs, unless another process wrote in between (a file store shared by
 * processes): then `stale` is asked, under the write lock, and a stale write starts again.
 */
export interface WritePlan<T, R = T> {
  /** What the write does, for error messages (`'remembering'`). */
  readonly what: string;
  /** Which kind of change it is, for change listeners (`EngineOptions.onChange`). */
  readonly kind: ChangeKind;
  /** The ids of the memories it changed (written, deleted, linked), from what `tx` returned. */
  ids?(result: T): readonly string[];
  /**
   * Slow work before the transaction, in the serialised section: reads the store to decide what
   * must be embedded, and embeds it. Absent for writes that embed nothing.
   */
  encode?(): Promise<void>;
  /** The transaction body: synchronous, between `BEGIN IMMEDIATE` and `COMMIT`. */
  tx(db: Database): T;
  /**
   * Inside the transaction, before `tx`, only when another process committed since `encode` read
   * the store: whether what `encode` decided no longer holds (a text it found new is stored now,
   * an id it took is taken). A stale write is rolled back and runs again from `encode`. Absent:
   * `tx` reads all it needs itself.
   */
  stale?(db: Database): boolean;
  /**
   * After `COMMIT`, in the same synchronous step: in-memory state (vectors, Bloom filter) catches
   * up with the store, so no read ever sees one ahead of the other.
   */
  apply?(result: T): void;
  /** Whether the write changed the store (bumps the generation). Default true. */
  changed?(result: T): boolean;
  /**
   * The caller's answer (JSON-serialisable), from what `tx` returned. Recorded in the same
   * transaction when the write carries an operation id. Default: `tx`'s result itself.
   */
  reply?(result: T): R;
}

/** What the write path needs of the engine around it. */
export interface WritePathHooks {
  /** True once the engine is closed: a queued write then fails with `CLOSED`. */
  closed(): boolean;
  /** A write committed: invalidates cached recalls and tells change listeners what changed. */
  bump(change: { kind: ChangeKind; ids: readonly string[] }): void;
  /**
   * Catches up with what other processes committed (a file store shared by processes): refreshes
   * the in-memory state; returns whether there was anything. Called before `encode` and again
   * first thing inside the transaction, under the write lock.
   */
  catchUp(): boolean;
  /**
   * Inside the transaction, after `tx`: notes where the change log ends, so the catch-up after
   * this write's commit skips this engine's own changes. Returns the function to call once the
   * transaction has committed.
   */
  ownChanges(): () => void;
  /** The clock, in ms since the epoch (operation records older than a day are dropped). */
  now(): number;
  /**
   * A store other processes may write (a file store): how long a write waits for another
   * process's write lock, in ms, before `STORE_LOCKED`. The wait is asynchronous (short lock
   * attempts, {@link LOCK_TRY_MS}, with pauses between): this process's reads go on meanwhile.
   * Absent or undefined: `BEGIN IMMEDIATE` runs as it is (a store with one connection).
   */
  lockWaitMs?(): number | undefined;
  /**
   * Inside the transaction, after `tx`, just before `COMMIT`: throws when the store can no longer
   * keep the write (a file store whose file was deleted, moved or replaced: `STORE_NOT_FOUND`), so
   * no write is acknowledged that nothing holds. The write is rolled back.
   */
  checkStore?(): void;
  /**
   * A store whose COMMIT does not wait for the disk (a file store: group commit): resolves once
   * every commit before the call is on disk. A write's caller is answered only then; the next
   * write does not wait for it. Absent: a commit is durable when it returns.
   */
  durable?(): Promise<void>;
  /**
   * With {@link durable}: resolves at the event loop's next turn, so that the syncs' I/O callbacks
   * run between two queued writes (a queue of writes that embed synchronously would otherwise run
   * as one chain of microtasks, and every caller be answered only once the whole queue is done).
   */
  nextTurn?(): Promise<void>;
}

/** One attempt at another process's write lock, in ms (SQLite sleeps the thread meanwhile). */
const LOCK_TRY_MS = 20;
/** The pause between two attempts, in ms (other calls of this process run meanwhile). */
const LOCK_PAUSE_MS = 25;

/** How long an operation id is remembered, in ms: far longer than any owner hand-over. */
const OPERATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Runs of one write at most: another process that keeps making it stale makes it `STORE_LOCKED`. */
const MAX_ATTEMPTS = 5;

/**
 * The engine's one write path: a queue that runs {@link WritePlan}s one at a time, in the order
 * they were submitted, each to completion (committed) before the next one's `encode` starts.
 *
 * Read consistency: reads do not queue. A transaction and the in-memory changes after it run in
 * one synchronous step, and JavaScript runs one step at a time, so a read (a recall, a `get`) sees
 * every write before it whole and none of a later one; a caller whose write was acknowledged
 * reads it back. A read never waits behind another caller's embedding.
 *
 * At most once: a write submitted under an operation id ({@link WritePath.once}) records its reply
 * in the `operations` table in its own transaction; the same id submitted again (a forwarded write
 * re-sent after an owner hand-over) is answered with that reply and changes nothing.
 */
export class WritePath {
  readonly #db: Database;
  readonly #hooks: WritePathHooks;
  #tail: Promise<unknown> = Promise.resolve();
  /** The operation id of the next `run`, set by `once` around a synchronous call. */
  #nextOperation: string | undefined;

  constructor(db: Database, hooks: WritePathHooks) {
    this.#db = db;
    this.#hooks = hooks;
  }

  /**
   * Queues a write; resolves with its reply once it is committed and on disk. The next write
   * starts once this one has committed: where the disk is waited for after the commit
   * ({@link WritePathHooks.durable}), writes queued together share that wait.
   */
  run<T, R = T>(plan: WritePlan<T, R>): Promise<R> {
    const operation = this.#nextOperation;
    this.#nextOperation = undefined;
    const result = this.#tail.then(async () => {
      await this.#hooks.nextTurn?.();
      return this.#execute(plan, operation);
    });
    this.#tail = result.catch(() => undefined);
    if (!this.#hooks.durable) return result;
    return result.then(async (reply) => {
      await this.#hooks.durable!();
      return reply;
    });
  }

  /**
   * Queues `fn` like a write and runs it alone: no write's `encode` or transaction overlaps it (the
   * swap of a model's leg, which loads vectors and embeds rows in transactions of its own).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Calls `submit` (which must call {@link run} at most once, synchronously) with that write
   * tagged with `operation`.
   */
  once<T>(operation: string, submit: () => T): T {
    this.#nextOperation = operation;
    try {
      return submit();
    } finally {
      this.#nextOperation = undefined;
    }
  }

  async #execute<T, R>(plan: WritePlan<T, R>, operation: string | undefined): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');
      this.#hooks.catchUp();
      if (operation !== undefined) {
        const seen = this.#db.selectValue('SELECT reply FROM operations WHERE id = ?', [operation]);
        if (typeof seen === 'string') return (JSON.parse(seen) as { reply?: R }).reply as R;
      }
      await plan.encode?.();
      if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');
      let reply!: R;
      let stale = false;
      let committed = () => {};
      let result: T;
      try {
        result = await this.#transaction(plan.what, () => {
          if (this.#hooks.catchUp() && plan.stale?.(this.#db)) {
            stale = true;
            throw new AnamnesisError(
              'STORE_LOCKED',
              'another process changed what this write read',
            );
          }
          const out = plan.tx(this.#db);
          reply = plan.reply ? plan.reply(out) : (out as unknown as R);
          if (operation !== undefined) this.#record(operation, reply);
          committed = this.#hooks.ownChanges();
          this.#hooks.checkStore?.();
          return out;
        });
      } catch (e) {
        if (stale && attempt < MAX_ATTEMPTS) continue;
        throw e;
      }
      committed();
      plan.apply?.(result);
      if (operation !== undefined || (plan.changed?.(result) ?? true))
        this.#hooks.bump({ kind: plan.kind, ids: plan.ids?.(result) ?? [] });
      return reply;
    }
  }

  /**
   * Runs `body` in one write transaction. Where another process may hold the write lock
   * ({@link WritePathHooks.lockWaitMs}), the lock is tried for {@link LOCK_TRY_MS} at a time, with
   * pauses between in which this process's other calls run, until `lockWaitMs` has passed
   * (`STORE_LOCKED`); `BEGIN IMMEDIATE` and the body run in one synchronous step.
   */
  async #transaction<T>(what: string, body: () => T): Promise<T> {
    const waitMs = this.#hooks.lockWaitMs?.();
    if (waitMs === undefined) return transaction(this.#db, what, body);
    const deadline = performance.now() + waitMs;
    for (;;) {
      const left = deadline - performance.now();
      if (tryBegin(this.#db, Math.min(LOCK_TRY_MS, Math.max(0, left)), what))
        return transaction(this.#db, what, body, true);
      if (left <= 0)
        throw new AnamnesisError(
          'STORE_LOCKED',
          `${what}: another process held the store's write lock for ${waitMs} ms (the busy timeout); nothing was written`,
        );
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_PAUSE_MS, left)));
      if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');
    }
  }

  /** Inside the write's transaction: its reply under its operation id; old records go. */
  #record(operation: string, reply: unknown): void {
    const now = this.#hooks.now();
    this.#db.exec({ sql: 'DELETE FROM operations WHERE at < ?', bind: [now - OPERATION_TTL_MS] });
    this.#db.exec({
      sql: 'INSERT INTO operations(id, reply, at) VALUES (?, ?, ?)',
      bind: [operation, JSON.stringify({ reply }), now],
    });
  }
}
