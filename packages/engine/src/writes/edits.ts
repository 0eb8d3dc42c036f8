import { AnamnesisError } from '@anamnesis/errors';
import type { UsageEventKind } from '@anamnesis/ranking';
import { buildFilter, EVERY_MEMORY, isForgetAll, type ForgetAll } from '../input/filter.ts';
import { MAX_LINKS, validateId, validateLinks, validateUpdate } from '../input/validate.ts';
import { sha256Hex } from '../store/content-hash.ts';
import { dedupKey, ridsByIds, rowById, toMemory, type MemoryRow } from '../store/store.ts';
import { foldOldUsage } from '../store/usage-fold.ts';
import type { LinkInput, Memory, MemoryFilter, UpdateInput } from '../types.ts';
import type { WriteContext } from './context.ts';
import type { WritePlan } from './write-path.ts';

/** Options of `markUsed`. */
export type UsageEvent = Extract<UsageEventKind, 'selected' | 'used' | 'discarded'>;

/** The plan of `update`: changes fields of a memory; a new text is re-embedded. */
export function updatePlan(
  ctx: WriteContext,
  id: string,
  patch: UpdateInput,
): WritePlan<MemoryRow, Memory> {
  const key = validateId(id);
  const fields = validateUpdate(patch, ctx.maxText);
  let vector: Float32Array | undefined;
  return {
    what: 'updating',
    kind: 'update',
    ids: () => [key],
    encode: async () => {
      const before = rowById(ctx.db, key);
      if (!before) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
      if (fields.text !== undefined && fields.text !== before.text)
        vector = (await ctx.similarity().encode([fields.text]))[0]!;
    },
    // Another process changed the text since `encode` decided whether to embed the new one.
    stale: (db) => {
      const row = rowById(db, key);
      return row !== undefined && fields.text !== undefined && !vector && row.text !== fields.text;
    },
    tx: (db) => {
      const row = rowById(db, key);
      if (!row) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
      if (fields.text !== undefined || fields.session !== undefined) ctx.dropSnapshots();
      const next = { ...row, ...fields };
      db.exec({
        sql: 'UPDATE memories SET text=?, kind=?, session=?, tags=?, meta=?, importance=?, memory_score=?, content_hash=?, updated_at=? WHERE rid=?',
        bind: [
          next.text,
          next.kind,
          next.session,
          JSON.stringify(next.tags),
          JSON.stringify(next.meta),
          next.importance,
          next.memoryScore,
          fields.text !== undefined ? sha256Hex(next.text) : row.contentHash,
          ctx.now(),
          row.rid,
        ],
      });
      if (vector) ctx.similarity().store(db, [row.rid], [vector]);
      return rowById(db, key)!;
    },
    apply: (row) => {
      if (vector) ctx.similarity().apply([row.rid], [row.text], [vector]);
      ctx.dedup.add(dedupKey(row.session, row.contentHash));
    },
    reply: toMemory,
  };
}

/**
 * The plan of `forget`: deletes memories by id, ids, or filter, links and usage with them; replies
 * with how many. `undefined` for an empty list of ids (nothing to do). A filter that sets no
 * condition is `INVALID_INPUT`; `{ all: true }` deletes every memory.
 */
