export {
  startSync,
  type Sync,
  type SavedSyncState,
  type SyncEngine,
  type SyncOptions,
  type SyncStateStore,
  type SyncStatus,
} from './sync.ts';
export { createSyncCode, parseSyncCode } from './code.ts';
