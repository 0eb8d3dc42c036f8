import type { ProgressEvent } from '../embedding/embedder.ts';
import type { Database } from '../store/database.ts';
import type { Reader } from '../store/reader.ts';
import type { VectorHit } from '../vectors/vector-index.ts';

/**
 * The similarity half of the engine: how memories and queries become comparable. Two kinds exist:
 * dense vectors from an embedding model (`DenseSimilarity`) and the zero-model TF-IDF backend
 * (`TfidfSimilarity`), whose memories have 0-dimensional dense vectors and sparse ones in memory.
 *
 * A write goes through three steps: `encode` before the transaction (it may be slow), `store`
 * inside it, `apply` after it commits, so in-memory state never runs ahead of the store.
 */
export interface SimilarityBackend {
  /** Recorded in the store (`meta.model`); opening a store with another id needs a re-embed. */
  readonly id: string;
  /** Dense vector dimension (0 for TF-IDF). */
  readonly dims: number;
  /** Where it runs: `'webgpu'`, `'wasm'`, `'cpu'` or `'none'`. */
  readonly device: string;
  /** Texts truncated to the model's maximum length so far. */
  readonly truncated: number;
  /** Bytes of the in-memory index (vectors and what finds them), where the backend can tell. */
  readonly bytes?: number;
  /**
   * Builds the in-memory state of the stored memories, after the engine checked the model: reads
   * vectors (and embeds the memories that have none) or fits the TF-IDF vocabulary.
   */
  load(db: Database, reader: OpenReader, onProgress?: (e: ProgressEvent) => void): Promise<void>;
  /**
   * Another process changed the store: the in-memory state of these rows (by rid) is read again
   * from the store, or all of it with `'all'` (the change log no longer reaches back far enough).
   * Absent: the backend keeps nothing another process could change.
   */
  refresh?(db: Database, reader: OpenReader, changed: readonly number[] | 'all'): void;
  /** Vectors for texts, computed before a write transaction. */
  encode(texts: readonly string[]): Promise<Float32Array[]>;
  /** Inside a write transaction: saves the vectors of new or changed rows. */
  store(db: Database, rids: readonly number[], vectors: readonly Float32Array[]): void;
  /** After the transaction commits: the rows' texts and vectors join the in-memory index. */
  apply(rids: readonly number[], texts: readonly string[], vectors: readonly Float32Array[]): void;
  /** After a delete commits. */
  remove(rids: readonly number[]): void;
  /** The model's nearest words to a lower-case word (see `Embedder.neighbours`); absent: none. */
  neighbours?(word: string): readonly string[];
  /** Whether a lower-case word is a real word of the model's vocabulary (see `Embedder.knows`); absent: unknown. */
  knows?(word: string): boolean;
  /** The languages the model was trained on (see `Embedder.languages`); absent: English. */
  readonly languages?: readonly string[];
  /** Prepares a query for {@link search} and {@link similarities}. */
  query(text: string): Promise<PreparedQuery>;
  /** The k memories most similar to the query, best first; only `allowed` ones when given. */
  search(query: PreparedQuery, k: number, allowed?: ReadonlySet<number>): VectorHit[];
  /** Cosine similarity of each memory with the query (0 for one without a vector). */
  similarities(rids: readonly number[], query: PreparedQuery): Map<number, number>;
  /** The memories that have a vector (row ids, in no order), where the backend keeps them in memory. */
  rids?(): Int32Array;
  /** Mutually comparable vectors of these memories (for MMR): cosines equal the backend's similarity. */
  vectors(rids: readonly number[]): Float32Array[];
  /** Problems found comparing the rows, the stored vectors and the in-memory index (empty: ok). */
  verify(db: Database, read: Reader): string[];
  /**
   * The meta key of a snapshot of the backend's in-memory state, saved by the engine at a clean close
   * and deleted by it in any write transaction that changes texts, so a snapshot on disk always
   * matches the rows. `load` reads it. Absent: the backend keeps no snapshot.
   */
  readonly snapshotKey?: string;
  /** The snapshot to save at close, or undefined when the one on disk is current. */
  snapshot?(): string | undefined;
  /**
   * Whether enough vectors wait outside the snapshot parts of the stored vectors for one part to
   * be written behind the writes (see `vector-snapshot.ts`). Absent: the backend keeps no parts.
   */
  vectorPartsDue?(): boolean;
  /**
   * Inside a transaction: writes the next snapshot part of the stored vectors (with `partial`, a
   * last part that is not full too, as at a clean close); returns whether it wrote one.
   */
  saveVectorPart?(db: Database, read: Reader, partial: boolean): boolean;
  /**
   * Reads the next part of what `load` left on disk to be read later (the float32 rows of the
   * stored vectors, whose int8 copy the open read: `VectorIndex.appendQuantized`); returns
   * whether some remains. The engine calls it between its calls, while it is quiet. Absent:
   * `load` reads everything.
   */
  loadStep?(): boolean;
  /** Releases what the backend owns. */
  dispose?(): Promise<void>;
}

/** Opens a {@link Reader} on the store keeping up to `capacity` statements (`StorageBackend.reader`). */
export type OpenReader = (capacity?: number) => Reader;

/** A prepared query, opaque to the pipeline: each backend reads only its own. */
export type PreparedQuery = unknown;
