import { BloomFilter } from './bloom-filter.ts';
import { QuietSteps } from './quiet-steps.ts';
import type { Reader } from './reader.ts';
import type { Database } from './database.ts';
import { dedupKey } from './store.ts';

/** The meta key of the Bloom filter's snapshot (seed 002's byte format). */
const SNAPSHOT_KEY = 'bloom';

/** Rows added to the filter per step of a background build. */
const BUILD_STEP = 2000;

/**
 * Quiet time (ms) before a rebuild's next step: after the open, and after each call of the engine
 * (see {@link DedupIndex.postpone}), so a first recall does not queue behind the steps (at 100k
 * memories about 100 ms of hashing in all).
 */
const BUILD_IDLE_MS = 250;

/** Keys whose filter positions {@link DedupIndex} keeps between a lookup and their write. */
const PROBED_KEPT = 16_384;

/** Runs a read whose pages are read once, as the store wants such reads run. */
export type BulkRead = <T>(read: () => T) => T;

/**
 * Which texts each session holds, for "identical text in the same session returns the existing
 * id": seed 002's Bloom filter over dedup keys answers "surely not" without a read, the
 * content-hash index answers the rest. Its snapshot, saved at a clean close, spares the next open
 * a rebuild; a write that changes texts deletes it in its own transaction, so a snapshot on disk
 * always matches the rows.
 *
 * Without a snapshot (the tab was closed without `close()`), the filter is rebuilt behind the
 * open, {@link BUILD_STEP} rows per macrotask while the engine is quiet, and until it is complete every lookup asks the
 * content-hash index: the same answers, a read each, and an open that does not wait for a hash of
 * every stored text. Each step runs whole between other calls, and a write adds its keys itself,
 * so every row is in the filter once the build has passed the last row id.
 */
export class DedupIndex {
  readonly #db: Database;
  readonly #read: Reader;
  #bloom = new BloomFilter(100_000, 0.001);
  /** Whether the meta table holds a snapshot matching the rows. */
  #saved = false;
  /** The last row id the build has added, or `undefined` once the filter holds every row. */
  #cursor: number | undefined;
  /**
   * The rebuild's steps while the engine is quiet; one that throws (an unreadable page) ends it:
   * lookups keep asking the content-hash index, the store's reads report the page.
   */
  readonly #steps: QuietSteps;
  /**
   * The filter's positions of keys looked up and not found (texts new to the store), until a write
   * adds them: each new text's key is hashed once, not again when it is added (two MD5s and SHA-1s a
   * memory were 5.5 % of an ingest's time). At most {@link PROBED_KEPT}; emptied with the filter.
   */
  readonly #probed = new Map<string, readonly number[]>();
  /** The rebuild's key buffer (see {@link #keyBytes}). */
  #key = new Uint8Array(256);
  readonly #bulkRead: BulkRead;

  /**
   * @param bulkRead runs a read of many pages read once (a rebuild step's rows) so that they do not
   *   fill the store's page cache (see the engine); default: runs it as it is
   * @param busy whether a call of the engine is in flight (no step runs then); default: never
   */
  constructor(
    db: Database,
    read: Reader,
    bulkRead: BulkRead = (read) => read(),
    busy?: () => boolean,
  ) {
    this.#db = db;
    this.#read = read;
    this.#bulkRead = bulkRead;
    this.#steps = new QuietSteps(() => this.buildStep(), BUILD_IDLE_MS, busy);
  }

  /** Reads the snapshot when there is a readable one, else starts a rebuild behind the open. */
  load(count: number): void {
    this.#probed.clear();
    const saved = this.#db.selectValue('SELECT value FROM meta WHERE key = ?', [SNAPSHOT_KEY]);
    if (saved instanceof Uint8Array) {
      try {
        this.#bloom = BloomFilter.fromBytes(saved);
        this.#saved = true;
        this.#cursor = undefined;
        return;
      } catch {
        // an unreadable snapshot is rebuilt below
      }
    }
    this.#bloom = new BloomFilter(Math.max(100_000, count * 2), 0.001);
    // an empty store has nothing to build (what other processes add later comes with its change log)
    this.#cursor = count === 0 ? undefined : 0;
    if (count > 0) this.#steps.start();
  }

