import type { Embedder, ProgressEvent } from '../embedding/embedder.ts';
import type { Database } from '../store/database.ts';
import { transaction } from '../store/sqlite.ts';
import { writeVectors } from '../store/store.ts';
import type { Columns, Reader } from '../store/reader.ts';
import type { OpenReader, PreparedQuery, SimilarityBackend } from './similarity.ts';
import {
  unitVector,
  VectorIndex,
  type RowSource,
  type VectorHit,
} from '../vectors/vector-index.ts';
import {
  checkSnapshot,
  partRows,
  readSnapshot,
  snapshotCoverage,
  writeSnapshotPart,
} from '../vectors/vector-snapshot.ts';

/** Rows embedded per transaction while a store re-embeds. */
const REEMBED_BATCH = 256;
/** Query vectors kept by text (see {@link DenseSimilarity.query}). */
const QUERY_CACHE = 64;

/**
 * Reads the stored vectors of `rids` (by rid; `visit` gets a view of SQLite's memory): one range
 * read where the rids lie close together (a part's worth of a snapshot's rows), else a lookup each.
 */
function readStored(
  read: Reader,
  model: string,
  rids: readonly number[],
  visit: (rid: number, bytes: Uint8Array) => void,
): void {
  if (rids.length === 0) return;
  let lo = Infinity;
  let hi = -Infinity;
  for (const rid of rids) {
    lo = Math.min(lo, rid);
    hi = Math.max(hi, rid);
  }
  const visitRow = (c: Columns) => visit(c.num(0), c.blob(1));
  // `all`, not `each`: at most as many rows as rids, and better-sqlite3 reads rows one at a time
  // several times slower than all at once
  if (hi - lo < 2 * rids.length)
    read.all(
      'SELECT rid, vector FROM embeddings WHERE model = ? AND rid BETWEEN ? AND ?',
      [model, lo, hi],
      visitRow,
    );
  else
    read.all(
      'SELECT rid, vector FROM embeddings WHERE model = ? AND rid IN (SELECT value FROM json_each(?))',
      [model, JSON.stringify(rids)],
      visitRow,
    );
}

/**
 * Dense vectors from an embedding model: stored as float32 blobs in `embeddings` (one model per
 * store), also in large parts (`vector-snapshot.ts`) that an open reads instead of the rows, and
 * scanned in memory by {@link VectorIndex}.
 */
export class DenseSimilarity implements SimilarityBackend {
  readonly embedder: Embedder;
  #index: VectorIndex;
  /** The greatest rid the snapshot parts on disk hold, as far as this backend knows (0: none). */
  #covered = 0;
  /** Vectors in the index that no part holds yet (an estimate: the parts' SQL decides). */
  #waiting = 0;
  /** Whether the parts on disk were found not to match the rows (the next part write restarts them). */
  #partsBad = false;
  /** Vectors of the latest distinct query texts, least recently used first. */
  readonly #queries = new Map<string, Float32Array>();

  constructor(embedder: Embedder) {
    this.embedder = embedder;
    this.#index = new VectorIndex(embedder.dims);
  }

  get id(): string {
    return this.embedder.id;
  }
  get dims(): number {
    return this.embedder.dims;
  }
  get device(): string {
    return this.embedder.device;
  }
  get truncated(): number {
    return this.embedder.truncated;
  }
  get bytes(): number {
    return this.#index.bytes;
  }

  /**
   * Bulk-loads this model's vectors (the snapshot parts, then the rows after them), then embeds
   * the memories that have none.
   */
  async load(
    db: Database,
    reader: OpenReader,
    onProgress?: (e: ProgressEvent) => void,
  ): Promise<void> {
    const count = this.#loadStored(db, reader);
    if (this.#index.size < count) await this.#reembedMissing(db, onProgress);
  }

  /**
   * Reads this model's stored vectors into a new index (the snapshot parts, then the rows after
   * them); returns the memories counted. Room for every stored vector at once (no doubling while
   * loading); the rows no part holds are read by one statement, blobs copied straight into the
   * matrix.
   */
  #loadStored(db: Database, reader: OpenReader): number {
    const count = Number(db.selectValue('SELECT count(*) FROM memories'));
    const read = reader(2);
    this.#index = new VectorIndex(this.dims);
    try {
      this.#index.reserve(count);
      let covered = 0;
      if (snapshotCoverage(db, this.id).covered > 0) {
        covered = readSnapshot(read, this.#index, this.id, this.#rowSource(reader)) ?? -1;
        // a part that does not read back as written: the rows alone are trusted
        if (covered < 0) covered = this.#startOverFromRows(count);
      }
      const fromParts = this.#index.size;
      this.#readRows(read, covered);
      if (this.#index.size > count) {
        // more vectors than memories: parts that do not match the rows; read the rows alone
        covered = this.#startOverFromRows(count);
        this.#readRows(read, 0);
      }
      this.#covered = covered;
      this.#waiting = this.#index.size - (covered > 0 ? fromParts : 0);
    } finally {
      read.close();
    }
    return count;
  }

  /**
   * Where the index reads the float32 rows an open left on disk (it keeps their int8 copy): a
   * reader of its own per read, so a read comes between the engine's calls or inside one.
   */
  #rowSource(reader: OpenReader): RowSource {
    return (rids, put) => {
      const read = reader(1);
      try {
        readStored(read, this.id, rids, put);
      } finally {
        read.close();
      }
    };
  }

