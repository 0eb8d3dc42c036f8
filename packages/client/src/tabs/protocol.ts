import type { EngineMethod, OpenInfo } from '../api.ts';
import type { ProgressEvent } from '@anamnesis/engine';
import type { WireError } from '../wire.ts';

/**
 * Version of the tab protocol. Every message carries it as `v`; a tab ignores messages of another
 * version (two versions of an app open at once do not share a store's owner).
 */
export const PROTOCOL_VERSION = 2;

/** Messages between the tabs of one store, on BroadcastChannel `anamnesis:<name>`. */
export type TabMessage = { v: number } & TabBody;

export type TabBody =
  | { t: 'hello'; from: string }
  | { t: 'owner'; from: string; info: OpenInfo; fellBackFrom?: { code: string; message: string } }
  | { t: 'bye'; from: string }
  | {
      t: 'call';
      from: string;
      to: string;
      id: number;
      method: EngineMethod;
      args: unknown[];
      progress: boolean;
      /** A write's operation id: the owner applies it at most once. */
      op?: string;
    }
  | { t: 'progress'; to: string; id: number; event: ProgressEvent }
  | { t: 'result'; from: string; to: string; id: number; ok: true; value: unknown }
  | { t: 'result'; from: string; to: string; id: number; ok: false; error: WireError }
  | { t: 'retry'; from: string; to: string; id: number };
