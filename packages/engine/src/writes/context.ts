import type { DedupIndex } from '../store/dedup-index.ts';
import type { Database } from '../store/database.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';

/** What the write plans read of the engine that runs them. */
export interface WriteContext {
  /** The store's database. */
  readonly db: Database;
  /** The Bloom filter over (session, content hash): duplicates are found through it. */
  readonly dedup: DedupIndex;
  /** The similarity backend now in use (it changes once a promised model is ready). */
  similarity(): SimilarityBackend;
  /** The engine's clock, in ms since the epoch. */
  now(): number;
  /** Longest accepted text, in characters. */
  readonly maxText: number;
  /**
   * Inside a write transaction that adds, changes or deletes texts: drops the snapshots it makes
   * stale (the Bloom filter's, the similarity backend's).
   */
  dropSnapshots(): void;
}
