import { AnamnesisError, assertArray } from '@anamnesis/errors';
import type { ProgressEvent } from '../embedding/embedder.ts';
import { buildFilter, EVERY_MEMORY, type SqlFilter } from '../input/filter.ts';
import { validateRemember, type NewMemory } from '../input/validate.ts';
import { sha256Hex } from '../store/content-hash.ts';
import { newId } from '../store/ids.ts';
import { dedupKey, insertMemories, ridsByIds } from '../store/store.ts';
import type { Database } from '../store/database.ts';
import type { MemoryFilter, RememberInput } from '../types.ts';
import type { WriteContext } from './context.ts';
import { findSupersessions, writeSupersessions, type FoundSupersession } from './supersession.ts';
import type { WritePlan } from './write-path.ts';

/** A validated memory given its id and content hash, ready to insert. */
type FreshMemory = NewMemory & { id: string; hash: string };

/** What a `rememberMany` transaction did: the rows it inserted and those `replace` deleted. */
interface Remembered {
  inserted: number[];
  removed: number[];
}

/** The memories a `replace` filter selects, as rows and ids. */
interface Replaced {
  rids: number[];
  ids: Set<string>;
}

/**
 * The plan of `remember` and `rememberMany`: validates every input (`item i:` in the message of a
 * batch's error), then, in the serialised section, decides duplicates and ids, embeds the new
 * texts and inserts them with their links in one transaction. Replies with ids in input order.
 *
 * With `replace` (a filter), the memories it selects are deleted in that same transaction, before
 * the insert: a text equal to one of theirs is stored anew (not answered with the id being
 * deleted), and an id of theirs may be given again. A failure anywhere rolls back both.
 */
export function rememberPlan(
  ctx: WriteContext,
  inputs: readonly RememberInput[],
  onProgress?: (e: ProgressEvent) => void,
  replace?: MemoryFilter,
): WritePlan<Remembered, string[]> {
  assertArray(inputs, 'rememberMany: inputs');
  const selection = replaceSelection(replace);
  const now = ctx.now();
  const items = inputs.map((input, i) => {
    try {
      return validateRemember(input, now, ctx.maxText);
    } catch (e) {
      if (e instanceof AnamnesisError && inputs.length > 1) {
        throw new AnamnesisError(e.code, `item ${i}: ${e.message}`, {
          cause: e,
          details: { index: i },
        });
      }
      throw e;
    }
  });
  const hashes = items.map((m) => sha256Hex(m.text));
  const ids = new Array<string>(items.length);
  let fresh: FreshMemory[] = [];
  let replaced: Replaced = { rids: [], ids: new Set() };
  const vectors: Float32Array[] = [];
  let supersessions: FoundSupersession[] = [];
  return {
    what: 'remembering',
    kind: 'remember',
    ids: () => [...fresh.map((m) => m.id), ...replaced.ids],
    // In the serialised section: duplicates and taken ids are decided against the store as the
    // transaction will find it, so concurrent identical texts get one id.
    encode: async () => {
      replaced = selection ? select(ctx.db, selection) : replaced;
      fresh = resolveNew(ctx, items, hashes, ids, now, replaced.ids);
      const step = 256;
      for (let start = 0; start < fresh.length; start += step) {
        const batch = fresh.slice(start, start + step);
        vectors.push(...(await ctx.similarity().encode(batch.map((m) => m.text))));
        onProgress?.({
          phase: 'embed',
          loaded: Math.min(start + step, fresh.length),
          total: fresh.length,
        });
      }
      // facts the new memories state anew: the older memories they supersede
      supersessions = await findSupersessions(ctx, fresh);
    },
    // Another process wrote since `encode` (a shared file store): its texts and ids are in the
    // filter now (the catch-up under the write lock), so the same decisions are checked again.
    stale: (db) => {
      if (selection) {
        const now = select(db, selection);
        if (
          now.rids.length !== replaced.rids.length ||
          now.rids.some((r, i) => r !== replaced.rids[i])
        )
          return true;
      }
      const live = (id: string | undefined) => id !== undefined && !replaced.ids.has(id);
      if (fresh.some((m) => !m.allowDuplicate && live(ctx.dedup.find(m.session, m.hash))))
        return true;
      const freshIds = new Set(fresh.map((m) => m.id));
      if ([...ridsByIds(db, [...freshIds]).keys()].some(live)) return true;
      const existing = new Set(ids.filter((id) => !freshIds.has(id)));
      return ridsByIds(db, [...existing]).size !== existing.size;
    },
    tx: (db) => {
      if (replaced.rids.length > 0) {
        ctx.dropSnapshots();
        db.exec({
          sql: 'DELETE FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
          bind: [JSON.stringify(replaced.rids)],
        });
      }
      const inserted = fresh.length === 0 ? [] : insert(ctx, fresh, vectors);
      writeSupersessions(db, supersessions);
      return { inserted, removed: replaced.rids };
    },
    apply: ({ inserted, removed }) => {
      if (removed.length > 0) ctx.similarity().remove(removed);
      ctx.similarity().apply(
        inserted,
        fresh.map((m) => m.text),
        vectors,
      );
      fresh.forEach((m) => ctx.dedup.add(dedupKey(m.session, m.hash)));
    },
    changed: ({ inserted, removed }) => inserted.length > 0 || removed.length > 0,
    reply: () => ids,
  };
}

