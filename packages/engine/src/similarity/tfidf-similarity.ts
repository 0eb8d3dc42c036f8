import { AnamnesisError } from '@anamnesis/errors';
import {
  DEFAULT_MAX_FEATURES,
  DEFAULT_MIN_DF,
  isStale,
  sparseCosine,
  TfidfIndex,
  tokenizerConfig,
  type SparseVector,
  type TfidfOptions,
} from '@anamnesis/ranking';
import { sha256Hex } from '../store/content-hash.ts';
import type { Database } from '../store/database.ts';
import type { PreparedQuery, SimilarityBackend } from './similarity.ts';
import type { VectorHit } from '../vectors/vector-index.ts';

/** The model id a TF-IDF store records. */
export const TFIDF_MODEL_ID = 'tfidf';

/** Options of the zero-model TF-IDF backend. */
export interface TfidfSimilarityOptions extends Omit<TfidfOptions, 'tokenizerHash'> {
  /**
   * Refit the vocabulary and IDF when memories added, changed or removed since the last fit exceed
   * this fraction of the memories at that fit (checked at the next recall). Default 0.1.
   */
  refitRatio?: number;
}

/** The tokenizer's version recorded in every index: SHA-256 of its configuration (seed 002). */
let tokenizerHash: string | undefined;
const currentTokenizer = (): string => (tokenizerHash ??= sha256Hex(tokenizerConfig()));

const EMPTY: SparseVector = new Map();
const NO_VECTOR = new Float32Array(0);

/**
 * The zero-model backend of seed 002: TF-IDF sparse vectors in memory, no model, no stored
 * vectors (its memories' dense vectors have 0 dimensions). The vocabulary and IDF are fitted on
 * the stored texts at open (or restored from the snapshot saved at the last clean close, when it
 * matches the rows, the options and the tokenizer); later writes are indexed against that vocabulary, and the index is
 * refitted at the next recall once enough of the store changed (see `refitRatio`) or when its
 * tokenizer configuration is stale. Similarity is the sparse cosine.
 */
export class TfidfSimilarity implements SimilarityBackend {
  readonly id = TFIDF_MODEL_ID;
  readonly dims = 0;
  readonly device = 'none';
  readonly truncated = 0;
  readonly snapshotKey = 'tfidf';
  readonly #options: TfidfOptions;
  readonly #refitRatio: number;
  #db: Database | undefined;
  #index: TfidfIndex;
  /** Writes since the last fit. */
  #changes = 0;
  /** Whether the snapshot on disk holds this state (loaded from it, nothing changed since). */
  #saved = false;

  constructor(options: TfidfSimilarityOptions = {}) {
    if (!options || typeof options !== 'object')
      throw new AnamnesisError('INVALID_INPUT', 'tfidf options must be an object');
    const { refitRatio = 0.1, ...tfidf } = options;
    if (!(refitRatio >= 0 && refitRatio <= 1))
      throw new AnamnesisError('INVALID_INPUT', 'refitRatio must be in [0, 1]');
    this.#refitRatio = refitRatio;
    this.#options = { ...tfidf, tokenizerHash: currentTokenizer() };
    this.#index = TfidfIndex.build([], this.#options); // validates maxFeatures and minDf
  }

  /** Restores the snapshot saved at the last clean close when it still fits, else fits. */
  load(db: Database): Promise<void> {
    this.#db = db;
    if (!this.#restore()) this.#fit();
    return Promise.resolve();
  }

  #restore(): boolean {
    const db = this.#db!;
    const saved = db.selectValue('SELECT value FROM meta WHERE key = ?', [this.snapshotKey]);
    // Only a snapshot of this store's current backend: another model may have written since.
    const model = db.selectValue("SELECT value FROM meta WHERE key = 'model'");
    if (typeof saved !== 'string' || model !== this.id) return false;
    try {
      const { changes, index } = JSON.parse(saved) as { changes: number; index: unknown };
      const restored = TfidfIndex.fromJSON(index);
      const { maxFeatures = DEFAULT_MAX_FEATURES, minDf = DEFAULT_MIN_DF } = this.#options;
      if (
        isStale(restored, currentTokenizer()) ||
        restored.maxFeatures !== maxFeatures ||
        restored.minDf !== minDf ||
        restored.size !== Number(db.selectValue('SELECT count(*) FROM memories')) ||
        !Number.isSafeInteger(changes)
      )
        return false;
      this.#index = restored;
      this.#changes = changes;
      this.#saved = true;
      return true;
    } catch {
      return false; // an unreadable snapshot is refitted
    }
  }