export function forgetPlan(
  ctx: WriteContext,
  target: string | string[] | MemoryFilter | ForgetAll,
): WritePlan<{ rids: number[]; ids: string[] }, number> | undefined {
  const all = isForgetAll(target);
  const filter: MemoryFilter | undefined = all
    ? undefined
    : typeof target === 'string'
      ? { ids: [validateId(target)] }
      : Array.isArray(target)
        ? { ids: target.map(validateId) }
        : target;
  if (!all && (!filter || typeof filter !== 'object')) {
    throw new AnamnesisError('INVALID_INPUT', 'forget needs an id, ids or a non-empty filter');
  }
  if (Array.isArray(target) && target.length === 0) return undefined;
  const { where, params } = buildFilter(filter);
  if (!all && where === EVERY_MEMORY) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'forget: this filter sets no condition and would delete every memory; pass { all: true } to do that',
    );
  }
  return {
    what: 'forgetting',
    kind: 'forget',
    tx: (db) => {
      const rows = db.selectArrays(
        `SELECT m.rid, m.id FROM memories m WHERE ${where} ORDER BY m.rid`,
        params,
      );
      const found = rows.map((r) => r[0] as number);
      if (found.length > 0) ctx.dropSnapshots();
      db.exec({
        sql: 'DELETE FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
        bind: [JSON.stringify(found)],
      });
      return { rids: found, ids: rows.map((r) => r[1] as string) };
    },
    ids: (found) => found.ids,
    apply: (found) => ctx.similarity().remove(found.rids),
    changed: (found) => found.rids.length > 0,
    reply: (found) => found.rids.length,
  };
}

/** The plan of `link`: links two memories (upsert by source, target and kind). */
export function linkPlan(
  from: string,
  to: string | LinkInput,
  options: Omit<LinkInput, 'to'>,
): WritePlan<void> {
  const src = validateId(from);
  const [l] = validateLinks([typeof to === 'string' ? { to, ...options } : to]);
  return {
    what: 'linking',
    kind: 'link',
    ids: () => [src, l!.to],
    tx: (db) => {
      const rids = ridsByIds(db, [src, l!.to]);
      for (const id of [src, l!.to])
        if (!rids.has(id)) throw new AnamnesisError('NOT_FOUND', id, { details: { id } });
      const [others] = db.selectArrays(
        'SELECT count(*) FROM links WHERE src = ? AND NOT (dst = ? AND kind = ?)',
        [rids.get(src)!, rids.get(l!.to)!, l!.kind],
      );
      if ((others![0] as number) >= MAX_LINKS) {
        throw new AnamnesisError(
          'INVALID_INPUT',
          `memory ${src} has ${MAX_LINKS} links already, the most a memory may have`,
        );
      }
      db.exec({
        sql: 'INSERT OR REPLACE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
        bind: [rids.get(src)!, rids.get(l!.to)!, l!.kind, l!.weight],
      });
    },
  };
}

/**
 * The plan of `pin`: pins a memory (`pinned` true) or unpins it; replies whether that changed it.
 * `NOT_FOUND` for an unknown id, `INVALID_INPUT` for a `pinned` that is not a boolean. Its update
 * time stays: pinning is not an edit of the memory.
 */
export function pinPlan(id: string, pinned: boolean): WritePlan<boolean> {
  const key = validateId(id);
  if (typeof pinned !== 'boolean')
    throw new AnamnesisError('INVALID_INPUT', 'pinned must be a boolean');
  return {
    what: pinned ? 'pinning' : 'unpinning',
    kind: 'update',
    ids: () => [key],
    tx: (db) => {
      const rid = ridsByIds(db, [key]).get(key);
      if (rid === undefined) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
      db.exec({
        sql: pinned
          ? 'INSERT OR IGNORE INTO pins(rid) VALUES (?)'
          : 'DELETE FROM pins WHERE rid = ?',
        bind: [rid],
      });
      return db.changes() > 0;
    },
    changed: (changed) => changed,
  };
}

/** The plan of `unlink`: removes links from one memory to another (of one kind, or all kinds). */
export function unlinkPlan(from: string, to: string, kind?: string): WritePlan<number> {
  const src = validateId(from);
  const dst = validateId(to);
  if (kind !== undefined && (typeof kind !== 'string' || kind.length === 0)) {
    throw new AnamnesisError('INVALID_INPUT', 'kind must be a non-empty string');
  }
  return {
    what: 'unlinking',
    kind: 'unlink',
    ids: () => [src, dst],
    tx: (db) => {
      const rids = ridsByIds(db, [src, dst]);
      if (!rids.has(src) || !rids.has(dst)) return 0;
      db.exec({
        sql: 'DELETE FROM links WHERE src = ? AND dst = ? AND (?3 IS NULL OR kind = ?3)',
        bind: [rids.get(src)!, rids.get(dst)!, kind ?? null],
      });
      return db.changes();
    },
    changed: (removed) => removed > 0,
  };
}