/**
 * The SQL of a `replace` filter; `INVALID_INPUT` for anything but a filter that sets a condition
 * (as `forget`: a filter that selects every memory would replace the whole store).
 */
function replaceSelection(replace: MemoryFilter | undefined): SqlFilter | undefined {
  if (replace === undefined) return undefined;
  if (replace === null || typeof replace !== 'object' || Array.isArray(replace))
    throw new AnamnesisError('INVALID_INPUT', 'rememberMany: replace must be a filter');
  const selection = buildFilter(replace);
  if (selection.where === EVERY_MEMORY)
    throw new AnamnesisError(
      'INVALID_INPUT',
      'rememberMany: the replace filter sets no condition and would replace every memory',
    );
  return selection;
}

/** The memories `selection` selects now, in row order. */
function select(db: Database, { where, params }: SqlFilter): Replaced {
  const rows = db.selectArrays(
    `SELECT m.rid, m.id FROM memories m WHERE ${where} ORDER BY m.rid`,
    params,
  );
  return { rids: rows.map((r) => r[0] as number), ids: new Set(rows.map((r) => r[1] as string)) };
}

/**
 * Decides, for each validated item, its id: an existing memory's (same text, same session,
 * unless `allowDuplicate`), an earlier item's of the batch, the caller's or a new one. Fills
 * `ids` and returns the items to insert. `INVALID_INPUT` for an id given twice or already taken.
 * The memories in `replacing` (deleted by the same transaction) are neither duplicates nor taken.
 */
function resolveNew(
  ctx: WriteContext,
  items: readonly NewMemory[],
  hashes: readonly string[],
  ids: string[],
  now: number,
  replacing: ReadonlySet<string>,
): FreshMemory[] {
  const fresh: FreshMemory[] = [];
  const batchKeys = new Map<string, number>();
  const callerIds = new Set<string>();
  items.forEach((m, i) => {
    const hash = hashes[i]!;
    if (!m.allowDuplicate) {
      const key = dedupKey(m.session, hash);
      const existing = ctx.dedup.find(m.session, hash);
      if (existing !== undefined && !replacing.has(existing)) return void (ids[i] = existing);
      const inBatch = batchKeys.get(key);
      if (inBatch !== undefined) return void (ids[i] = ids[inBatch]!);
      batchKeys.set(key, i);
    }
    const id = m.id ?? newId(now);
    if (callerIds.has(id))
      throw new AnamnesisError('INVALID_INPUT', `duplicate id ${id} in the batch`);
    callerIds.add(id);
    ids[i] = id;
    fresh.push({ ...m, id, hash });
  });
  const taken = [
    ...ridsByIds(
      ctx.db,
      fresh.map((m) => m.id),
    ).keys(),
  ].filter((id) => !replacing.has(id));
  if (taken.length > 0) throw new AnamnesisError('INVALID_INPUT', `id already exists: ${taken[0]}`);
  return fresh;
}

/** Inserts validated memories with their vectors and links; runs inside a transaction. */
function insert(
  ctx: WriteContext,
  items: readonly FreshMemory[],
  vectors: readonly Float32Array[],
): number[] {
  const { db } = ctx;
  ctx.dropSnapshots();
  const now = ctx.now();
  const rids = insertMemories(
    db,
    items.map((m) => ({ ...m, updatedAt: now, accessCount: 0, contentHash: m.hash })),
  );
  ctx.similarity().store(db, rids, vectors);
  const targets = ridsByIds(
    db,
    items.flatMap((m) => m.links.map((l) => l.to)),
  );
  items.forEach((m, i) => {
    for (const l of m.links) {
      const dst = targets.get(l.to);
      if (dst === undefined)
        throw new AnamnesisError('NOT_FOUND', `link target ${l.to}`, { details: { id: l.to } });
      db.exec({
        sql: 'INSERT OR REPLACE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
        bind: [rids[i]!, dst, l.kind, l.weight],
      });
    }
  });
  return rids;
}
