import { ENGINE_ARITY, isEngineMethod, type EngineMethod, type OpenInfo } from '../api.ts';
import type { ProgressEvent, StoreChange } from '@anamnesis/engine';
import type { WireError } from '../wire.ts';

/**
 * Version of the tab protocol. Every message carries it as `v`; a tab ignores messages of another
 * version (two versions of an app open at once do not share a store's owner).
 */
export const PROTOCOL_VERSION = 3;

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
  | { t: 'retry'; from: string; to: string; id: number }
  /** The owner's store committed a change (see `MemoryClient.subscribe`). */
  | { t: 'change'; from: string; change: StoreChange };

/** The kinds of {@link StoreChange} a tab passes on. */
const CHANGE_KINDS: ReadonlySet<unknown> = new Set<StoreChange['kind']>([
  'remember',
  'update',
  'forget',
  'link',
  'unlink',
  'usage',
  'import',
  'model',
]);

function isStoreChange(value: unknown): value is StoreChange {
  return (
    isObject(value) &&
    CHANGE_KINDS.has(value.kind) &&
    Array.isArray(value.ids) &&
    value.ids.every((id) => typeof id === 'string') &&
    typeof value.generation === 'number' &&
    Number.isSafeInteger(value.generation) &&
    value.generation >= 0
  );
}

/**
 * A call to this owner, well addressed (`from`, `to`, `id` as they should be) but asking for what
 * a follower never forwards (a method off the allowlist, arguments not an array of at most the
 * method's parameter count, a bad `progress` or `op`): the owner answers it with `error`.
 */
export interface RefusedCall {
  t: 'refused';
  from: string;
  to: string;
  id: number;
  code: 'UNSUPPORTED' | 'INVALID_INPUT';
  reason: string;
}

type Fields = Record<string, unknown>;

/** Tab ids are `crypto.randomUUID()`s (or a shorter fallback); operation ids the same. */
const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 128;
/** Call ids count up from 1 in each tab. */
const isCallId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function isOpenInfo(value: unknown): value is OpenInfo {
  return (
    isObject(value) &&
    typeof value.device === 'string' &&
    typeof value.backend === 'string' &&
    isObject(value.model) &&
    typeof value.model.id === 'string' &&
    typeof value.model.dims === 'number'
  );
}

function isWireError(value: unknown): value is WireError {
  return isObject(value) && typeof value.name === 'string' && typeof value.message === 'string';
}

/**
 * Checks a BroadcastChannel message against the protocol: this version, a known message type,
 * and every field of the type and shape its type says. A call must name a method a follower
 * forwards (an own key of `ENGINE_METHODS`: never `close`, `once` or a prototype member) with an
 * array of at most its parameter count as `args`; a well-addressed call that does not is a
 * {@link RefusedCall}. Anything else is `undefined`: ignored.
 */
export function parseTabMessage(data: unknown): TabMessage | RefusedCall | undefined {
  if (!isObject(data) || data.v !== PROTOCOL_VERSION) return undefined;
  const m = data;
  const v = PROTOCOL_VERSION;
  switch (m.t) {
    case 'hello':
    case 'bye':
      return isId(m.from) ? { v, t: m.t, from: m.from } : undefined;
    case 'owner': {
      if (!isId(m.from) || !isOpenInfo(m.info)) return undefined;
      const fell = m.fellBackFrom;
      if (fell === undefined) return { v, t: 'owner', from: m.from, info: m.info };
      if (!isObject(fell) || typeof fell.code !== 'string' || typeof fell.message !== 'string')
        return undefined;
      return {
        v,
        t: 'owner',
        from: m.from,
        info: m.info,
        fellBackFrom: { code: fell.code, message: fell.message },
      };
    }
    case 'call': {
      if (!isId(m.from) || !isId(m.to) || !isCallId(m.id)) return undefined;
      const refuse = (code: RefusedCall['code'], reason: string): RefusedCall => ({
        t: 'refused',
        from: m.from as string,
        to: m.to as string,
        id: m.id as number,
        code,
        reason,
      });
      if (!isEngineMethod(m.method))
        return refuse('UNSUPPORTED', `${describe(m.method)} is not a method a tab forwards`);
      if (!Array.isArray(m.args) || m.args.length > ENGINE_ARITY[m.method])
        return refuse('INVALID_INPUT', `${m.method}: args must be an array of its arguments`);
      if (typeof m.progress !== 'boolean')
        return refuse('INVALID_INPUT', `${m.method}: progress must be a boolean`);
      if (m.op !== undefined && !isId(m.op))
        return refuse('INVALID_INPUT', `${m.method}: op must be an operation id`);
      return {
        v,
        t: 'call',
        from: m.from,
        to: m.to,
        id: m.id,
        method: m.method,
        args: m.args as unknown[],
        progress: m.progress,
        ...(m.op !== undefined ? { op: m.op } : {}),
      };
    }
    case 'progress':
      if (!isId(m.to) || !isCallId(m.id) || !isObject(m.event)) return undefined;
      return { v, t: 'progress', to: m.to, id: m.id, event: m.event as unknown as ProgressEvent };
    case 'result': {
      if (!isId(m.from) || !isId(m.to) || !isCallId(m.id)) return undefined;
      const base = { v, t: 'result' as const, from: m.from, to: m.to, id: m.id };
      if (m.ok === true) return { ...base, ok: true, value: m.value };
      if (m.ok === false && isWireError(m.error)) return { ...base, ok: false, error: m.error };
      return undefined;
    }
    case 'retry':
      if (!isId(m.from) || !isId(m.to) || !isCallId(m.id)) return undefined;
      return { v, t: 'retry', from: m.from, to: m.to, id: m.id };
    case 'change': {
      if (!isId(m.from) || !isStoreChange(m.change)) return undefined;
      const { kind, ids, generation } = m.change;
      return { v, t: 'change', from: m.from, change: { kind, ids: [...ids], generation } };
    }
    default:
      return undefined;
  }
}

/** A method name as an error message may show it. */
function describe(method: unknown): string {
  return typeof method === 'string' ? JSON.stringify(method.slice(0, 64)) : typeof method;
}
