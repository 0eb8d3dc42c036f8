/**
 * Merge per field (as Evolu's per-column change log): every record carries, beside the memory's
 * state, when each part of it last changed (`FieldStamps`), and the devices' records of one
 * memory are combined part by part, each on its own stamp:
 *
 * - text, kind, session, importance and the links: the value of the latest stamp;
 * - tags as a set: each tag's latest add against its latest removal (a tag added on one device
 *   and the text edited on another both survive);
 * - meta key by key: the latest set or removal of each key.
 *
 * A text edit remembers the text stamp it replaced (`textBase`). Two text edits neither of which
 * replaced the other are concurrent: the later one is the text, and the other is kept as a
 * conflict version (`SyncConflict`) until a person chooses (`Sync.resolveConflict`), which is a
 * new edit made over both.
 *
 * Pure: every device computes the same merge from the same records, in whatever order they
 * arrived. Records written before per-field stamps existed read as if every part changed at the
 * record's own stamp.
 */
import { ZERO, type Stamp } from './clock.ts';
import {
  canonical,
  textHash,
  type FieldStamps,
  type SyncedMemory,
  type SyncRecord,
} from './records.ts';

/** The parts merged on one stamp each. */
export const SCALARS = ['text', 'kind', 'session', 'importance', 'links'] as const;
type Scalar = (typeof SCALARS)[number];

/** A text edit concurrent with the one kept: shown to a person to choose. */
export interface TextVersion {
  /** The text of the edit that lost. */
  text: string;
  /** Its stamp. */
  at: Stamp;
}

/** A memory's merged state, as a record (what `apply` brings the store to). */
export interface MergedRecord extends SyncRecord {
  fields?: FieldStamps;
  /** Concurrent text edits that lost to `memory.text`, oldest first (empty when none). */
  conflicts?: TextVersion[];
}

/**
 * A record's stamps: its own, or (a record from before per-field stamps, which said its memory's
 * state whole) every part at the record's stamp, and every tag and meta key of `others` that it
 * lacks removed then.
 */
export function fieldsOf(
  record: SyncRecord,
  others: { tags: Iterable<string>; meta: Iterable<string> } = { tags: [], meta: [] },
): FieldStamps {
  if (record.fields) return record.fields;
  const { at } = record;
  const m = record.memory!;
  const tags = new Set(m.tags);
  return {
    text: at,
    // the latest stamp it had seen: what it edited over, near enough for an old record
    textBase: record.seen,
    kind: at,
    session: at,
    importance: at,
    links: at,
    tags: Object.fromEntries(
      [...new Set([...tags, ...others.tags])].map((t) => [
        t,
        tags.has(t) ? [at, ZERO] : [ZERO, at],
      ]),
    ),
    meta: Object.fromEntries(
      [...new Set([...Object.keys(m.meta), ...others.meta])].map((k) => [k, at]),
    ),
  };
}

/**
 * The stamps of a state written at `at` over `base` (the merged record this device knew, if any):
 * a part that differs from `base` changed at `at`; the others keep `base`'s stamps.
 * `renewText`: the text is stamped `at` even if unchanged (a person kept it over a conflict).
 */
export function stampFields(
  state: SyncedMemory,
  base: MergedRecord | undefined,
  at: Stamp,
  renewText = false,
): FieldStamps {
  if (!base?.memory) {
    return {
      text: at,
      textBase: ZERO,
      kind: at,
      session: at,
      importance: at,
      links: at,
      tags: Object.fromEntries(state.tags.map((t) => [t, [at, ZERO]])),
      meta: Object.fromEntries(Object.keys(state.meta).map((k) => [k, at])),
    };
  }
  const was = base.memory;
  const old = fieldsOf(base);
  const fields: FieldStamps = { ...old, tags: { ...old.tags }, meta: { ...old.meta } };
  for (const part of SCALARS)
    if (canonical(state[part]) !== canonical(was[part])) fields[part] = at;
  if (renewText || state.text !== was.text) {
    fields.text = at;
    fields.textBase = old.text;
  }
  const now = new Set(state.tags);
  const before = new Set(was.tags);
  for (const tag of now) if (!before.has(tag)) fields.tags[tag] = [at, old.tags[tag]?.[1] ?? ZERO];
  for (const tag of before) if (!now.has(tag)) fields.tags[tag] = [old.tags[tag]?.[0] ?? ZERO, at];
  for (const key of new Set([...Object.keys(state.meta), ...Object.keys(was.meta)]))
    if (canonical(state.meta[key]) !== canonical(was.meta[key])) fields.meta[key] = at;
  return fields;
}

