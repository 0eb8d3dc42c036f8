import type { Database } from '../store/database.ts';
import type { PreparedQuery, SimilarityBackend } from './similarity.ts';
import type { VectorHit } from '../vectors/vector-index.ts';

/**
 * The similarity backend of an engine whose embedding model is still loading (the engine was given a
 * promise of an embedder): it finds nothing and gives every memory a similarity of 0, so a recall
 * runs on the lexical legs alone (and the engine marks its results `partial`). A write stores its
 * text at once and no vector: `store` deletes the vector an updated row had, so every row without
 * a vector is embedded when the model's own backend loads (see `DenseSimilarity.load`).
 */
export class LoadingSimilarity implements SimilarityBackend {
  readonly id = '';
  readonly dims = 0;
  readonly device = 'loading';
  readonly truncated = 0;

  async load(): Promise<void> {}

  async encode(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map(() => new Float32Array(0));
  }

  store(db: Database, rids: readonly number[]): void {
    db.exec({
      sql: 'DELETE FROM embeddings WHERE rid IN (SELECT value FROM json_each(?))',
      bind: [JSON.stringify(rids)],
    });
  }

  apply(): void {}

  refresh(): void {
    // nothing in memory: the model's own backend reads the store when it loads
  }

  remove(): void {}

  async query(): Promise<PreparedQuery> {
    return undefined;
  }

  search(): VectorHit[] {
    return [];
  }

  similarities(rids: readonly number[]): Map<number, number> {
    return new Map(rids.map((rid) => [rid, 0]));
  }

  vectors(rids: readonly number[]): Float32Array[] {
    return rids.map(() => new Float32Array(0));
  }

  verify(): string[] {
    return [];
  }
}