/** The plan of `markUsed`: records that a memory was selected, used or discarded. */
export function usagePlan(ctx: WriteContext, id: string, event: UsageEvent): WritePlan<void> {
  const key = validateId(id);
  if (event !== 'selected' && event !== 'used' && event !== 'discarded') {
    throw new AnamnesisError('INVALID_INPUT', "event must be 'selected', 'used' or 'discarded'");
  }
  return {
    what: 'recording usage',
    kind: 'usage',
    ids: () => [key],
    tx: (db) => {
      const rid = ridsByIds(db, [key]).get(key);
      if (rid === undefined) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
      const now = ctx.now();
      db.exec({ sql: 'INSERT INTO usage(rid, event, at) VALUES (?,?,?)', bind: [rid, event, now] });
      foldOldUsage(db, now);
    },
  };
}

/** What a device recorded of a memory's use: per event kind, folded (see `FoldedUsage`). */
export interface DeviceUsage {
  /** `'selected'`, `'used'` or `'discarded'`. */
  event: UsageEvent;
  /** How many events (an integer ≥ 0). */
  count: number;
  /** Their decayed sum at `at` (≥ 0): Σ 2^(−(at − at_i) / 7 days). */
  decayed: number;
  /** The newest event's time, ms since the epoch. */
  at: number;
}

/** Longest device id `setDeviceUsage` takes. */
const MAX_DEVICE_CHARS = 64;

/**
 * The plan of `setDeviceUsage`: replaces what another device recorded of a memory's use (its
 * events folded per kind); the usage score counts them beside this store's own events.
 */
export function deviceUsagePlan(id: string, device: string, usage: DeviceUsage[]): WritePlan<void> {
  const key = validateId(id);
  if (typeof device !== 'string' || device.length === 0 || device.length > MAX_DEVICE_CHARS)
    throw new AnamnesisError(
      'INVALID_INPUT',
      `device must be a string of 1-${MAX_DEVICE_CHARS} characters`,
    );
  if (!Array.isArray(usage)) throw new AnamnesisError('INVALID_INPUT', 'usage must be an array');
  const seen = new Set<string>();
  for (const u of usage) {
    const ok =
      u !== null &&
      typeof u === 'object' &&
      (u.event === 'selected' || u.event === 'used' || u.event === 'discarded') &&
      !seen.has(u.event) &&
      Number.isSafeInteger(u.count) &&
      u.count >= 0 &&
      Number.isFinite(u.decayed) &&
      u.decayed >= 0 &&
      Number.isFinite(u.at);
    if (!ok)
      throw new AnamnesisError(
        'INVALID_INPUT',
        'usage must list each event kind once, with a count (an integer ≥ 0), a decayed sum (≥ 0) and a time',
        { details: { usage: u } },
      );
    seen.add(u.event);
  }
  return {
    what: "recording another device's usage",
    kind: 'usage',
    ids: () => [key],
    tx: (db) => {
      const rid = ridsByIds(db, [key]).get(key);
      if (rid === undefined) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });
      db.exec({
        sql: 'DELETE FROM usage_devices WHERE rid = ? AND device = ?',
        bind: [rid, device],
      });
      for (const u of usage)
        db.exec({
          sql: 'INSERT INTO usage_devices(rid, device, event, count, decayed, at) VALUES (?, ?, ?, ?, ?, ?)',
          bind: [rid, device, u.event, u.count, u.decayed, u.at],
        });
    },
  };
}
