/**
 * What travels for one memory: its state as the engine exports it (less what each device keeps
 * for itself: vectors, access counts and usage, update times), and the clock stamps that order it
 * against other devices' records of the same memory.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { isStamp, ZERO, type Stamp } from './clock.ts';
import { packFields, unpackFields, type FieldStamps } from './merge.ts';

/** A link as it travels. */
export interface SyncedLink {
  /** The target memory's id. */
  to: string;
  /** The link's kind. */
  kind: string;
  /** The link's weight. */
  weight: number;
}

/** A memory's synced state. */
export interface SyncedMemory {
  /** The memory's fields of the same names (`Memory`). */
  text: string;
  kind: string;
  session: string | null;
  tags: string[];
  meta: Record<string, string | number | boolean | null>;
  importance: number;
  /** Creation time, ms since the epoch. */
  createdAt: number;
  /** Sorted by target, then kind. */
  links: SyncedLink[];
}

/** One device's latest record of one memory. */
export interface SyncRecord {
  /** The memory's id (the same on every device). */
  id: string;
  /** When the device wrote it (its clock). */
  at: Stamp;
  /** The latest stamp of this memory's records the device had when it wrote this one. */
  seen: Stamp;
  /**
   * The device forgot the memory (a tombstone). Its `memory` is the memory's last state, kept
   * sealed for the trash (`trash.ts`); a purged tombstone has none.
   */
  forgotten?: true;
  /** SHA-256 of the text (hex): the same text on two devices becomes one memory. */
  textHash?: string;
  /** The memory's state (in a tombstone: its last state, until purged). */
  memory?: SyncedMemory;
  /**
   * When each part of `memory` last changed (see `merge.ts`); absent in a tombstone and in a
   * record written before per-field merge (read as every part changed at `at`).
   */
  fields?: FieldStamps;
  /**
   * The stamp of the latest forget of this memory that a restore from the trash undid, carried by
   * every later record of it: a device whose own record is older, and that lacks the memory,
   * applied that forget (it did not forget it since).
   */
  restored?: Stamp;
}

/** The line of an engine export this reads (a subset of its memory line). */
export interface ExportedMemory extends Omit<SyncedMemory, 'links'> {
  type: 'memory';
  id: string;
  links: SyncedLink[];
  /** The store's own usage events of the last week (`markUsed`, and recalls' `retrieved`). */
  usage?: { event: string; at: number }[];
  /** Its older usage events, folded per kind. */
  usageFolded?: { event: string; count: number; decayed: number; at: number }[];
}

/** The synced state of an exported memory line. */
export function syncedState(line: ExportedMemory): SyncedMemory {
  return {
    text: line.text,
    kind: line.kind,
    session: line.session,
    tags: [...new Set(line.tags)].sort(),
    meta: line.meta,
    importance: line.importance,
    createdAt: line.createdAt,
    links: line.links
      .map(({ to, kind, weight }) => ({ to, kind, weight }))
      .sort((a, b) => (a.to === b.to ? cmp(a.kind, b.kind) : cmp(a.to, b.to))),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with object keys sorted: equal states give equal strings. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => cmp(a, b)))
      : v,
  );
}

/** Whether two states are the same (links and meta compared whole). */
export function sameState(a: SyncedMemory, b: SyncedMemory): boolean {
  return canonical(a) === canonical(b);
}

/** What rule 3 compares: SHA-256 (hex) of a memory's session and text. */
export function textHash(memory: Pick<SyncedMemory, 'session' | 'text'>): string {
  return bytesToHex(sha256(utf8ToBytes(`${memory.session ?? ''}\0${memory.text}`)));
}

/** The latest stamp of a memory's records. */
export function latest(byDevice: ReadonlyMap<string, SyncRecord> | undefined): Stamp {
  let max: Stamp = ZERO;
  for (const r of byDevice?.values() ?? []) if (r.at > max) max = r.at;
  return max;
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
