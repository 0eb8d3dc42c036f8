/**
 * TF-IDF sparse backend (seed 002 §2): the zero-model retrieval backend ("tfidf").
 *
 * - Tokenizer ({@link tokenize}, built on the shared `identifiers.ts` pattern and splitting):
 *   identifiers matching `[a-zA-Z_][a-zA-Z0-9_]{2,}`; a token whose lower-case form is a stopword
 *   is dropped whole; otherwise its lower-case form is kept and, when camelCase
 *   (`([a-z])([A-Z])` → `$1_$2`) plus underscore splitting yields more than one part, each part of
 *   length >= `MIN_SUBTOKEN_LEN` (2) that is not a stopword is kept too. So `getUserById` →
 *   `getuserbyid, get, user, id` (`by` is a stopword).
 * - Augmented TF `0.5 + 0.5·count/max_count`, where max_count is over all of the text's tokens
 *   (vocabulary or not); smoothed IDF `ln((N + 1)/(df + 1)) + 1` with N = max(1, documents at
 *   build time); weight `tf·idf`. Vectors are not normalised.
 * - Vocabulary: df counts each term once per document; terms with df >= minDf are kept, capped at
 *   maxFeatures keeping the rarest (lowest df first, ties by term in ascending UTF-16 code-unit
 *   order, which makes the cap deterministic).
 * - Search: an inverted index term → (doc id → weight); the score of a document is the partial dot
 *   product over the query's terms (the query norm is omitted: it is the same for every candidate).
 *   Results are best first, ties by ascending id.
 * - Versioning: {@link tokenizerConfig} is the tokenizer configuration as text; an index records
 *   the digest of it that its builder passed (`tokenizerHash`; the engine passes its SHA-256, as
 *   seed 002 says) and {@link isStale} compares it with the current one. A stale index still
 *   answers, but its owner should rebuild it.
 *
 * Sparse vectors are `Map`s, not plain objects, because identifiers such as `constructor` or
 * `__proto__` are valid terms.
 */

import { AnamnesisError, assertArray, assertNonNegativeInt } from '@anamnesis/errors';
import {
  IDENTIFIER_PATTERN,
  MIN_SUBTOKEN_LEN,
  identifierTokens,
  splitIdentifier,
} from './identifiers.ts';
import type { SparseVector } from './sparse-vector.ts';
import { STOPWORDS } from './stopwords.ts';

/** Default cap on the vocabulary size, in terms. */
export const DEFAULT_MAX_FEATURES = 10_000;

/** Default minimum document frequency of a vocabulary term, in documents. */
export const DEFAULT_MIN_DF = 1;

/** Default number of search results. */
export const DEFAULT_TFIDF_TOP_K = 20;

/** Identifier of the persisted form produced by {@link TfidfIndex.toJSON}. */
export const TFIDF_FORMAT = 'anamnesis.tfidf';

/** True when camelCase / snake_case splitting yields more than one (raw) part. */
const SPLITS_RE = /_|[a-z][A-Z]/;

/** A document to index. */
export interface TfidfDocument {
  /** Unique id of the document (e.g. a memory id). */
  readonly id: string;
  /** Its text. */
  readonly text: string;
}

/** Options of {@link TfidfIndex.build}. */
export interface TfidfOptions {
  /** Maximum vocabulary size in terms, an integer >= 1; the rarest terms are kept. Default 10,000. */
  readonly maxFeatures?: number;
  /** Minimum number of documents a term must appear in, an integer >= 1. Default 1. */
  readonly minDf?: number;
  /**
   * The version of the tokenizer to record in the index, a digest of {@link tokenizerConfig}
   * (the engine passes its SHA-256). Default `''`: unversioned.
   */
  readonly tokenizerHash?: string;
}

/** Options of {@link TfidfIndex.search}. */
export interface TfidfSearchOptions {
  /** Maximum number of results, a non-negative integer. Default 20. */
  readonly topK?: number;
}

/** One search result. */
export interface TfidfHit {
  /** Document id. */
  readonly id: string;
  /** Partial dot product of the query vector and the document vector (> 0). */
  readonly score: number;
}

/** The persisted form of a {@link TfidfIndex}; plain JSON. */
export interface TfidfIndexJSON {
  readonly format: typeof TFIDF_FORMAT;
  readonly version: 1;
  /** The `tokenizerHash` the index was built with. */
  readonly tokenizerHash: string;
  readonly maxFeatures: number;
  readonly minDf: number;
  /** N of the IDF formula: max(1, number of documents at build time). */
  readonly corpusSize: number;
  /** [term, df] pairs, rarest first (the capping order). */
  readonly vocabulary: readonly (readonly [string, number])[];
  /** [id, [[term, weight], ...]] per document, in insertion order. */
  readonly documents: readonly (readonly [string, readonly (readonly [string, number])[]])[];
}

