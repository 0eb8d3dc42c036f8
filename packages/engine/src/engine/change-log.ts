import type { Database } from '../store/database.ts';

/** Changed rows at most that a catch-up refreshes one by one; past it, everything is reloaded. */
const MAX_REFRESHED_ROWS = 5000;

/**
 * Where this engine is in the store's change log: the table `changes`, which triggers fill with
 * the rid of every row whose text, session or stored vector was written, deleted or changed, in
 * commit order (schema migration 6). When another process committed (`PRAGMA data_version`), the
 * engine asks {@link ChangeLog.since} which rows changed and refreshes what it keeps of them in
 * memory (the vector index or TF-IDF index, the Bloom filter). The log keeps about its last
 * 10,000 entries; an engine further behind than that, or with more than
 * {@link MAX_REFRESHED_ROWS} rows to refresh, reloads everything instead (`'all'`).
 */
export class ChangeLog {
  /** The sequence number of the last entry this engine has caught up with. */
  #cursor: number;

  /** Starts at the end of the log (read before the engine loads what it keeps in memory). */
  constructor(db: Database) {
    this.#cursor = ChangeLog.#end(db);
  }

  /** The sequence number of the log's last entry (0 for none yet). */
  static #end(db: Database): number {
    return Number(db.selectValue("SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0);
  }

  /** The rids changed since the last call (distinct, ascending), or `'all'`. */
  since(db: Database): number[] | 'all' {
    const from = this.#cursor;
    const end = ChangeLog.#end(db);
    this.#cursor = end;
    if (end <= from) return end === from ? [] : 'all';
    const first = db.selectValue('SELECT min(seq) FROM changes WHERE seq > ?', [from]);
    if (first !== from + 1 || end - from > 4 * MAX_REFRESHED_ROWS) return 'all';
    const rids = db
      .selectValues('SELECT DISTINCT rid FROM changes WHERE seq > ? AND seq <= ? ORDER BY rid', [
        from,
        end,
      ])
      .map(Number);
    return rids.length > MAX_REFRESHED_ROWS ? 'all' : rids;
  }

  /**
   * Inside a write transaction, after its changes: where the log ends now. The returned function,
   * called once the transaction has committed, moves the cursor there, so this engine does not
   * refresh its own changes (the catch-up at the start of the transaction took in every other
   * process's).
   */
  mark(db: Database): () => void {
    const end = ChangeLog.#end(db);
    return () => {
      this.#cursor = Math.max(this.#cursor, end);
    };
  }
}
