/**
 * What the parts of one running sync share (`sync.ts` makes it; `reconcile.ts`, `usage.ts` and
 * `anti-entropy.ts` use it): the engine, the room's keys, this device and its clock, the room's
 * Yjs document and its maps, and how to tell the status.
 */
import type * as Y from 'yjs';
import type { Clock } from './clock.ts';
import type { SyncKeys } from './seal.ts';
import type { SyncEngine } from './types.ts';

/** The origin of this device's own writes to the document (remote ones come from the provider). */
export const LOCAL = Symbol('local');

/** Entry of the records map that tells whether a device holds the room's key. */
export const KEY_CHECK = 'key-check';

/** The parts of one room's sync that its pieces share. */
export interface RoomContext {
  readonly engine: SyncEngine;
  readonly keys: SyncKeys;
  /** This device's id in the room. */
  readonly device: string;
  readonly clock: Clock;
  readonly doc: Y.Doc;
  /** Each device's sealed record of each memory, under `<memory's blind name>.<device>`. */
  readonly records: Y.Map<Uint8Array>;
  /** Each device's own sealed usage of each memory, under the same names as the records. */
  readonly usage: Y.Map<Uint8Array>;
  /** The room's devices, and the marks of a changed code (`devices.ts`). */
  readonly devices: Y.Map<Uint8Array>;
  /** Tells an error in the status (`error`); the sync goes on. */
  fail(error: unknown): void;
  /** Entries this device wrote (map key, `usage:`-prefixed for usage): pending until sent. */
  wrote(keys: readonly string[]): void;
}