function assertString(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a string, got ${typeof value}`);
  }
}

function assertPositiveInt(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be an integer >= 1, got ${String(value)}`,
    );
  }
}

/**
 * Tokens of `text` in order of appearance, with repetitions (see the module docs for the rules).
 * @throws AnamnesisError `INVALID_INPUT` when `text` is not a string.
 */
export function tokenize(text: string): string[] {
  assertString(text, 'text');
  const out: string[] = [];
  for (const token of identifierTokens(text)) {
    const lower = token.toLowerCase();
    if (STOPWORDS.has(lower)) continue;
    out.push(lower);
    if (SPLITS_RE.test(token)) {
      for (const part of splitIdentifier(token)) if (!STOPWORDS.has(part)) out.push(part);
    }
  }
  return out;
}

/**
 * The tokenizer configuration as text, the three lines `stopwords:<sorted stopwords joined by
 * ",">`, `pattern:<IDENTIFIER_PATTERN source>` and `min_subtoken_len:<MIN_SUBTOKEN_LEN>` joined by
 * `"\n"`. It changes whenever the tokenizer does; seed 002 versions an index by its SHA-256.
 */
export function tokenizerConfig(): string {
  return [
    `stopwords:${[...STOPWORDS].sort().join(',')}`,
    `pattern:${IDENTIFIER_PATTERN.source}`,
    `min_subtoken_len:${MIN_SUBTOKEN_LEN}`,
  ].join('\n');
}

/**
 * True when `index` was built with another tokenizer configuration and should be rebuilt.
 * @param currentHash the digest of {@link tokenizerConfig} that new indexes record
 */
export function isStale(index: { readonly tokenizerHash: string }, currentHash: string): boolean {
  return index.tokenizerHash !== currentHash;
}

/** Smoothed IDF `ln((N + 1) / (df + 1)) + 1`. */
export function smoothedIdf(corpusSize: number, df: number): number {
  return Math.log((corpusSize + 1) / (df + 1)) + 1;
}

function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function invalidJson(message: string): AnamnesisError {
  return new AnamnesisError('INVALID_INPUT', `TF-IDF index JSON: ${message}`);
}

/**
 * An immutable-vocabulary TF-IDF index. {@link TfidfIndex.build} fits the vocabulary and IDF on a
 * corpus; {@link TfidfIndex.add} and {@link TfidfIndex.remove} then update the documents cheaply
 * against that frozen vocabulary (new terms are ignored and IDF is not refitted — rebuild to refit,
 * e.g. when {@link TfidfIndex.size} has drifted far from {@link TfidfIndex.corpusSize}).
 */
export class TfidfIndex {
  /** The digest of {@link tokenizerConfig} this index was built with (see {@link isStale}). */
  readonly tokenizerHash: string;
  /** Vocabulary cap this index was built with. */
  readonly maxFeatures: number;
  /** Minimum document frequency this index was built with. */
  readonly minDf: number;
  /** N of the IDF formula: max(1, number of documents at build time). */
  readonly corpusSize: number;

  readonly #df: Map<string, number>;
  readonly #idf: Map<string, number>;
  readonly #docs = new Map<string, Map<string, number>>();
  readonly #postings = new Map<string, Map<string, number>>();

  private constructor(
    tokenizerHash: string,
    maxFeatures: number,
    minDf: number,
    corpusSize: number,
    df: Map<string, number>,
  ) {
    this.tokenizerHash = tokenizerHash;
    this.maxFeatures = maxFeatures;
    this.minDf = minDf;
    this.corpusSize = corpusSize;
    this.#df = df;
    this.#idf = new Map();
    for (const [term, n] of df) this.#idf.set(term, smoothedIdf(corpusSize, n));
  }

