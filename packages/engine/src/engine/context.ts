import type { Reader } from '../store/reader.ts';
import type { StorageBackend } from '../storage/backend.ts';
import type { WriteContext } from '../writes/context.ts';
import type { WritePath } from '../writes/write-path.ts';

/** What the engine's parts (this folder, the write plans) use of the {@link Engine} holding them. */
export interface EngineContext extends WriteContext {
  /** The open store. */
  readonly io: StorageBackend;
  /** The recall path's reads, on kept prepared statements. */
  readonly read: Reader;
  /** The one write path. */
  readonly writes: WritePath;
  /** True once the engine is closed. */
  closed(): boolean;
  /** True once `close` was called (closed or closing). */
  closing(): boolean;
  /** Runs a read of pages read once on the small bulk-read page cache (see `Engine`). */
  bulkRead<T>(read: () => T): T;
  /** Runs a call as a public one (refused once closing, waited for by `close`). */
  run<T>(fn: () => Promise<T>, flushRetrieved?: boolean): Promise<T>;
}
