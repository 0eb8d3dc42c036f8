export { AnamnesisError, ERROR_CODES, isAnamnesisError, type ErrorCode } from '@anamnesis/errors';
export {
  createEngine,
  defaultEmbedderOptions,
  Engine,
  type EngineOptions,
  type ListOptions,
  type ModelState,
  type OpenTimings,
  type RememberManyOptions,
  type StorageKind,
  type UsageEvent,
  type WriteMethod,
  WRITE_METHODS,
} from './engine.ts';
export type { StorageOpenSteps } from './storage/backend.ts';
export {
  createTransformersEmbedder,
  type DeviceSelection,
  type Embedder,
  type EmbedderDevice,
  type ProgressEvent,
  type TransformersEmbedderOptions,
} from './embedder.ts';
export { createModelEmbedder } from './model-embedder.ts';
export { createStaticEmbedder, isStaticModel, STATIC_MODEL_KIND } from './static-embedder.ts';
export type { ExportOptions, ImportOptions } from './jsonl.ts';
export { recoverStore, type RecoverResult } from './recover.ts';
export { DEFAULT_PRIORS, DEFAULT_PROFILE, ENGINE_PROFILES, resolveProfile } from './profiles.ts';
export {
  recoverOpfsStore,
  type OpfsRecoverOptions,
  type OpfsRecoverResult,
} from './storage/opfs.ts';
export { SCHEMA_VERSION } from './schema.ts';
export { loadSqlite } from './sqlite.ts';
export { TFIDF_MODEL_ID, type TfidfSimilarityOptions } from './tfidf-similarity.ts';
export { VectorIndex, unitVector, type VectorHit } from './vector-index.ts';
export type { ForgetAll } from './filter.ts';
export { MAX_LINKS, MAX_META_CHARS, MAX_META_KEYS } from './validate.ts';
export type { PreparedQuery, SimilarityBackend } from './similarity.ts';
export type {
  ChangeKind,
  Compression,
  EngineStats,
  Explain,
  ExtraList,
  LinkInput,
  Memory,
  MemoryFilter,
  MetaValue,
  RecallOptions,
  RecallResult,
  RememberInput,
  StoreChange,
  UpdateInput,
} from './types.ts';
