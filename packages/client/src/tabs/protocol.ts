import { ENGINE_ARITY, isEngineMethod, type EngineMethod, type OpenInfo } from '../api.ts';
import type { ProgressEvent, StoreChange } from '@anamnesis/engine';
import type { WireError } from '../wire.ts';

/**
 * Version of the tab protocol. Every message carries it as `v`; a tab serves and follows only
 * tabs of its own version (two versions of an app open at once cannot share a store's owner), but
 * from version 4 on every tab reads the few messages that say another version holds the store
 * ({@link parseOtherVersion}), so that a tab opened beside an owner of another version (an app
 * update) is told at once, with `VERSION_MISMATCH`, rather than waiting for an owner that never
 * answers it.
 */
export const PROTOCOL_VERSION = 4;

/**
 * Versions before 4, whose tabs ignore every message of another version: a tab that finds the
 * store's lock held sends a hello in each of them too, so that an owner of one of them announces
 * itself (in its own version) and the tab knows it cannot open here.
 */
export const LEGACY_VERSIONS: readonly number[] = [1, 2, 3];

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
  | { t: 'change'; from: string; change: StoreChange }
  /**
   * The owner's answer to a hello of another version: "the owner of this store speaks version
   * `v`". Its shape is fixed for every version from 4 on ({@link parseOtherVersion}).
   */
  | { t: 'version'; from: string; role: 'owner' };

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

/** A message of a tab of another protocol version, as {@link parseOtherVersion} reads it. */
export interface OtherVersion {
  /** Its protocol version. */
  version: number;
  /** Its tab id. */
  from: string;
  /** `'owner'`: the store's owner announcing itself; `'hello'`: a tab looking for the owner. */
  kind: 'owner' | 'hello';
}

/**
 * A message from a tab of another protocol version, read the same way by every version from 4 on
 * (whatever else changes between versions, these shapes do not): an owner's announcement
 * (`{ v, t: 'owner', from }`, as every version has sent it, or `{ v, t: 'version', from, role:
 * 'owner' }`) or a hello (`{ v, t: 'hello', from }`). `undefined` for a message of this version
 * (`parseTabMessage`'s) and anything else.
 */
export function parseOtherVersion(data: unknown): OtherVersion | undefined {
  if (!isObject(data) || data.v === PROTOCOL_VERSION || !isId(data.from)) return undefined;
  const version = data.v;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
    return undefined;
  if (data.t === 'owner' || (data.t === 'version' && data.role === 'owner'))
    return { version, from: data.from, kind: 'owner' };
  if (data.t === 'hello') return { version, from: data.from, kind: 'hello' };
  return undefined;
}

/** A method name as an error message may show it. */
function describe(method: unknown): string {
  return typeof method === 'string' ? JSON.stringify(method.slice(0, 64)) : typeof method;
}
