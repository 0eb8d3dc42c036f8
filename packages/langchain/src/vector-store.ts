/**
 * `AnamnesisVectorStore`: LangChain's `VectorStore` contract over an anamnesis engine or client.
 * Documents are remembered as memories (text = `pageContent`, metadata → `meta`, see
 * `metadata.ts`); searches run anamnesis `recall`, which embeds the query itself and fuses its
 * lexical, vector and other legs. So it needs no LangChain `Embeddings`, and raw vectors
 * (`addVectors`, `similaritySearchVectorWithScore`) are `UNSUPPORTED`.
 */
import type {
  Memory,
  MemoryFilter,
  RecallOptions,
  RecallResult,
  RememberInput,
} from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import { Document, type DocumentInterface } from '@langchain/core/documents';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { VectorStore, type MaxMarginalRelevanceSearchOptions } from '@langchain/core/vectorstores';

import { AnamnesisEmbeddings } from './embeddings.ts';
import { toMemoryFilter, type VectorStoreFilter } from './filter.ts';
import { assertMemory, type VectorStoreMemory } from './memory.ts';
import { decodeMetadata, encodeMetadata } from './metadata.ts';

/** Recall options a store applies to every search (the store sets `topK`, `filter` and `mmr`). */
export type StoreRecallOptions = Omit<
  RecallOptions,
  'topK' | 'filter' | 'mmr' | 'explain' | 'tokenBudget' | 'groupBy' | 'neighbors'
>;

/** Configuration of {@link AnamnesisVectorStore}. */
export interface AnamnesisVectorStoreConfig {
  /** An anamnesis engine (`createEngine`) or browser client (`openMemory`). */
  memory: VectorStoreMemory;
  /** Recall options for every search: `profile`, `minSimilarity`, `recencyMode`, `noCache`. Default none. */
  recallOptions?: StoreRecallOptions;
  /**
   * The anamnesis kind of the memories this store holds. Searches, upserts and deletes see only
   * memories of this kind, so a store never reads, replaces or deletes the app's other memories
   * (notes, chat turns) held by the same engine. Default `'document'`.
   */
  kind?: string;
}

/** Options of {@link AnamnesisVectorStore.addDocuments}. */
export interface AddDocumentsOptions {
  /**
   * One id per document (else each `Document.id`, else a new time-ordered id). A document whose id
   * is already stored replaces that memory (text and metadata), as LangChain's vector stores do.
   */
  ids?: (string | undefined)[];
  /** anamnesis session of the remembered memories. Default none (or, on replace, unchanged). */
  session?: string;
  /** anamnesis tags of the remembered memories. Default none (or, on replace, unchanged). */
  tags?: string[];
}

/** Options of {@link AnamnesisVectorStore.delete}. */
export interface DeleteOptions {
  /** Delete these ids (unknown ids are ignored). */
  ids?: string[];
  /** Or delete every document this filter matches. */
  filter?: VectorStoreFilter;
}

/** `list` pages at most this many memories (the engine's limit). */
const LIST_PAGE = 10_000;

/** True for a filter whose every key is `undefined` or an empty `meta`: it selects everything. */
function setsNoCondition(filter: MemoryFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]: [string, unknown]) =>
      value === undefined ||
      (key === 'meta' &&
        value !== null &&
        typeof value === 'object' &&
        Object.values(value).every((v) => v === undefined)),
  );
}

function toDocument(memory: Memory): Document {
  return new Document({
    pageContent: memory.text,
    metadata: decodeMetadata(memory.meta),
    id: memory.id,
  });
}

/**
 * LangChain `VectorStore` over anamnesis. `similaritySearchWithScore` scores are recall's fused
 * scores (higher is better; best first); the cosine is not what orders results.
 *
 * @example
 * const store = new AnamnesisVectorStore({ memory });
 * const ids = await store.addDocuments([{ pageContent: 'Luna is a kitten', metadata: { source: 'pets.md' } }]);
 * const [[doc, score]] = await store.similaritySearchWithScore('my cat', 1, { source: 'pets.md' });
 */
export class AnamnesisVectorStore extends VectorStore {
  /** The filter type of LangChain's vector store contract. */
  declare FilterType: VectorStoreFilter;

  /** The engine or client the documents are stored in. */
  readonly memory: VectorStoreMemory;
  /** Recall options applied to every search. */
  readonly recallOptions: StoreRecallOptions;
  /** The kind of memory this store holds and acts on (see {@link AnamnesisVectorStoreConfig.kind}). */
  readonly kind: string;

  _vectorstoreType(): string {
    return 'anamnesis';
  }