  /**
   * A call of the engine starts or ends: a rebuild in progress takes its next step only once the
   * engine has been quiet for {@link BUILD_IDLE_MS}.
   */
  postpone(): void {
    this.#steps.postpone();
  }

  /** Whether the filter holds every stored text (no rebuild in progress). */
  get complete(): boolean {
    return this.#cursor === undefined;
  }

  /** Adds the next rows to the filter; returns whether rows remain. */
  buildStep(rows = BUILD_STEP): boolean {
    const after = this.#cursor;
    if (after === undefined) return false;
    let last = after;
    let seen = 0;
    // The key's UTF-8 bytes straight from SQLite's memory (a TEXT column's bytes are its UTF-8), so
    // a rebuild of 100k rows makes no strings: the same bits as `add(dedupKey(session, hash))`.
    this.#bulkRead(() =>
      this.#read.each(
        'SELECT rid, session, content_hash FROM memories WHERE rid > ? ORDER BY rid LIMIT ?',
        [after, rows],
        (c) => {
          last = c.num(0);
          seen++;
          this.#bloom.add(this.#keyBytes(c.blob(1), c.blob(2)));
        },
      ),
    );
    this.#cursor = seen < rows ? undefined : last;
    return this.#cursor !== undefined;
  }

  /** The UTF-8 bytes of {@link dedupKey} from those of its parts, in a buffer reused per row. */
  #keyBytes(session: Uint8Array, hash: Uint8Array): Uint8Array {
    const n = session.length + 1 + hash.length;
    if (this.#key.length < n) this.#key = new Uint8Array(n * 2);
    this.#key.set(session, 0);
    this.#key[session.length] = 0;
    this.#key.set(hash, session.length + 1);
    return this.#key.subarray(0, n);
  }

  /** Stops a rebuild in progress (the store is closing). */
  stop(): void {
    this.#steps.stop();
  }

  /**
   * Another process changed these rows (or, with `'all'`, more than its change log names): their
   * keys join the filter (a key whose text left stays: the content-hash index answers it). With
   * `'all'` the filter is built again from the store.
   */
  refresh(changed: readonly number[] | 'all'): void {
    if (changed === 'all') {
      this.stop();
      this.#saved = false;
      this.load(Number(this.#db.selectValue('SELECT count(*) FROM memories')));
      return;
    }
    if (changed.length === 0) return;
    this.#read.each(
      'SELECT session, content_hash FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
      [JSON.stringify(changed)],
      (c) => this.#bloom.add(this.#keyBytes(c.blob(0), c.blob(1))),
    );
  }

  /** After a write commits: a text now stored (a key of {@link dedupKey}). */
  add(key: string): void {
    const positions = this.#probed.get(key);
    if (positions === undefined) {
      this.#bloom.add(key);
    } else {
      this.#probed.delete(key);
      this.#bloom.addAt(positions);
    }
  }

  /** The id of a memory with this content hash in this session, if one exists. */
  find(session: string | null, hash: string): string | undefined {
    if (this.complete) {
      const key = dedupKey(session, hash);
      const positions = this.#bloom.positions(key);
      if (!this.#bloom.hasAt(positions)) {
        if (this.#probed.size >= PROBED_KEPT) this.#probed.clear();
        this.#probed.set(key, positions);
        return undefined;
      }
    }
    return this.#db.selectValue(
      'SELECT id FROM memories WHERE content_hash = ? AND session IS ? LIMIT 1',
      [hash, session],
    ) as string | undefined;
  }

  /** Whether the snapshot on disk matches the rows (or nothing could be saved yet). */
  get snapshotCurrent(): boolean {
    return this.#saved || !this.complete;
  }

  /**
   * Inside a write transaction that adds, changes or deletes texts: deletes the snapshot (whether
   * or not this engine saved it: another process on the same file may have).
   */
  dropSnapshot(): void {
    this.#db.exec({ sql: 'DELETE FROM meta WHERE key = ?', bind: [SNAPSHOT_KEY] });
    this.#saved = false;
  }

  /**
   * Inside a transaction at close: saves the snapshot unless the one on disk is current or the
   * filter is still being rebuilt.
   * @returns whether it wrote
   */
  saveSnapshot(): boolean {
    if (this.#saved || !this.complete) return false;
    this.#db.exec({
      sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
      bind: [SNAPSHOT_KEY, this.#bloom.toBytes()],
    });
    this.#saved = true;
    return true;
  }
}
