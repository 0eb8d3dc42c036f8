import { AnamnesisError } from '@anamnesis/errors';
import {
  normalizeSpeaker,
  relationsOf,
  SPEAKER_META_KEY,
  supersedingRelation,
} from '@anamnesis/ranking';
import type { Database } from '../store/database.ts';
import { rowById, rowsByRid, toMemory } from '../store/store.ts';
import type { HistoryEntry } from '../types.ts';
import type { WriteContext } from './context.ts';

/**
 * Supersession found at write time (issue 70): a memory written now that states a new value for a
 * fact an older memory states ("We moved to Lisbon last month" after "I live in Porto") is linked
 * to it, `supersedes`, so recall ranks the older below the newer and `history` lists the chain.
 * Nothing is deleted. Detected without a model call (`supersedingRelation`: the same relation of
 * the same person, the newer saying it changed or stating it the same way with another value),
 * among the most recent older memories stating one of the new one's relations (the store's
 * `relation_mentions` index), those closest in meaning first, when the two are close enough in
 * meaning ({@link SUPERSEDE_MIN_COSINE}). A wrong supersession hides a fact that is still true, so
 * the rule is strict: precision over recall.
 */

/** Link kind of a supersession: from the newer memory to the older. */
export const SUPERSEDES = 'supersedes';
/** Weight of a supersession the engine found (an app's `supersede` sets 1: confirmed). */
export const DETECTED = 0.5;
/** Cosine the two memories must share at least (the default model's, measured on our texts). */
export const SUPERSEDE_MIN_COSINE = 0.3;
/** New memories a write checks at most: a larger batch (an import) is not checked. */
export const CHECKED_PER_WRITE = 64;
/** The most recent memories stating a relation that a new memory is compared with, per relation. */
const RECENT_MENTIONS = 200;
/** Of those, the closest in meaning whose texts are read and checked, per new memory. */
const CHECKED_PER_MEMORY = 28;

/** A supersession to write: the new memory's id, the older memory's rid. */
export interface FoundSupersession {
  newId: string;
  oldRid: number;
}

/**
 * The older memories each new memory supersedes. Runs before the write's transaction (it embeds);
 * `fresh`: the new memories with their ids and creation times.
 */
export async function findSupersessions(
  ctx: WriteContext,
  fresh: readonly { id: string; text: string; createdAt: number; meta: Record<string, unknown> }[],
): Promise<FoundSupersession[]> {
  if (fresh.length === 0 || fresh.length > CHECKED_PER_WRITE) return [];
  const found: FoundSupersession[] = [];
  const similarity = ctx.similarity();
  for (const m of fresh) {
    const relations = relationsOf(m.text);
    if (relations.length === 0) continue;
    const mentions = recentMentions(ctx.db, relations);
    if (mentions.length === 0) continue;
    const cosines = similarity.similarities(mentions, await similarity.query(m.text));
    const near = mentions
      .filter((rid) => (cosines.get(rid) ?? 0) >= SUPERSEDE_MIN_COSINE)
      .sort((a, b) => cosines.get(b)! - cosines.get(a)!)
      .slice(0, CHECKED_PER_MEMORY);
    const speaker = speakerOf(m.meta[SPEAKER_META_KEY]);
    for (const old of olderRows(ctx.db, near, m.createdAt)) {
      // in a conversation, "I" is whoever speaks: another speaker's fact is theirs
      if (speaker !== speakerOf(old.speaker)) continue;
      if (supersedingRelation(m.text, old.text) !== undefined)
        found.push({ newId: m.id, oldRid: old.rid });
    }
  }
  return found;
}

/** The most recent memories stating one of `relations`: {@link RECENT_MENTIONS} of each. */
function recentMentions(db: Database, relations: readonly string[]): number[] {
  const rids = new Set<number>();
  for (const relation of relations)
    for (const rid of db.selectValues(
      'SELECT rid FROM relation_mentions WHERE relation = ? ORDER BY rid DESC LIMIT ?',
      [relation, RECENT_MENTIONS],
    ))
      rids.add(rid as number);
  return [...rids];
}

/** The rows among `rids` made before `before`, with their text. */
function olderRows(
  db: Database,
  rids: readonly number[],
  before: number,
): { rid: number; text: string; speaker: unknown }[] {
  return db
    .selectArrays(
      `SELECT rid, text, json_extract(meta, ?) FROM memories
        WHERE rid IN (SELECT value FROM json_each(?)) AND created_at < ?`,
      [`$.${SPEAKER_META_KEY}`, JSON.stringify(rids), before],
    )
    .map(([rid, text, speaker]) => ({ rid: rid as number, text: text as string, speaker }));
}

/** A memory's app-given speaker, normalised; '' for none. */
function speakerOf(value: unknown): string {
  return typeof value === 'string' ? (normalizeSpeaker(value) ?? '') : '';
}

/**
 * Writes the supersessions found, inside the write's transaction, after the new rows are in:
 * each only if both memories are still there (another process may have forgotten the older).
 */
export function writeSupersessions(db: Database, found: readonly FoundSupersession[]): void {
  for (const { newId, oldRid } of found)
    db.exec({
      sql: `INSERT OR IGNORE INTO links(src, dst, kind, weight)
        SELECT m.rid, o.rid, ?, ? FROM memories m, memories o WHERE m.id = ? AND o.rid = ?`,
      bind: [SUPERSEDES, DETECTED, newId, oldRid],
    });
}

/**
 * The chain of supersessions a memory is in (`Engine.history`), oldest first: every memory linked
 * to it by `supersedes` links, either way, each with the one that superseded it (the newest, if
 * several did). `NOT_FOUND` for an unknown id.
 */
export function supersessionHistory(db: Database, id: string): HistoryEntry[] {
  const start = rowById(db, id);
  if (!start) throw new AnamnesisError('NOT_FOUND', id, { details: { id } });
  const seen = new Set([start.rid]);
  let frontier = [start.rid];
  const links: { src: number; dst: number; weight: number }[] = [];
  while (frontier.length > 0 && seen.size < MAX_CHAIN) {
    const found = db.selectArrays(
      `SELECT src, dst, weight FROM links WHERE kind = ?2
        AND (src IN (SELECT value FROM json_each(?1)) OR dst IN (SELECT value FROM json_each(?1)))`,
      [JSON.stringify(frontier), SUPERSEDES],
    ) as [number, number, number][];
    frontier = [];
    for (const [src, dst, weight] of found) {
      if (!links.some((l) => l.src === src && l.dst === dst)) links.push({ src, dst, weight });
      for (const rid of [src, dst])
        if (!seen.has(rid)) {
          seen.add(rid);
          frontier.push(rid);
        }
    }
  }
  const rows = rowsByRid(db, [...seen]);
  return [...rows.values()]
    .sort((a, b) => a.createdAt - b.createdAt || a.rid - b.rid)
    .map((row) => {
      const by = links
        .filter((l) => l.dst === row.rid && rows.has(l.src))
        .map((l) => ({ row: rows.get(l.src)!, confirmed: l.weight >= 1 }))
        .sort((a, b) => b.row.createdAt - a.row.createdAt)[0];
      return {
        ...toMemory(row),
        ...(by
          ? { supersededBy: { id: by.row.id, at: by.row.createdAt, confirmed: by.confirmed } }
          : {}),
      };
    });
}

/** Memories a history lists at most. */
const MAX_CHAIN = 256;
