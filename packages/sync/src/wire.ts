/**
 * A record as it travels: JSON, with its per-part stamps packed (`PackedFields`), sealed by
 * `seal.ts`; and read back, checked, from another device.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { isStamp, ZERO, type Stamp } from './clock.ts';
import { canonical, type FieldStamps, type SyncedMemory, type SyncRecord } from './records.ts';
import { SCALARS, stampFields } from './merge.ts';

/**
 * `FieldStamps` as a record carries them: a stamp equal to the record's own (`at`) is written
 * `0`, and a tag added at `at` and never removed is `0` (a new memory's stamps are all its
 * record's), so a record is about as small as one without stamps.
 */
type Packed<T> = T extends Stamp
  ? Stamp | 0
  : T extends [Stamp, Stamp]
    ? [Stamp | 0, Stamp] | 0
    : never;
export interface PackedFields {
  text: Packed<Stamp>;
  textBase: Stamp;
  kind: Packed<Stamp>;
  session: Packed<Stamp>;
  importance: Packed<Stamp>;
  links: Packed<Stamp>;
  tags: Record<string, Packed<[Stamp, Stamp]>>;
  meta: Record<string, Packed<Stamp>>;
}

/**
 * `fields` of a record stamped `at`, packed (see {@link PackedFields}); `1` when every part of
 * `memory` changed at `at` and nothing else was ever set (a new memory's record).
 */
export function packFields(fields: FieldStamps, at: Stamp, memory: SyncedMemory): PackedFields | 1 {
  const p = (s: Stamp) => (s === at ? 0 : s);
  if (canonical(fields) === canonical(stampFields(memory, undefined, at))) return 1;
  return {
    text: p(fields.text),
    textBase: fields.textBase,
    kind: p(fields.kind),
    session: p(fields.session),
    importance: p(fields.importance),
    links: p(fields.links),
    tags: Object.fromEntries(
      Object.entries(fields.tags).map(([t, [a, r]]) => [t, a === at && r === ZERO ? 0 : [p(a), r]]),
    ),
    meta: Object.fromEntries(Object.entries(fields.meta).map(([k, s]) => [k, p(s)])),
  };
}

/**
 * The `FieldStamps` of packed ones from a record stamped `at` of `memory`; undefined when
 * malformed.
 */
export function unpackFields(
  value: unknown,
  at: Stamp,
  memory: SyncedMemory | undefined,
): FieldStamps | undefined {
  const u = (s: unknown) => (s === 0 ? at : s);
  if (value === 1 && memory && Array.isArray(memory.tags) && memory.meta)
    return stampFields(memory, undefined, at);
  if (!value || typeof value !== 'object') return undefined;
  const f = value as Record<string, unknown>;
  const tags = f.tags as Record<string, unknown> | undefined;
  const meta = f.meta as Record<string, unknown> | undefined;
  if (!tags || typeof tags !== 'object' || !meta || typeof meta !== 'object') return undefined;
  const fields = {
    text: u(f.text),
    textBase: f.textBase,
    kind: u(f.kind),
    session: u(f.session),
    importance: u(f.importance),
    links: u(f.links),
    tags: Object.fromEntries(
      Object.entries(tags).map(([t, v]) => [
        t,
        v === 0 ? [at, ZERO] : Array.isArray(v) ? [u(v[0]), v[1]] : v,
      ]),
    ),
    meta: Object.fromEntries(Object.entries(meta).map(([k, s]) => [k, u(s)])),
  };
  return isFields(fields) ? fields : undefined;
}

/** Whether `value` is a well-formed `FieldStamps` (checked before use: it came from a device). */
function isFields(value: unknown): value is FieldStamps {
  const isStampish = (s: unknown) => s === ZERO || isStamp(s);
  if (!value || typeof value !== 'object') return false;
  const f = value as Record<string, unknown>;
  if (![...SCALARS, 'textBase'].every((k) => isStampish(f[k]))) return false;
  const tags = f.tags as Record<string, unknown>;
  const meta = f.meta as Record<string, unknown>;
  return (
    !!tags &&
    typeof tags === 'object' &&
    Object.values(tags).every((t) => Array.isArray(t) && t.length === 2 && t.every(isStampish)) &&
    !!meta &&
    typeof meta === 'object' &&
    Object.values(meta).every(isStampish)
  );
}

/** A record as it is sealed: JSON, its stamps packed. */
export function recordBytes(record: SyncRecord): Uint8Array {
  const { fields, ...rest } = record;
  return utf8ToBytes(
    JSON.stringify(
      fields && record.memory
        ? { ...rest, fields: packFields(fields, record.at, record.memory) }
        : rest,
    ),
  );
}

/** A record's JSON, checked: `SYNC_TAMPERED` if it is not one (it authenticated, so a bug or a hostile peer). */
export function parseRecord(bytes: Uint8Array, key: string): SyncRecord {
  let r: SyncRecord;
  try {
    r = JSON.parse(new TextDecoder().decode(bytes)) as SyncRecord;
  } catch (cause) {
    throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${key} is not JSON`, {
      cause,
      details: { key },
    });
  }
  if (r && r.fields !== undefined) {
    const fields = unpackFields(r.fields, r.at, r.memory);
    if (fields) r.fields = fields;
    else
      throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${key} has malformed stamps`, {
        details: { key },
      });
  }
  // a tombstone may keep the memory's last state (the trash) until it is purged
  const state =
    !!r?.memory &&
    typeof r.memory.text === 'string' &&
    Array.isArray(r.memory.links) &&
    Array.isArray(r.memory.tags);
  const ok =
    r &&
    typeof r.id === 'string' &&
    isStamp(r.at) &&
    (r.seen === ZERO || isStamp(r.seen)) &&
    (r.restored === undefined || isStamp(r.restored)) &&
    // from another device: `forgotten` is `true` or absent, whatever the type says
    [undefined, true].includes(r.forgotten) &&
    (state || (r.forgotten === true && r.memory === undefined && r.fields === undefined));
  if (!ok)
    throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${key} is not a memory record`, {
      details: { key },
    });
  return r;
}