  snapshot(): string | undefined {
    if (this.#saved) return undefined;
    this.#saved = true;
    return JSON.stringify({ changes: this.#changes, index: this.#index.toJSON() });
  }

  #fit(): void {
    const rows = this.#db!.selectArrays('SELECT rid, text FROM memories ORDER BY rid');
    this.#index = TfidfIndex.build(
      rows.map(([rid, text]) => ({ id: String(rid as number), text: text as string })),
      this.#options,
    );
    this.#changes = 0;
    this.#saved = false;
  }

  /** Another process changed these rows: they are indexed again from their stored texts. */
  refresh(db: Database, _reader: unknown, changed: readonly number[] | 'all'): void {
    this.#db = db;
    if (changed === 'all') {
      this.#fit();
      return;
    }
    if (changed.length === 0) return;
    const texts = new Map(
      db
        .selectArrays(
          'SELECT rid, text FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
          [JSON.stringify(changed)],
        )
        .map(([rid, text]) => [rid as number, text as string]),
    );
    for (const rid of changed) {
      this.#index.remove(String(rid));
      const text = texts.get(rid);
      if (text !== undefined) this.#index.add({ id: String(rid), text });
    }
    this.#changes += changed.length;
    this.#saved = false;
  }

  encode(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map(() => NO_VECTOR));
  }

  store(): void {
    // nothing on disk: the index is fitted on the stored texts
  }

  apply(rids: readonly number[], texts: readonly string[]): void {
    rids.forEach((rid, i) => this.#index.add({ id: String(rid), text: texts[i]! }));
    this.#changes += rids.length;
    this.#saved = false;
  }

  remove(rids: readonly number[]): void {
    for (const rid of rids) this.#index.remove(String(rid));
    this.#changes += rids.length;
    this.#saved = false;
  }

  query(text: string): Promise<PreparedQuery> {
    if (
      isStale(this.#index, currentTokenizer()) ||
      (this.#changes > 0 && this.#changes >= this.#refitRatio * this.#index.corpusSize)
    ) {
      this.#fit();
    }
    return Promise.resolve(this.#index.vectorize(text));
  }

  search(query: PreparedQuery, k: number, allowed?: ReadonlySet<number>): VectorHit[] {
    const hits = this.#index.searchVector(query as SparseVector, {
      topK: allowed ? this.#index.size : k,
    });
    const out: VectorHit[] = [];
    for (const h of hits) {
      const rid = Number(h.id);
      if (allowed && !allowed.has(rid)) continue;
      out.push({ rid, score: h.score });
      if (out.length === k) break;
    }
    return out;
  }

  similarities(rids: readonly number[], query: PreparedQuery): Map<number, number> {
    const q = query as SparseVector;
    return new Map(
      rids.map((rid) => [rid, sparseCosine(q, this.#index.vector(String(rid)) ?? EMPTY)]),
    );
  }

  /** Dense projections of the memories' sparse vectors onto the union of their terms. */
  vectors(rids: readonly number[]): Float32Array[] {
    const sparse = rids.map((rid) => this.#index.vector(String(rid)) ?? EMPTY);
    const column = new Map<string, number>();
    for (const v of sparse)
      for (const term of v.keys()) if (!column.has(term)) column.set(term, column.size);
    return sparse.map((v) => {
      const dense = new Float32Array(column.size);
      for (const [term, weight] of v) dense[column.get(term)!] = weight;
      return dense;
    });
  }

  /** Every memory is indexed, and nothing else; a TF-IDF store keeps no vectors on disk. */
  verify(db: Database): string[] {
    const problems: string[] = [];
    const rids = db.selectValues('SELECT rid FROM memories').map(Number);
    if (this.#index.size !== rids.length)
      problems.push(`tfidf index: ${this.#index.size} documents for ${rids.length} memories`);
    const missing = rids.find((rid) => !this.#index.has(String(rid)));
    if (missing !== undefined) problems.push(`tfidf index: memory ${missing} is not indexed`);
    const stored = Number(db.selectValue('SELECT count(*) FROM embeddings'));
    if (stored > 0) problems.push(`embeddings: ${stored} dense vectors in a TF-IDF store`);
    return problems;
  }
}