  constructor(config: AnamnesisVectorStoreConfig) {
    if (config === null || typeof config !== 'object') {
      throw new AnamnesisError('INVALID_INPUT', 'AnamnesisVectorStore takes { memory }');
    }
    // Nothing of the config goes to LangChain's serialisable fields (it holds the live memory).
    super(new AnamnesisEmbeddings(), {});
    assertMemory(
      config.memory,
      ['recall', 'rememberMany', 'update', 'forget', 'list'],
      'AnamnesisVectorStore',
    );
    this.memory = config.memory;
    this.recallOptions = config.recallOptions ?? {};
    const kind = config.kind ?? 'document';
    if (typeof kind !== 'string' || kind === '') {
      throw new AnamnesisError('INVALID_INPUT', 'kind must be a non-empty string');
    }
    this.kind = kind;
  }

  /** `filter` restricted to this store's kind; `INVALID_INPUT` when it names only other kinds. */
  #scoped(filter: MemoryFilter | undefined): MemoryFilter {
    const asked = filter?.kind;
    if (asked !== undefined && !(Array.isArray(asked) ? asked : [asked]).includes(this.kind)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `this store holds memories of kind ${JSON.stringify(this.kind)} only`,
      );
    }
    return { ...filter, kind: this.kind };
  }

  /**
   * Remembers the documents and returns their ids, in order. New documents go in one transaction
   * (all or none); documents whose id exists replace those memories, one `update` each, after it.
   * The documents passed in are not changed.
   */
  override async addDocuments(
    documents: DocumentInterface[],
    options: AddDocumentsOptions = {},
  ): Promise<string[]> {
    if (!Array.isArray(documents)) {
      throw new AnamnesisError('INVALID_INPUT', 'addDocuments takes an array of documents');
    }
    const { ids, session, tags } = options ?? {};
    const kind = (options as { kind?: unknown } | undefined)?.kind;
    if (kind !== undefined && kind !== this.kind) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `this store holds memories of kind ${JSON.stringify(this.kind)}: set the kind in its config`,
      );
    }
    if (ids !== undefined && (!Array.isArray(ids) || ids.length !== documents.length)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `ids must be an array with one id per document (${documents.length})`,
      );
    }
    const inputs = documents.map((doc, i): RememberInput => {
      if (doc === null || typeof doc !== 'object') {
        throw new AnamnesisError('INVALID_INPUT', `document ${i} is not a Document`);
      }
      const id = ids?.[i] ?? doc.id;
      return {
        text: doc.pageContent,
        meta: encodeMetadata(doc.metadata),
        ...(id === undefined || id === null ? {} : { id }),
      };
    });
    const given = inputs.flatMap((input) => input.id ?? []);
    if (new Set(given).size !== given.length) {
      throw new AnamnesisError('INVALID_INPUT', 'the same id is given to two documents');
    }
    const existing = await this.#existing(given);
    const fresh = inputs.filter((input) => input.id === undefined || !existing.has(input.id));
    const freshIds = await this.memory.rememberMany(
      fresh.map((input) => ({
        ...input,
        kind: this.kind,
        ...(session === undefined ? {} : { session }),
        ...(tags === undefined ? {} : { tags }),
        // Every document is a record of its own, as in LangChain (no merge of identical texts).
        allowDuplicate: true,
      })),
    );
    for (const input of inputs) {
      if (input.id === undefined || !existing.has(input.id)) continue;
      await this.memory.update(input.id, {
        text: input.text,
        meta: input.meta ?? {},
        ...(session === undefined ? {} : { session }),
        ...(tags === undefined ? {} : { tags }),
      });
    }
    const assigned = new Map(fresh.map((input, i) => [input, freshIds[i]!]));
    return inputs.map((input) => assigned.get(input) ?? input.id!);
  }

  /**
   * The ids among `ids` that this store holds; `INVALID_INPUT` for an id held by a memory of
   * another kind (a document never replaces a memory outside the store).
   */
  async #existing(ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += LIST_PAGE) {
      const page = ids.slice(start, start + LIST_PAGE);
      const memories = await this.memory.list({ filter: { ids: page }, limit: page.length });
      for (const m of memories) {
        if (m.kind !== this.kind) {
          throw new AnamnesisError(
            'INVALID_INPUT',
            `id ${JSON.stringify(m.id)} belongs to a memory of kind ${JSON.stringify(m.kind)}, outside this store`,
          );
        }
        found.add(m.id);
      }
    }
    return found;
  }

  /**
   * `UNSUPPORTED`: anamnesis computes embeddings itself, with the engine's model (or TF-IDF), so
   * it cannot store vectors made elsewhere. Use {@link addDocuments}.
   */
  override addVectors(
    _vectors: number[][],
    _documents: DocumentInterface[],
    _options?: AddDocumentsOptions,
  ): Promise<string[]> {
    return Promise.reject(
      new AnamnesisError(
        'UNSUPPORTED',
        'AnamnesisVectorStore cannot add precomputed vectors: anamnesis embeds the texts itself (use addDocuments)',
      ),
    );
  }

  /** `UNSUPPORTED`: recall takes a text query, not a vector. Use {@link similaritySearchWithScore}. */
  override similaritySearchVectorWithScore(
    _query: number[],
    _k: number,
    _filter?: VectorStoreFilter,
  ): Promise<[DocumentInterface, number][]> {
    return Promise.reject(
      new AnamnesisError(
        'UNSUPPORTED',
        'AnamnesisVectorStore searches by text (recall embeds the query itself): use similaritySearch',
      ),
    );
  }

  async #recall(query: string, options: RecallOptions): Promise<RecallResult[]> {
    return this.memory.recall(query, { ...this.recallOptions, ...options });
  }

  /** The `k` (default 4) best documents for `query`, with recall's fused scores, best first. */
  override async similaritySearchWithScore(
    query: string,
    k = 4,
    filter?: VectorStoreFilter,
    _callbacks?: Callbacks,
  ): Promise<[DocumentInterface, number][]> {
    const results = await this.#recall(query, {
      topK: k,
      // Relevance order, whatever the profile says: diversity is maxMarginalRelevanceSearch's.
      mmr: false,
      filter: this.#scoped(toMemoryFilter(filter)),
    });
    return results.map((r) => [toDocument(r), r.score]);
  }

  /** The `k` (default 4) best documents for `query`, best first. */
  override async similaritySearch(
    query: string,
    k = 4,
    filter?: VectorStoreFilter,
    _callbacks?: Callbacks,
  ): Promise<DocumentInterface[]> {
    return (await this.similaritySearchWithScore(query, k, filter)).map(([doc]) => doc);
  }

  /**
   * Diverse results: recall with anamnesis MMR at `lambda` (0 = most diverse, 1 = pure relevance;
   * default 0.5). `fetchK` is not used: the engine sizes its own candidate pool.
   */
  override async maxMarginalRelevanceSearch(
    query: string,
    options: MaxMarginalRelevanceSearchOptions<VectorStoreFilter>,
    _callbacks?: Callbacks,
  ): Promise<DocumentInterface[]> {
    const results = await this.#recall(query, {
      topK: options?.k ?? 4,
      mmr: { lambda: options?.lambda ?? 0.5 },
      filter: this.#scoped(toMemoryFilter(options?.filter)),
    });
    return results.map(toDocument);
  }

  /**
   * Deletes documents of this store by `ids` (unknown ids, and ids of memories outside the store,
   * are ignored, as LangChain expects) or by `filter`. `INVALID_INPUT` when given neither, or a
   * filter that sets no condition (`{}`, `{ $memory: { meta: {} } }`): it would delete every
   * document.
   */
  override async delete(options?: DeleteOptions): Promise<void> {
    const { ids, filter } = options ?? {};
    if (ids === undefined && filter === undefined) {
      throw new AnamnesisError('INVALID_INPUT', 'delete needs { ids } or { filter }');
    }
    if (ids !== undefined) {
      if (!Array.isArray(ids)) throw new AnamnesisError('INVALID_INPUT', 'ids must be an array');
      if (ids.length > 0) await this.memory.forget(this.#scoped({ ids }));
    }
    if (filter !== undefined) {
      const memoryFilter = toMemoryFilter(filter);
      if (memoryFilter === undefined || setsNoCondition(memoryFilter)) {
        throw new AnamnesisError('INVALID_INPUT', 'delete needs a filter that sets a condition');
      }
      await this.memory.forget(this.#scoped(memoryFilter));
    }
  }

  /**
   * A store over `config.memory` holding `texts`, with `metadatas` (one per text, or one for all).
   * `embeddings` must be `null`/`undefined` (or an {@link AnamnesisEmbeddings}): anamnesis embeds
   * the texts itself, and another model's embeddings would silently go unused.
   */
  static override async fromTexts(
    texts: string[],
    metadatas: object[] | object,
    embeddings: EmbeddingsInterface | null | undefined,
    config: AnamnesisVectorStoreConfig,
  ): Promise<AnamnesisVectorStore> {
    if (!Array.isArray(texts)) throw new AnamnesisError('INVALID_INPUT', 'texts must be an array');
    const docs = texts.map(
      (pageContent, i) =>
        new Document({
          pageContent,
          metadata: (Array.isArray(metadatas) ? (metadatas as object[])[i] : metadatas) ?? {},
        }),
    );
    return AnamnesisVectorStore.fromDocuments(docs, embeddings, config);
  }

  /** A store over `config.memory` holding `docs`; `embeddings` as in {@link fromTexts}. */
  static override async fromDocuments(
    docs: DocumentInterface[],
    embeddings: EmbeddingsInterface | null | undefined,
    config: AnamnesisVectorStoreConfig,
  ): Promise<AnamnesisVectorStore> {
    if (
      embeddings !== null &&
      embeddings !== undefined &&
      !(embeddings instanceof AnamnesisEmbeddings)
    ) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        'anamnesis embeds texts itself: pass null instead of an Embeddings (it would not be used)',
      );
    }
    const store = new AnamnesisVectorStore(config);
    await store.addDocuments(docs);
    return store;
  }
}