  /**
   * Fits the vocabulary and IDF on `docs` and indexes them.
   * @throws AnamnesisError `INVALID_INPUT` for a non-array, a document without string id and text,
   *   a duplicate id, or bad options.
   */
  static build(docs: readonly TfidfDocument[], options: TfidfOptions = {}): TfidfIndex {
    assertArray(docs, 'docs');
    const maxFeatures = options.maxFeatures ?? DEFAULT_MAX_FEATURES;
    const minDf = options.minDf ?? DEFAULT_MIN_DF;
    assertPositiveInt(maxFeatures, 'maxFeatures');
    assertPositiveInt(minDf, 'minDf');

    const seen = new Set<string>();
    const tokenized: string[][] = [];
    const df = new Map<string, number>();
    for (const doc of docs) {
      if (typeof doc !== 'object' || doc === null) {
        throw new AnamnesisError('INVALID_INPUT', 'each document must be an object {id, text}');
      }
      assertString(doc.id, 'document id');
      assertString(doc.text, `text of document ${doc.id}`);
      if (seen.has(doc.id)) {
        throw new AnamnesisError('INVALID_INPUT', `duplicate document id ${doc.id}`);
      }
      seen.add(doc.id);
      const tokens = tokenize(doc.text);
      tokenized.push(tokens);
      for (const term of new Set(tokens)) df.set(term, (df.get(term) ?? 0) + 1);
    }

    const kept = [...df].filter(([, n]) => n >= minDf);
    kept.sort((a, b) => a[1] - b[1] || compareTerms(a[0], b[0]));
    const vocabulary = new Map(kept.slice(0, maxFeatures));

    const index = new TfidfIndex(
      options.tokenizerHash ?? '',
      maxFeatures,
      minDf,
      Math.max(1, docs.length),
      vocabulary,
    );
    docs.forEach((doc, i) => index.#insert(doc.id, index.#weigh(tokenized[i]!)));
    return index;
  }

  /**
   * Restores an index from {@link TfidfIndex.toJSON} output (a parsed object). A different
   * tokenizer hash is accepted — check {@link isStale} and rebuild.
   * @throws AnamnesisError `INVALID_INPUT` when the value is not a well-formed persisted index.
   */
  static fromJSON(json: unknown): TfidfIndex {
    if (typeof json !== 'object' || json === null) throw invalidJson('not an object');
    const j = json as Record<string, unknown>;
    if (j['format'] !== TFIDF_FORMAT) throw invalidJson(`format is not ${TFIDF_FORMAT}`);
    if (j['version'] !== 1) throw invalidJson(`unsupported version ${String(j['version'])}`);
    if (typeof j['tokenizerHash'] !== 'string') throw invalidJson('tokenizerHash missing');
    const { maxFeatures, minDf, corpusSize } = j;
    assertPositiveInt(maxFeatures, 'maxFeatures');
    assertPositiveInt(minDf, 'minDf');
    assertPositiveInt(corpusSize, 'corpusSize');
    if (!Array.isArray(j['vocabulary'])) throw invalidJson('vocabulary is not an array');
    if (!Array.isArray(j['documents'])) throw invalidJson('documents is not an array');

    const df = new Map<string, number>();
    for (const entry of j['vocabulary'] as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') {
        throw invalidJson('a vocabulary entry is not [term, df]');
      }
      const n: unknown = entry[1];
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > corpusSize) {
        throw invalidJson(`df of ${entry[0]} is not an integer within [1, corpusSize]`);
      }
      if (df.has(entry[0])) throw invalidJson(`duplicate term ${entry[0]}`);
      df.set(entry[0], n);
    }
    const index = new TfidfIndex(j['tokenizerHash'], maxFeatures, minDf, corpusSize, df);
    for (const entry of j['documents'] as unknown[]) {
      if (
        !Array.isArray(entry) ||
        entry.length !== 2 ||
        typeof entry[0] !== 'string' ||
        !Array.isArray(entry[1])
      ) {
        throw invalidJson('a document entry is not [id, [[term, weight], ...]]');
      }
      const id = entry[0];
      if (index.#docs.has(id)) throw invalidJson(`duplicate document id ${id}`);
      const vector = new Map<string, number>();
      for (const pair of entry[1] as unknown[]) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
          throw invalidJson(`a term of document ${id} is not [term, weight]`);
        }
        const w: unknown = pair[1];
        if (typeof w !== 'number' || !Number.isFinite(w) || w <= 0) {
          throw invalidJson(`weight of ${pair[0]} in document ${id} is not a positive number`);
        }
        if (!df.has(pair[0])) throw invalidJson(`term ${pair[0]} is not in the vocabulary`);
        vector.set(pair[0], w);
      }
      index.#insert(id, vector);
    }
    return index;
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.#docs.size;
  }

  /** Number of vocabulary terms. */
  get vocabularySize(): number {
    return this.#df.size;
  }

  /** Vocabulary terms, rarest first. */
  vocabulary(): string[] {
    return [...this.#df.keys()];
  }

  /** Document frequency of `term` at build time, or undefined when it is not in the vocabulary. */
  documentFrequency(term: string): number | undefined {
    return this.#df.get(term);
  }

  /** IDF of `term`, or undefined when it is not in the vocabulary. */
  idf(term: string): number | undefined {
    return this.#idf.get(term);
  }

  /** The whole IDF table (term → idf), read-only; e.g. the `idf` option of `compress`. */
  idfTable(): ReadonlyMap<string, number> {
    return this.#idf;
  }

  /** True when a document with this id is indexed. */
  has(id: string): boolean {
    return this.#docs.has(id);
  }

  /** The stored vector of document `id`, or undefined. */
  vector(id: string): SparseVector | undefined {
    return this.#docs.get(id);
  }

  /**
   * The TF-IDF vector of `text` over this vocabulary (out-of-vocabulary terms are ignored but still
   * count towards max_count).
   */
  vectorize(text: string): Map<string, number> {
    return this.#weigh(tokenize(text));
  }

  /**
   * Indexes (or re-indexes, replacing the old vector) one document against the frozen vocabulary.
   * @throws AnamnesisError `INVALID_INPUT` when id or text is not a string.
   */
  add(doc: TfidfDocument): void {
    if (typeof doc !== 'object' || doc === null) {
      throw new AnamnesisError('INVALID_INPUT', 'document must be an object {id, text}');
    }
    assertString(doc.id, 'document id');
    assertString(doc.text, `text of document ${doc.id}`);
    const vector = this.vectorize(doc.text);
    this.remove(doc.id);
    this.#insert(doc.id, vector);
  }

  /** Removes document `id`; returns whether it was indexed. */
  remove(id: string): boolean {
    const vector = this.#docs.get(id);
    if (vector === undefined) return false;
    this.#docs.delete(id);
    for (const term of vector.keys()) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      posting.delete(id);
      if (posting.size === 0) this.#postings.delete(term);
    }
    return true;
  }

  /**
   * Documents sharing at least one vocabulary term with `query`, by descending partial dot product
   * (ties by ascending id), at most `topK`.
   * @throws AnamnesisError `INVALID_INPUT` when `query` is not a string or `topK` is not a
   *   non-negative integer.
   */
  search(query: string, options: TfidfSearchOptions = {}): TfidfHit[] {
    return this.searchVector(this.vectorize(query), options);
  }

  /**
   * {@link TfidfIndex.search} for a query already vectorised by {@link TfidfIndex.vectorize}.
   * @throws AnamnesisError `INVALID_INPUT` when `topK` is not a non-negative integer.
   */
  searchVector(q: SparseVector, options: TfidfSearchOptions = {}): TfidfHit[] {
    const topK = options.topK ?? DEFAULT_TFIDF_TOP_K;
    assertNonNegativeInt(topK, 'topK');
    if (topK === 0 || q.size === 0) return [];
    const scores = new Map<string, number>();
    for (const [term, qw] of q) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      for (const [id, dw] of posting) scores.set(id, (scores.get(id) ?? 0) + qw * dw);
    }
    const hits: TfidfHit[] = [];
    for (const [id, score] of scores) hits.push({ id, score });
    hits.sort((a, b) => b.score - a.score || compareTerms(a.id, b.id));
    return hits.slice(0, topK);
  }

  /** The persisted form (plain JSON; `JSON.stringify` it). */
  toJSON(): TfidfIndexJSON {
    return {
      format: TFIDF_FORMAT,
      version: 1,
      tokenizerHash: this.tokenizerHash,
      maxFeatures: this.maxFeatures,
      minDf: this.minDf,
      corpusSize: this.corpusSize,
      vocabulary: [...this.#df],
      documents: [...this.#docs].map(([id, v]) => [id, [...v]] as const),
    };
  }

  #weigh(tokens: readonly string[]): Map<string, number> {
    const vector = new Map<string, number>();
    if (tokens.length === 0) return vector;
    const counts = new Map<string, number>();
    let max = 0;
    for (const t of tokens) {
      const c = (counts.get(t) ?? 0) + 1;
      counts.set(t, c);
      if (c > max) max = c;
    }
    for (const [term, count] of counts) {
      const idf = this.#idf.get(term);
      if (idf !== undefined) vector.set(term, (0.5 + 0.5 * (count / max)) * idf);
    }
    return vector;
  }

  #insert(id: string, vector: Map<string, number>): void {
    this.#docs.set(id, vector);
    for (const [term, weight] of vector) {
      let posting = this.#postings.get(term);
      if (posting === undefined) {
        posting = new Map();
        this.#postings.set(term, posting);
      }
      posting.set(id, weight);
    }
  }
}
