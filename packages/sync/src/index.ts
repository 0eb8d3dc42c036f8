export {
  startSync,
  type Cipher,
  type RecordCipher,
  type RepairKind,
  type RoomSyncStatus,
  type Sync,
  type SavedSyncState,
  type Scrypt,
  type SyncEngine,
  type SyncOptions,
  type SyncStateStore,
} from './sync.ts';
export type {
  SyncConflict,
  SyncConflictVersion,
  SyncDevice,
  SyncPlugin,
  SyncStatus,
  TrashedMemory,
} from '@anamnesis/engine';
export { createSyncCode, parseSyncCode } from './code.ts';
