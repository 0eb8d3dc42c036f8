import type { Database } from './database.ts';
import { transaction } from './sqlite.ts';
import { foldOldUsage } from './usage-fold.ts';

/** Quiet time after which queued `retrieved` events are written, in ms. */
export const RETRIEVED_FLUSH_MS = 1000;

/**
 * The `retrieved` events of recalls (and the access counts they raise), queued rather than written
 * per recall: one write transaction per recall would cost a synced OPFS commit (tens of ms) per
 * keystroke of a search as you type. They are ranking input only (no generation bump), written by
 * the engine's next call other than `recall`, after {@link RETRIEVED_FLUSH_MS} without a recall,
 * or at close.
 */
export class RetrievedEvents {
  readonly #db: Database;
  /** Called after the events are written (the access counts changed). */
  readonly #written: () => void;
  readonly #queue: { ids: string[]; at: number }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `performance.now()` of the last {@link RetrievedEvents.record}. */
  #lastRecord = 0;

  constructor(db: Database, written: () => void) {
    this.#db = db;
    this.#written = written;
  }

  get pending(): boolean {
    return this.#queue.length > 0;
  }

  /** Queues the events of one recall's results at `at` (ms since the epoch). */
  record(ids: string[], at: number): void {
    this.#queue.push({ ids, at });
    this.#lastRecord = performance.now();
    // One timer at a time (not one per recall): when it fires early, it waits out the rest.
    if (this.#timer === undefined) this.#arm(RETRIEVED_FLUSH_MS);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      const quiet = performance.now() - this.#lastRecord;
      if (quiet < RETRIEVED_FLUSH_MS) this.#arm(RETRIEVED_FLUSH_MS - quiet);
      else this.flush();
    }, ms);
    (this.#timer as { unref?: () => void }).unref?.(); // never keeps Node alive
  }

  /** Writes the queued events and access counts in one transaction (best effort). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const queue = this.#queue.splice(0);
    if (queue.length === 0) return;
    const db = this.#db;
    try {
      transaction(db, 'recording retrievals', () => {
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
      });
      this.#written();
    } catch {
      // best effort: a full disk must not fail reads
    }
  }
}
