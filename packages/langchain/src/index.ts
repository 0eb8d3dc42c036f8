/**
 * `@anamnesis/langchain`: anamnesis for LangChain.js. {@link AnamnesisRetriever} is `recall` as a
 * retriever; {@link AnamnesisVectorStore} is LangChain's vector store contract over the same engine
 * or browser client; {@link AnamnesisChatMemory} is a chat that remembers (`augment` and `learn`).
 */
export {
  AnamnesisChatMemory,
  type AnamnesisChatMemoryOptions,
  type ChatLoopMemory,
} from './chat-memory.ts';
export { AnamnesisEmbeddings } from './embeddings.ts';
export { toMemoryFilter, type VectorStoreFilter } from './filter.ts';
export type { RecallMemory, VectorStoreMemory } from './memory.ts';
export { decodeMetadata, encodeMetadata, EXTRA_KEY } from './metadata.ts';
export {
  AnamnesisRetriever,
  type AnamnesisRetrieverInput,
  type RecalledMetadata,
} from './retriever.ts';
export {
  AnamnesisVectorStore,
  type AddDocumentsOptions,
  type AnamnesisVectorStoreConfig,
  type DeleteOptions,
  type StoreRecallOptions,
} from './vector-store.ts';
