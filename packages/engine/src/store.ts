import type { Database } from './sqlite.ts';
import type { Memory, MetaValue } from './types.ts';

/** The columns every memory read selects, in this order. */
export const MEMORY_COLUMNS =
  'm.rid, m.id, m.text, m.kind, m.session, m.tags, m.meta, m.importance, m.created_at, m.updated_at, m.access_count, m.memory_score, m.content_hash';

/** A memory row with its SQLite row id and content hash. */
export interface MemoryRow extends Memory {
  rid: number;
  contentHash: string;
}

/** Converts a row selected with {@link MEMORY_COLUMNS} (array mode). */
export function toMemoryRow(r: unknown[]): MemoryRow {
  return {
    rid: r[0] as number,
    id: r[1] as string,
    text: r[2] as string,
    kind: r[3] as string,
    session: (r[4] as string | null) ?? null,
    tags: JSON.parse(r[5] as string) as string[],
    meta: JSON.parse(r[6] as string) as Record<string, MetaValue>,
    importance: r[7] as number,
    createdAt: r[8] as number,
    updatedAt: r[9] as number,
    accessCount: r[10] as number,
    memoryScore: r[11] as number,
    contentHash: r[12] as string,
  };
}

/** The public view of a row (no rid or hash). */
export function toMemory(row: MemoryRow): Memory {
  const { rid: _rid, contentHash: _hash, ...memory } = row;
  return memory;
}

/** Reads the rows of the given rids (any order). */
export function rowsByRid(db: Database, rids: readonly number[]): Map<number, MemoryRow> {
  const out = new Map<number, MemoryRow>();
  if (rids.length === 0) return out;
  const rows = db.selectArrays(
    `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rid IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(rids)],
  );
  for (const r of rows) {
    const row = toMemoryRow(r);
    out.set(row.rid, row);
  }
  return out;
}

/** Reads one row by id. */
export function rowById(db: Database, id: string): MemoryRow | undefined {
  const rows = db.selectArrays(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`, [id]);
  return rows[0] ? toMemoryRow(rows[0]) : undefined;
}

/** Maps ids to rids; unknown ids are absent from the map. */
export function ridsByIds(db: Database, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  for (const [id, rid] of db.selectArrays(
    'SELECT id, rid FROM memories WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify(ids)],
  )) {
    out.set(id as string, rid as number);
  }
  return out;
}

/** A memory row to insert: every column the engine writes. */
export type MemoryInsert = Memory & { contentHash: string };

/** Inserts rows with one prepared statement (inside the caller's transaction); returns their rids. */
export function insertMemories(db: Database, rows: readonly MemoryInsert[]): number[] {
  const rids: number[] = [];
  const stmt = db.prepare(
    'INSERT INTO memories(id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING rid',
  );
  try {
    for (const m of rows) {
      stmt.bind([
        m.id,
        m.text,
        m.kind,
        m.session,
        JSON.stringify(m.tags),
        JSON.stringify(m.meta),
        m.importance,
        m.createdAt,
        m.updatedAt,
        m.accessCount,
        m.memoryScore,
        m.contentHash,
      ]);
      stmt.step();
      rids.push(stmt.get(0) as number);
      stmt.reset();
    }
  } finally {
    stmt.finalize();
  }
  return rids;
}

/** Writes the stored vectors (float32 bytes, already unit length) of rows for a model. */
export function writeVectors(
  db: Database,
  model: string,
  rids: readonly number[],
  vectors: readonly Float32Array[],
): void {
  const stmt = db.prepare('INSERT OR REPLACE INTO embeddings(rid, model, vector) VALUES (?, ?, ?)');
  try {
    rids.forEach((rid, i) => {
      const v = vectors[i]!;
      stmt.bind([rid, model, new Uint8Array(v.buffer, v.byteOffset, v.byteLength)]).stepReset();
    });
  } finally {
    stmt.finalize();
  }
}

/** The dedup key of a text: its session and content hash. */
export function dedupKey(session: string | null, hash: string): string {
  return `${session ?? ''}\u0000${hash}`;
}