  /**
   * Reads the next float32 rows the open left on disk (about a snapshot part's worth, one read);
   * returns whether some remain.
   */
  loadStep(): boolean {
    return this.#index.fillStep(partRows(this.dims));
  }

  /**
   * Another process changed these rows (or, with `'all'`, more than the change log still names):
   * their stored vectors replace the index's, a row without one leaves it, and what the snapshot
   * parts hold is read again from the table (the other process may have written or dropped parts).
   */
  refresh(db: Database, reader: OpenReader, changed: readonly number[] | 'all'): void {
    if (changed === 'all') {
      this.#loadStored(db, reader);
      return;
    }
    if (changed.length === 0) return;
    const read = reader(1);
    const stored = new Map<number, Uint8Array>();
    try {
      readStored(read, this.id, changed, (rid, bytes) => void stored.set(rid, bytes.slice()));
    } finally {
      read.close();
    }
    for (const rid of changed) {
      this.#index.delete(rid);
      const bytes = stored.get(rid);
      if (bytes) this.#index.appendRaw(rid, bytes);
    }
    const [covered, inParts] = db.selectArray(
      'SELECT coalesce(max(last_rid), 0), coalesce(sum(n_rows), 0) FROM vector_snapshot WHERE model = ?',
      [this.id],
    ) as [number, number];
    this.#covered = covered;
    this.#waiting = Math.max(0, this.#index.size - inParts);
  }

