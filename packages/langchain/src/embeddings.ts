/**
 * The `Embeddings` that {@link AnamnesisVectorStore} hands LangChain. anamnesis embeds texts itself,
 * inside the engine (its model, or the TF-IDF backend), when it remembers and recalls; the engine
 * and the client expose no call that returns raw vectors. LangChain's `VectorStore` constructor
 * still requires an `Embeddings`: this one says so when called, with `UNSUPPORTED`.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { Embeddings, type EmbeddingsParams } from '@langchain/core/embeddings';

const MESSAGE =
  'anamnesis embeds texts inside the engine when it remembers and recalls; it returns no raw vectors (use similaritySearch, not embedQuery)';

/** Placeholder `Embeddings`: every call rejects with `UNSUPPORTED` (see the module note). */
export class AnamnesisEmbeddings extends Embeddings {
  constructor(params: EmbeddingsParams = {}) {
    super(params);
  }

  override embedDocuments(_documents: string[]): Promise<number[][]> {
    return Promise.reject(new AnamnesisError('UNSUPPORTED', MESSAGE));
  }

  override embedQuery(_document: string): Promise<number[]> {
    return Promise.reject(new AnamnesisError('UNSUPPORTED', MESSAGE));
  }
}
