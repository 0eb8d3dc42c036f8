export { AnamnesisError, ERROR_CODES, isAnamnesisError, type ErrorCode } from '@anamnesis/errors';
export {
  createEngine,
  defaultEmbedderOptions,
  Engine,
  type DeviceUsage,
  type EngineOptions,
  type ListOptions,
  type ModelState,
  type OpenTimings,
  type RememberManyOptions,
  type StorageKind,
  type StoreAbout,
  type UsageEvent,
  type WriteMethod,
  WRITE_METHODS,
} from './engine.ts';
export type { StorageOpenSteps } from './storage/backend.ts';
export type { EncryptionOptions } from './storage/encryption.ts';
export type {
  DeviceSelection,
  Embedder,
  EmbedderDevice,
  ProgressEvent,
  TransformersEmbedderOptions,
} from './embedding/embedder.ts';
export { createTransformersEmbedder } from './embedding/transformers-embedder.ts';
export { createModelEmbedder } from './embedding/model-embedder.ts';
export {
  createStaticEmbedder,
  isStaticModel,
  STATIC_MODEL_KIND,
} from './embedding/static-embedder.ts';
export type { ExportOptions, ImportOptions } from './io/jsonl.ts';
export type { BackupResult } from './storage/backup.ts';
export { recoverStore, type RecoverResult } from './io/recover.ts';
export {
  DEFAULT_PRIORS,
  DEFAULT_PROFILE,
  ENGINE_PROFILES,
  resolveProfile,
} from './recall/profiles.ts';
export { WEAK_MATCH } from './recall/match.ts';
export { DEFAULT_MIN_MATCH } from './recall/recall-options.ts';
export { warmUpQueryReading } from './recall/query/warm-up.ts';
export {
  deleteOpfsStore,
  recoverOpfsStore,
  type OpfsRecoverOptions,
  type OpfsRecoverResult,
} from './storage/opfs.ts';
export { DEFAULT_STORE_PATH, defaultStorePath } from './storage/store-path.ts';
export { SCHEMA_VERSION } from './store/schema.ts';
export { loadSqlite } from './store/sqlite.ts';
export { TFIDF_MODEL_ID, type TfidfSimilarityOptions } from './similarity/tfidf-similarity.ts';
export { VectorIndex, unitVector, type RowSource, type VectorHit } from './vectors/vector-index.ts';
export type { ForgetAll } from './input/filter.ts';
export {
  DEFAULT_AUGMENT_LIMIT,
  DEFAULT_AUGMENT_TOKEN_BUDGET,
  DEFAULT_HISTORY_TURNS,
  HISTORY_WEIGHT,
  type AugmentDebug,
  type AugmentInput,
  type AugmentResult,
  type ChatTurn,
} from './chat/augment.ts';
export {
  LEARN_SOURCE,
  MAX_LEARNED,
  type ExtractorInput,
  type ExtractorOperation,
  type LearnedFact,
  type LearnInput,
  type LearnResult,
} from './chat/learn.ts';
export { MAX_LINKS, MAX_META_CHARS, MAX_META_KEYS } from './input/validate.ts';
export type { PreparedQuery, SimilarityBackend } from './similarity/similarity.ts';
export type {
  ChangeKind,
  Compression,
  EngineStats,
  Explain,
  HistoryEntry,
  ExtraList,
  LinkInput,
  Memory,
  MemoryFilter,
  MetaValue,
  QueryReading,
  RecallOptions,
  RecallResult,
  RecallStage,
  RecallStageTimes,
  RememberInput,
  StoreChange,
  StoreSync,
  SyncPlace,
  SyncPlugin,
  SyncConflict,
  SyncConflictVersion,
  SyncDevice,
  SyncStatus,
  TrashedMemory,
  UpdateInput,
} from './types.ts';
