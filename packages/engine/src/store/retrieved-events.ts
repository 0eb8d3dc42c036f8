import type { Database } from './database.ts';
import { transaction, tryBegin } from './sqlite.ts';
import { foldOldUsage } from './usage-fold.ts';

/** Quiet time after which queued `retrieved` events are written, in ms. */
export const RETRIEVED_FLUSH_MS = 1000;

/** After a save found the write lock held, the next try waits this long, in ms. */
export const RETRIEVED_RETRY_MS = 250;
/** Events queued at most (one per memory a recall returned); past it the oldest are dropped, and counted. */
export const MAX_PENDING_RETRIEVED = 100_000;

/**
 * The `retrieved` events of recalls (and the access counts they raise), queued rather than written
 * per recall: one write transaction per recall would cost a synced OPFS commit (tens of ms) per
 * keystroke of a search as you type. They are ranking input only (no generation bump), written by
 * the engine's next call other than `recall`, after {@link RETRIEVED_FLUSH_MS} without a recall,
 * or at close.
 *
 * Where another process may hold the write lock (a file store: `lockMs` set), a save tries the
 * lock for `lockMs` only (SQLite's wait sleeps the thread, and the save runs before a read): when
 * it is held, the events stay queued and are tried again {@link RETRIEVED_RETRY_MS} later. They
 * are dropped only past {@link MAX_PENDING_RETRIEVED} queued, or when a save fails otherwise (a
 * read-only store, a full disk), and then counted ({@link RetrievedEvents.dropped}, in
 * `stats().usage`).
 */
export class RetrievedEvents {
  readonly #db: Database;
  /** Called after the events are written (the access counts changed). */
  readonly #written: () => void;
  /** How long a save waits for another process's write lock, in ms (undefined: as SQLite does). */
  readonly #lockMs: number | undefined;
  readonly #queue: { ids: string[]; at: number }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `performance.now()` of the last {@link RetrievedEvents.record}. */
  #lastRecord = 0;
  /** `performance.now()` before which a save is not tried again (the lock was held). */
  #retryAt = 0;
  /** Events queued (one per memory a recall returned). */
  #pendingEvents = 0;
  /** Events dropped since open (see the class). */
  #dropped = 0;

  constructor(db: Database, written: () => void, lockMs?: number) {
    this.#db = db;
    this.#written = written;
    this.#lockMs = lockMs;
  }

  get pending(): boolean {
    return this.#queue.length > 0;
  }

  /** Events queued, not yet saved. */
  get pendingEvents(): number {
    return this.#pendingEvents;
  }

  /** Events dropped since open, unsaved (see the class). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Queues the events of one recall's results at `at` (ms since the epoch). */
  record(ids: string[], at: number): void {
    this.#queue.push({ ids, at });
    this.#pendingEvents += ids.length;
    while (this.#pendingEvents > MAX_PENDING_RETRIEVED && this.#queue.length > 1) {
      const oldest = this.#queue.shift()!;
      this.#pendingEvents -= oldest.ids.length;
      this.#dropped += oldest.ids.length;
    }
    this.#lastRecord = performance.now();
    // One timer at a time (not one per recall): when it fires early, it waits out the rest.
    if (this.#timer === undefined) this.#arm(RETRIEVED_FLUSH_MS);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const quiet = performance.now() - this.#lastRecord;
      if (quiet < RETRIEVED_FLUSH_MS) this.#arm(RETRIEVED_FLUSH_MS - quiet);
      else this.flush();
    }, ms);
    (this.#timer as { unref?: () => void }).unref?.(); // never keeps Node alive
  }

  /**
   * Writes the queued events and access counts in one transaction. Returns whether nothing is
   * left queued: false when another process held the write lock (they are tried again later), or
   * when a save was tried too recently to try again yet (`force` tries anyway).
   */
  flush(force = false): boolean {
    if (this.#queue.length === 0) return true;
    if (!force && performance.now() < this.#retryAt) return false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const queue = this.#queue.splice(0);
    const events = this.#pendingEvents;
    this.#pendingEvents = 0;
    const db = this.#db;
    const what = 'recording retrievals';
    try {
      const begun = this.#lockMs === undefined ? false : tryBegin(db, this.#lockMs, what);
      if (this.#lockMs !== undefined && !begun) {
        // held by another process: kept, and tried again (by a call, or by the timer)
        this.#queue.unshift(...queue);
        this.#pendingEvents += events;
        this.#retryAt = performance.now() + RETRIEVED_RETRY_MS;
        this.#arm(RETRIEVED_RETRY_MS);
        return false;
      }
      transaction(
        db,
        what,
        () => {
          for (const { ids, at } of queue) {
            const json = JSON.stringify(ids);
            db.exec({
              sql: "INSERT INTO usage(rid, event, at) SELECT rid, 'retrieved', ? FROM memories WHERE id IN (SELECT value FROM json_each(?))",
              bind: [at, json],
            });
            db.exec({
              sql: 'UPDATE memories SET access_count = access_count + 1 WHERE id IN (SELECT value FROM json_each(?))',
              bind: [json],
            });
          }
          foldOldUsage(db, queue.at(-1)!.at);
        },
        begun,
      );
      this.#written();
    } catch {
      // a read-only store, a full disk: reads must not fail for it; counted, not silent
      this.#dropped += events;
    }
    return true;
  }
}
