/**
 * `@anamnesis/client`: anamnesis in the browser. `openMemory()` runs the engine in a dedicated
 * module worker behind Comlink, on OPFS, with one owner tab per store; the Vite plugin that serves
 * the model and runtime files is `@anamnesis/client/vite`.
 */
export { AnamnesisError, ERROR_CODES, isAnamnesisError, type ErrorCode } from '@anamnesis/errors';
export {
  connectMemory,
  openMemory,
  deleteMemory,
  recoverMemory,
  type MemoryClient,
  type MemoryApi,
  type RecoverMemoryOptions,
} from './memory.ts';
export {
  liveRecall,
  type LiveRecall,
  type LiveSource,
  type LiveUpdate,
  type MemoryChange,
} from './live.ts';
export { type AssetUrls, type MemoryState, type OpenMemoryOptions, type Role } from './options.ts';
export {
  ENGINE_METHODS,
  type ClientDevice,
  type ClientStorage,
  type EngineApi,
  type EngineMethod,
  type MemoryInfo,
  type MemoryStats,
  type OpenInfo,
  type ReadyPart,
} from './api.ts';
export {
  clearSettings,
  loadSettings,
  saveSettings,
  type SettingsOptions,
  type UiSettings,
} from './settings.ts';
export type {
  ChangeKind,
  EngineStats,
  Explain,
  LinkInput,
  ListOptions,
  Memory,
  MemoryFilter,
  OpenTimings,
  OpfsRecoverResult,
  ProgressEvent,
  QueryReading,
  RecallOptions,
  RecallResult,
  RecallStage,
  RecallStageTimes,
  RememberInput,
  StoreChange,
  UpdateInput,
} from '@anamnesis/engine';
