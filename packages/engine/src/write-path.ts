import { AnamnesisError } from '@anamnesis/ranking';
import { transaction, type Database } from './sqlite.ts';

/**
 * One write, as the {@link WritePath} runs it: `encode` → `BEGIN IMMEDIATE` → `tx` → `COMMIT` →
 * `apply` → bump the generation → persist. Plans run one at a time, so what `encode` reads of the
 * store (duplicates, taken ids, the row being updated) is still true when `tx` runs.
 */
export interface WritePlan<T> {
  /** What the write does, for error messages (`'remembering'`). */
  readonly what: string;
  /**
   * Slow work before the transaction, in the serialised section: reads the store to decide what
   * must be embedded, and embeds it. Absent for writes that embed nothing.
   */
  encode?(): Promise<void>;
  /** The transaction body: synchronous, between `BEGIN IMMEDIATE` and `COMMIT`. */
  tx(db: Database): T;
  /**
   * After `COMMIT`, in the same synchronous step: in-memory state (vectors, Bloom filter) catches
   * up with the store, so no read ever sees one ahead of the other.
   */
  apply?(result: T): void;
  /** Whether the write changed the store (bumps the generation, then persists). Default true. */
  changed?(result: T): boolean;
}

/** What the write path needs of the engine around it. */
export interface WritePathHooks {
  /** True once the engine is closed: a queued write then fails with `CLOSED`. */
  closed(): boolean;
  /** A write committed: invalidates cached recalls and marks the store dirty. */
  bump(): void;
  /** Makes the committed writes durable where the backend needs it (the file store). */
  persist(): Promise<void>;
}

/**
 * The engine's one write path: a queue that runs {@link WritePlan}s one at a time, in the order
 * they were submitted, each to completion (persisted) before the next one's `encode` starts.
 *
 * Read consistency: reads do not queue. A transaction and the in-memory changes after it run in
 * one synchronous step, and JavaScript runs one step at a time, so a read (a recall, a `get`) sees
 * every write before it whole and none of a later one; a caller whose write was acknowledged
 * reads it back. A read never waits behind another caller's embedding.
 */
export class WritePath {
  readonly #db: Database;
  readonly #hooks: WritePathHooks;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(db: Database, hooks: WritePathHooks) {
    this.#db = db;
    this.#hooks = hooks;
  }

  /** Queues a write; resolves with what `tx` returned once it is committed and persisted. */
  run<T>(plan: WritePlan<T>): Promise<T> {
    const result = this.#tail.then(() => this.#execute(plan));
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every write queued so far has finished (succeeded or failed). */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }

  async #execute<T>(plan: WritePlan<T>): Promise<T> {
    if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');
    await plan.encode?.();
    if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');
    const result = transaction(this.#db, plan.what, () => plan.tx(this.#db));
    plan.apply?.(result);
    if (plan.changed?.(result) ?? true) {
      this.#hooks.bump();
      await this.#hooks.persist();
    }
    return result;
  }
}