/** The later of two stamped values; on equal stamps, the record with the later stamp. */
function later(a: SyncRecord, sa: Stamp, b: SyncRecord, sb: Stamp): boolean {
  return sa > sb || (sa === sb && a.at > b.at);
}

/**
 * The merged record of a memory's live records (none forgotten; at least one): each part from
 * the record whose stamp for it is the latest. `at` and `seen` are the latest of the records'.
 */
export function mergeLive(records: readonly SyncRecord[]): MergedRecord {
  const others = { tags: new Set<string>(), meta: new Set<string>() };
  for (const r of records) {
    for (const tag of Object.keys(r.fields?.tags ?? {}).concat(r.memory!.tags))
      others.tags.add(tag);
    for (const key of Object.keys(r.fields?.meta ?? {}).concat(Object.keys(r.memory!.meta)))
      others.meta.add(key);
  }
  const all = records.map((r) => ({ r, f: fieldsOf(r, others) }));
  const newest = all.reduce((a, b) => (b.r.at > a.r.at ? b : a));
  const memory: SyncedMemory = { ...newest.r.memory! };
  const fields: FieldStamps = { ...newest.f, tags: {}, meta: {} };
  let seen = ZERO;
  let restored = ZERO;
  for (const { r } of all) {
    if (r.seen > seen) seen = r.seen;
    if (r.restored && r.restored > restored) restored = r.restored;
  }
  const from: Record<Scalar, { r: SyncRecord; f: FieldStamps }> = {
    text: newest,
    kind: newest,
    session: newest,
    importance: newest,
    links: newest,
  };
  for (const x of all)
    for (const part of SCALARS)
      if (later(x.r, x.f[part], from[part].r, from[part].f[part])) from[part] = x;
  for (const part of SCALARS) {
    (memory as unknown as Record<Scalar, unknown>)[part] = from[part].r.memory![part];
    fields[part] = from[part].f[part];
  }
  fields.textBase = from.text.f.textBase;
  // tags: each tag's latest add against its latest removal
  for (const { f } of all)
    for (const [tag, [added, removed]] of Object.entries(f.tags)) {
      const [a, r] = fields.tags[tag] ?? [ZERO, ZERO];
      fields.tags[tag] = [added > a ? added : a, removed > r ? removed : r];
    }
  memory.tags = Object.keys(fields.tags)
    .filter((tag) => fields.tags[tag]![0] > fields.tags[tag]![1])
    .sort();
  // meta: each key from the record that set or removed it last
  const meta: SyncedMemory['meta'] = {};
  const metaFrom = new Map<string, { r: SyncRecord; s: Stamp }>();
  for (const { r, f } of all)
    for (const [key, s] of Object.entries(f.meta)) {
      const best = metaFrom.get(key);
      if (!best || later(r, s, best.r, best.s)) metaFrom.set(key, { r, s });
    }
  for (const key of [...metaFrom.keys()].sort()) {
    const { r, s } = metaFrom.get(key)!;
    fields.meta[key] = s;
    if (Object.hasOwn(r.memory!.meta, key)) meta[key] = r.memory!.meta[key]!;
  }
  memory.meta = meta;
  // concurrent text edits: a text the kept one did not replace, nor one it replaced
  const kept = fields;
  const conflicts = new Map<Stamp, TextVersion>();
  for (const { r, f } of all)
    if (f.text !== kept.text && f.text > kept.textBase && r.memory!.text !== memory.text)
      conflicts.set(f.text, { text: r.memory!.text, at: f.text });
  // text and session from one record: the hash it carries is of them (its device wrote it with
  // them), which spares a SHA-256 per memory when a new device reads the room's records
  const hashed = from.text.r === from.session.r ? from.text.r.textHash : undefined;
  return {
    id: newest.r.id,
    at: newest.r.at,
    seen,
    textHash: hashed ?? textHash(memory),
    memory,
    fields,
    ...(restored === ZERO ? {} : { restored }),
    conflicts: [...conflicts.values()].sort((a, b) => (a.at < b.at ? -1 : 1)),
  };
}
