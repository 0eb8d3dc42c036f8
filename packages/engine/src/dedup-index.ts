import { BloomFilter } from './bloom-filter.ts';
import type { Database } from './sqlite.ts';
import { dedupKey } from './store.ts';

/** The meta key of the Bloom filter's snapshot (seed 002's byte format). */
const SNAPSHOT_KEY = 'bloom';

/**
 * Which texts each session holds, for "identical text in the same session returns the existing
 * id": seed 002's Bloom filter over dedup keys answers "surely not" without a read, the
 * content-hash index answers the rest. Its snapshot, saved at a clean close, spares the next open
 * a rebuild; a write that changes texts deletes it in its own transaction, so a snapshot on disk
 * always matches the rows.
 */
export class DedupIndex {
  readonly #db: Database;
  #bloom = new BloomFilter(100_000, 0.001);
  /** Whether the meta table holds a snapshot matching the rows. */
  #saved = false;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Reads the snapshot when there is a readable one, else rebuilds from the content hashes. */
  load(count: number): void {
    const saved = this.#db.selectValue('SELECT value FROM meta WHERE key = ?', [SNAPSHOT_KEY]);
    if (saved instanceof Uint8Array) {
      try {
        this.#bloom = BloomFilter.fromBytes(saved);
        this.#saved = true;
        return;
      } catch {
        // an unreadable snapshot is rebuilt below
      }
    }
    this.#bloom = new BloomFilter(Math.max(100_000, count * 2), 0.001);
    for (const [session, hash] of this.#db.selectArrays(
      'SELECT session, content_hash FROM memories',
    )) {
      this.#bloom.add(dedupKey(session as string | null, hash as string));
    }
  }

  /** After a write commits: a text now stored (a key of {@link dedupKey}). */
  add(key: string): void {
    this.#bloom.add(key);
  }

  /** The id of a memory with this content hash in this session, if one exists. */
  find(session: string | null, hash: string): string | undefined {
    if (!this.#bloom.has(dedupKey(session, hash))) return undefined;
    return this.#db.selectValue(
      'SELECT id FROM memories WHERE content_hash = ? AND session IS ? LIMIT 1',
      [hash, session],
    ) as string | undefined;
  }

  /** Whether the snapshot on disk matches the rows. */
  get snapshotCurrent(): boolean {
    return this.#saved;
  }

  /** Inside a write transaction that adds, changes or deletes texts: deletes the snapshot. */
  dropSnapshot(): void {
    if (!this.#saved) return;
    this.#db.exec({ sql: 'DELETE FROM meta WHERE key = ?', bind: [SNAPSHOT_KEY] });
    this.#saved = false;
  }

  /**
   * Inside a transaction at close: saves the snapshot unless the one on disk is current.
   * @returns whether it wrote
   */
  saveSnapshot(): boolean {
    if (this.#saved) return false;
    this.#db.exec({
      sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
      bind: [SNAPSHOT_KEY, this.#bloom.toBytes()],
    });
    this.#saved = true;
    return true;
  }
}
