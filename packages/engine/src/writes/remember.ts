import { AnamnesisError, assertArray } from '@anamnesis/errors';
import type { ProgressEvent } from '../embedding/embedder.ts';
import { validateRemember, type NewMemory } from '../input/validate.ts';
import { sha256Hex } from '../store/content-hash.ts';
import { newId } from '../store/ids.ts';
import { dedupKey, insertMemories, ridsByIds } from '../store/store.ts';
import type { RememberInput } from '../types.ts';
import type { WriteContext } from './context.ts';
import type { WritePlan } from './write-path.ts';

/** A validated memory given its id and content hash, ready to insert. */
type FreshMemory = NewMemory & { id: string; hash: string };

/**
 * The plan of `remember` and `rememberMany`: validates every input (`item i:` in the message of a
 * batch's error), then, in the serialised section, decides duplicates and ids, embeds the new
 * texts and inserts them with their links in one transaction. Replies with ids in input order.
 */
export function rememberPlan(
  ctx: WriteContext,
  inputs: readonly RememberInput[],
  onProgress?: (e: ProgressEvent) => void,
): WritePlan<number[], string[]> {
  assertArray(inputs, 'rememberMany: inputs');
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
  const vectors: Float32Array[] = [];
  return {
    what: 'remembering',
    kind: 'remember',
    ids: () => fresh.map((m) => m.id),
    // In the serialised section: duplicates and taken ids are decided against the store as the
    // transaction will find it, so concurrent identical texts get one id.
    encode: async () => {
      fresh = resolveNew(ctx, items, hashes, ids, now);
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
    },
    // Another process wrote since `encode` (a shared file store): its texts and ids are in the
    // filter now (the catch-up under the write lock), so the same decisions are checked again.
    stale: (db) => {
      if (fresh.some((m) => !m.allowDuplicate && ctx.dedup.find(m.session, m.hash) !== undefined))
        return true;
      const freshIds = new Set(fresh.map((m) => m.id));
      if (ridsByIds(db, [...freshIds]).size > 0) return true;
      const existing = new Set(ids.filter((id) => !freshIds.has(id)));
      return ridsByIds(db, [...existing]).size !== existing.size;
    },
    tx: () => (fresh.length === 0 ? [] : insert(ctx, fresh, vectors)),
    apply: (rids) => {
      ctx.similarity().apply(
        rids,
        fresh.map((m) => m.text),
        vectors,
      );
      fresh.forEach((m) => ctx.dedup.add(dedupKey(m.session, m.hash)));
    },
    changed: () => fresh.length > 0,
    reply: () => ids,
  };
}

/**
 * Decides, for each validated item, its id: an existing memory's (same text, same session,
 * unless `allowDuplicate`), an earlier item's of the batch, the caller's or a new one. Fills
 * `ids` and returns the items to insert. `INVALID_INPUT` for an id given twice or already taken.
 */
function resolveNew(
  ctx: WriteContext,
  items: readonly NewMemory[],
  hashes: readonly string[],
  ids: string[],
  now: number,
): FreshMemory[] {
  const fresh: FreshMemory[] = [];
  const batchKeys = new Map<string, number>();
  const callerIds = new Set<string>();
  items.forEach((m, i) => {
    const hash = hashes[i]!;
    if (!m.allowDuplicate) {
      const key = dedupKey(m.session, hash);
      const existing = ctx.dedup.find(m.session, hash);
      if (existing !== undefined) return void (ids[i] = existing);
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
  const taken = ridsByIds(
    ctx.db,
    fresh.map((m) => m.id),
  );
  if (taken.size > 0)
    throw new AnamnesisError('INVALID_INPUT', `id already exists: ${[...taken.keys()][0]}`);
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
