/**
 * `AnamnesisRetriever`: anamnesis `recall` as a LangChain retriever. `invoke(query)` returns the
 * recalled memories as `Document`s, best first, so it drops into any chain that takes a retriever.
 */
import type { Explain, MemoryFilter, RecallOptions, RecallResult } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { fenceLine, fenceText } from '@anamnesis/ranking';
import { Document, type DocumentInterface } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';

import { fenceValue } from './fence.ts';
import { assertMemory, type RecallMemory } from './memory.ts';
import { decodeMetadata } from './metadata.ts';

/** The metadata of each `Document` the retriever returns. */
export type RecalledMetadata = {
  /** The memory's id (also the `Document`'s `id`). */
  id: string;
  /** The fused recall score the documents are ordered by (higher is better). */
  score: number;
  /** Cosine similarity between the query and the memory, in [-1, 1]. */
  similarity: number;
  /** The memory's kind. */
  kind: string;
  /** Its tags. */
  tags: string[];
  /** Its session, or `null`. */
  session: string | null;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
  /** The memory's own metadata (what `AnamnesisVectorStore` stored is decoded back). */
  meta: Record<string, unknown>;
  /** Each leg's rank and score and each component's contribution; only with `explain: true`. */
  explain?: Explain;
};

/** Options of {@link AnamnesisRetriever}. */
export interface AnamnesisRetrieverInput extends BaseRetrieverInput {
  /** An anamnesis engine (`createEngine`) or browser client (`openMemory`). */
  memory: RecallMemory;
  /** Documents per query (recall's `topK`), an integer in [1, 1000]. Default 4, as LangChain's retrievers. */
  k?: number;
  /** anamnesis filter applied inside every recall leg (tags, kind, session, time, meta, ids). Default none. */
  filter?: MemoryFilter;
  /** Put recall's `explain` object in each document's metadata. Default false. */
  explain?: boolean;
  /**
   * Fence each memory as data, as `memoryBlock` does for the other adapters: `pageContent` is the
   * memory's text as one JSON-quoted line (every kind of line break escaped as `\n`, control
   * characters and the characters no reader sees, every default-ignorable and format code point
   * such as Unicode tag characters, zero-width characters and bidi controls, removed), so that a
   * chain pasting documents into a prompt never shows the model a new line, a role or hidden text
   * from a memory (`JSON.parse(pageContent)` reads the text back). The strings of `metadata` (id,
   * kind, session, tags, the memory's own metadata, keys and values) and the document's `id` are
   * cleaned the same way, unquoted: no control or invisible character, line breaks `\n`. `false`:
   * the stored text and metadata as they are. Default true.
   */
  fence?: boolean;
  /**
   * Any other recall option: `profile`, `tokenBudget` (replaces `k`), `minSimilarity`, `mmr`,
   * `groupBy`, `neighbors`, `recencyMode`… Default none (the engine's defaults).
   */
  recallOptions?: Omit<RecallOptions, 'topK' | 'filter' | 'explain'>;
}

/** Turns one recall result into a `Document` (metadata: see {@link RecalledMetadata}). */
function toRecalledDocument(
  result: RecallResult,
  explain: boolean,
  fence: boolean,
): DocumentInterface<RecalledMetadata> {
  // unfenced, each string as stored
  const shown = fence ? fenceLine : (s: string) => s;
  const meta = decodeMetadata(result.meta);
  const metadata: RecalledMetadata = {
    id: shown(result.id),
    score: result.score,
    similarity: result.similarity,
    kind: shown(result.kind),
    tags: result.tags.map((tag) => shown(tag)),
    session: result.session === null ? null : shown(result.session),
    createdAt: result.createdAt,
    meta: fence ? (fenceValue(meta) as Record<string, unknown>) : meta,
  };
  if (explain && result.explain) metadata.explain = result.explain;
  const pageContent = fence ? fenceText(result.text) : result.text;
  return new Document({ pageContent, metadata, id: metadata.id });
}

/**
 * A LangChain retriever over anamnesis: `invoke(query)` runs `recall(query)` on the engine or
 * client and returns `Document`s (text as `pageContent`, fenced as one JSON-quoted line unless
 * `fence: false`; id, score, tags, session, created time, the memory's metadata (their strings
 * fenced too) and, with `explain: true`, the explain object in `metadata`), best first.
 *
 * @example
 * const retriever = new AnamnesisRetriever({ memory, k: 3 });
 * const docs = await retriever.invoke('my cat');
 */
export class AnamnesisRetriever extends BaseRetriever<RecalledMetadata> {
  static override lc_name(): string {
    return 'AnamnesisRetriever';
  }

  override lc_namespace = ['anamnesis', 'retrievers'];

  /** The engine or client recalled from. */
  readonly memory: RecallMemory;
  /** Documents per query. */
  readonly k: number;
  /** The filter applied inside every leg, if any. */
  readonly filter: MemoryFilter | undefined;
  /** Whether documents carry recall's `explain`. */
  readonly explain: boolean;
  /** Whether `pageContent` is fenced as data (see {@link AnamnesisRetrieverInput.fence}). */
  readonly fence: boolean;
  /** The other recall options. */
  readonly recallOptions: Omit<RecallOptions, 'topK' | 'filter' | 'explain'>;

  constructor(fields: AnamnesisRetrieverInput) {
    if (fields === null || typeof fields !== 'object') {
      throw new AnamnesisError('INVALID_INPUT', 'AnamnesisRetriever takes an options object');
    }
    const { memory, k, filter, explain, fence, recallOptions, ...base } = fields;
    // Only LangChain's own fields go to the base class (it keeps them for serialisation).
    super(base);
    assertMemory(memory, ['recall'], 'AnamnesisRetriever');
    const topK = k ?? 4;
    if (!Number.isInteger(topK) || topK < 1 || topK > 1000) {
      throw new AnamnesisError('INVALID_INPUT', `k must be an integer in [1, 1000], got ${k}`);
    }
    this.memory = memory;
    this.k = topK;
    this.filter = filter;
    this.explain = explain === true;
    if (fence !== undefined && typeof fence !== 'boolean')
      throw new AnamnesisError('INVALID_INPUT', 'fence must be a boolean');
    this.fence = fence ?? true;
    this.recallOptions = recallOptions ?? {};
  }

  override async _getRelevantDocuments(
    query: string,
  ): Promise<DocumentInterface<RecalledMetadata>[]> {
    const results = await this.memory.recall(query, {
      ...this.recallOptions,
      topK: this.k,
      ...(this.filter === undefined ? {} : { filter: this.filter }),
      ...(this.explain ? { explain: true } : {}),
    });
    return results.map((r) => toRecalledDocument(r, this.explain, this.fence));
  }
}
