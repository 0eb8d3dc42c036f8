import type { Embedder, ProgressEvent } from './embedder.ts';
import { transaction, type Database, type Sqlite3 } from './sqlite.ts';
import { writeVectors } from './store.ts';
import { Reader } from './reader.ts';
import type { PreparedQuery, SimilarityBackend } from './similarity.ts';
import { unitVector, VectorIndex, type VectorHit } from './vector-index.ts';

/** Rows embedded per transaction while a store re-embeds. */
const REEMBED_BATCH = 256;
/** Query vectors kept by text (see {@link DenseSimilarity.query}). */
const QUERY_CACHE = 64;

/**
 * Dense vectors from an embedding model: stored as float32 blobs in `embeddings` (one model per
 * store), scanned in memory by {@link VectorIndex}.
 */
export class DenseSimilarity implements SimilarityBackend {
  readonly embedder: Embedder;
  readonly #index: VectorIndex;
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

  /** Bulk-loads this model's vectors, then embeds the memories that have none. */
  async load(
    db: Database,
    sqlite3: Sqlite3,
    onProgress?: (e: ProgressEvent) => void,
  ): Promise<void> {
    // Room for every stored vector at once (no doubling while loading), then one statement read
    // through SQLite's raw column functions, blobs copied straight from the wasm heap into the
    // matrix (about six times faster than the `oo1` step and `capi` wrappers per row).
    const count = Number(db.selectValue('SELECT count(*) FROM memories'));
    this.#index.reserve(count);
    const read = new Reader(db, sqlite3, 1);
    try {
      read.each('SELECT rid, vector FROM embeddings WHERE model = ?', [this.id], (c) =>
        this.#index.appendRaw(c.num(0), c.blob(1)),
      );
    } finally {
      read.close();
    }
    if (this.#index.size < count) await this.#reembedMissing(db, onProgress);
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
      rids.forEach((rid, i) => this.#index.set(rid, vectors[i]!));
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
    rids.forEach((rid, i) => this.#index.set(rid, vectors[i]!));
  }

  remove(rids: readonly number[]): void {
    for (const rid of rids) this.#index.delete(rid);
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

  vectors(rids: readonly number[]): Float32Array[] {
    const zero = new Float32Array(this.dims);
    return rids.map((rid) => this.#index.get(rid) ?? zero);
  }

  /** Every memory has exactly one vector of this model, on disk and in the index. */
  verify(db: Database): string[] {
    const problems: string[] = [];
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