  /**
   * Empties the index (room for `count` vectors) and marks the parts on disk as not to be trusted,
   * so the next part write restarts them. Returns the rid the rows are then read after: 0.
   */
  #startOverFromRows(count: number): 0 {
    this.#partsBad = true;
    this.#index = new VectorIndex(this.dims);
    this.#index.reserve(count);
    return 0;
  }

  /** Appends the stored vectors of rids after `after` to the index. */
  #readRows(read: Reader, after: number): void {
    read.each(
      'SELECT rid, vector FROM embeddings WHERE model = ? AND rid > ?',
      [this.id, after],
      (c) => this.#index.appendRaw(c.num(0), c.blob(1)),
    );
  }

  /** Whether a full snapshot part's worth of vectors waits outside the parts. */
  vectorPartsDue(): boolean {
    return this.#waiting >= partRows(this.dims);
  }

  /** Inside a transaction: writes the next snapshot part (see {@link writeSnapshotPart}). */
  saveVectorPart(db: Database, read: Reader, partial: boolean): boolean {
    const covered = writeSnapshotPart(db, read, this.id, this.dims, {
      partial,
      restart: this.#partsBad,
    });
    if (covered === undefined) {
      this.#waiting = 0;
      return false;
    }
    this.#partsBad = false;
    this.#waiting = Math.max(0, this.#waiting - partRows(this.dims));
    this.#covered = covered;
    return true;
  }

  /**
   * Embeds every memory without a vector for this model, in batches, each batch one transaction;
   * another model's vectors stay until this one's are complete.
   */
  async #reembedMissing(db: Database, onProgress?: (e: ProgressEvent) => void): Promise<void> {
    const total = Number(
      db.selectValue(
        'SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.rid = m.rid AND e.model = ?)',
        [this.id],
      ),
    );
    let done = 0;
    for (;;) {
      const rows = db.selectArrays(
        'SELECT rid, text FROM memories m WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.rid = m.rid AND e.model = ?) ORDER BY rid LIMIT ?',
        [this.id, REEMBED_BATCH],
      );
      if (rows.length === 0) break;
      const rids = rows.map((r) => r[0] as number);
      const vectors = await this.encode(rows.map((r) => r[1] as string));
      transaction(db, 're-embedding', () => this.store(db, rids, vectors));
      this.apply(rids, [], vectors);
      done += rows.length;
      onProgress?.({ phase: 'reembed', loaded: done, total });
    }
  }

  /** Unit-length vectors, as they are stored and scanned. */
  async encode(texts: readonly string[]): Promise<Float32Array[]> {
    return (await this.embedder.embed(texts)).map(unitVector);
  }

  /** Writes the vectors' bytes as they are (an import keeps its stored bytes). */
  store(db: Database, rids: readonly number[], vectors: readonly Float32Array[]): void {
    writeVectors(db, this.id, rids, vectors);
  }

  apply(
    rids: readonly number[],
    _texts: readonly string[],
    vectors: readonly Float32Array[],
  ): void {
    // A vector at or below the parts' last rid made the triggers delete every part.
    if (rids.some((rid) => rid <= this.#covered)) this.#dropParts();
    rids.forEach((rid, i) => this.#index.set(rid, vectors[i]!));
    this.#waiting += rids.length;
  }

  remove(rids: readonly number[]): void {
    for (const rid of rids) this.#index.delete(rid);
    if (rids.length > 0) this.#dropParts(); // the delete trigger deleted every part
  }

  /** The parts on disk are gone: every vector waits. */
  #dropParts(): void {
    this.#covered = 0;
    this.#waiting = this.#index.size;
  }

  /** The model's nearest words to `word` (the expansion leg's; none without a static model). */
  neighbours(word: string): readonly string[] {
    return this.embedder.neighbours?.(word) ?? [];
  }

  /** The languages the model was trained on (see `Embedder.languages`). */
  get languages(): readonly string[] | undefined {
    return this.embedder.languages;
  }

  /** Whether the model knows `word` as a word of its vocabulary. */
  knows(word: string): boolean {
    return this.embedder.knows?.(word) ?? false;
  }

  /**
   * The query's vector. The last {@link QUERY_CACHE} distinct texts keep theirs: a write drops the
   * engine's cached results but not what a text embeds to, so the same query asked again after a
   * write (search as you type while notes are saved) skips the model.
   */
  async query(text: string): Promise<PreparedQuery> {
    const kept = this.#queries.get(text);
    if (kept) {
      this.#queries.delete(text);
      this.#queries.set(text, kept);
      return kept;
    }
    const [vector] = await this.embedder.embed([text]);
    this.#queries.set(text, vector!);
    if (this.#queries.size > QUERY_CACHE) this.#queries.delete(this.#queries.keys().next().value!);
    return vector!;
  }

  search(query: PreparedQuery, k: number, allowed?: ReadonlySet<number>): VectorHit[] {
    return this.#index.search(query as Float32Array, k, allowed);
  }

  similarities(rids: readonly number[], query: PreparedQuery): Map<number, number> {
    return this.#index.similarities(rids, query as Float32Array);
  }

  rids(): Int32Array {
    return this.#index.rids();
  }

  vectors(rids: readonly number[]): Float32Array[] {
    const zero = new Float32Array(this.dims);
    return this.#index.getMany(rids).map((v) => v ?? zero);
  }

  /**
   * Every memory has exactly one vector of this model, on disk and in the index; the snapshot
   * parts hold exactly the stored vectors they name.
   */
  verify(db: Database, read: Reader): string[] {
    const problems = checkSnapshot(read, this.id);
    const rows = Number(db.selectValue('SELECT count(*) FROM memories'));
    const stored = Number(
      db.selectValue('SELECT count(*) FROM embeddings WHERE model = ?', [this.id]),
    );
    if (stored !== rows) problems.push(`embeddings: ${stored} stored vectors for ${rows} memories`);
    if (this.#index.size !== rows)
      problems.push(`vector index: ${this.#index.size} vectors for ${rows} memories`);
    for (const [rid] of db.selectArrays('SELECT rid FROM memories')) {
      if (!this.#index.has(rid as number)) {
        problems.push(`vector index: memory ${rid as number} has no vector`);
        break;
      }
    }
    return problems;
  }

  async dispose(): Promise<void> {
    await this.embedder.dispose?.();
  }
}
