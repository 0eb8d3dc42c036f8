/**
 * What travels for one memory: its state as the engine exports it (less what each device keeps
 * for itself: vectors, access counts and usage, update times), and the clock stamps that order it
 * against other devices' records of the same memory.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { ZERO, type Stamp } from './clock.ts';

/** When each part of a memory last changed, as the device that wrote a record knew it. */
export interface FieldStamps {
  text: Stamp;
  /** The text stamp this text replaced (`ZERO` for a memory's first text). */
  textBase: Stamp;
  kind: Stamp;
  session: Stamp;
  importance: Stamp;
  links: Stamp;
  /** Each tag ever set: its latest add and its latest removal (`ZERO`: never removed). */
  tags: Record<string, [Stamp, Stamp]>;
  /** Each meta key ever set: when it was last set or removed (a key absent from `meta` was removed). */
  meta: Record<string, Stamp>;
}

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
