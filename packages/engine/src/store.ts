import type { Columns, Reader } from './reader.ts';
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

/**
 * What recall ranks a candidate by (its features, its session and its content hash): the columns
 * of {@link CANDIDATES_BY_RIDS}. Text, tags and metadata are read only for what is returned.
 */
export type CandidateRow = Pick<
  MemoryRow,
  'rid' | 'session' | 'importance' | 'createdAt' | 'accessCount' | 'memoryScore' | 'contentHash'
>;

function toCandidateRow(c: Columns): CandidateRow {
  return {
    rid: c.num(0),
    session: c.text(1),
    importance: c.num(2),
    createdAt: c.num(3),
    accessCount: c.num(4),
    memoryScore: c.num(5),
    contentHash: c.text(6)!,
  };
}

/** {@link toMemoryRow} from a {@link Reader} row selected with {@link MEMORY_COLUMNS}. */
function readMemoryRow(c: Columns): MemoryRow {
  return {
    rid: c.num(0),
    id: c.text(1)!,
    text: c.text(2)!,
    kind: c.text(3)!,
    session: c.text(4),
    tags: JSON.parse(c.text(5)!) as string[],
    meta: JSON.parse(c.text(6)!) as Record<string, MetaValue>,
    importance: c.num(7),
    createdAt: c.num(8),
    updatedAt: c.num(9),
    accessCount: c.num(10),
    memoryScore: c.num(11),
    contentHash: c.text(12)!,
  };
}

/** The candidate columns of rows by rid, in {@link toCandidateRow}'s order. */
const CANDIDATES_BY_RIDS =
  'SELECT m.rid, m.session, m.importance, m.created_at, m.access_count, m.memory_score, m.content_hash FROM memories m WHERE m.rid IN (SELECT value FROM json_each(?))';
const ROWS_BY_RIDS = `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rid IN (SELECT value FROM json_each(?))`;

/** Reads the candidate columns of the given rids (any order). */
export function candidateRows(read: Reader, rids: readonly number[]): Map<number, CandidateRow> {
  const out = new Map<number, CandidateRow>();
  if (rids.length === 0) return out;
  for (const row of read.all(CANDIDATES_BY_RIDS, [JSON.stringify(rids)], toCandidateRow))
    out.set(row.rid, row);
  return out;
}

/** Reads whole rows of the given rids (any order), through the recall path's {@link Reader}. */
export function memoryRows(read: Reader, rids: readonly number[]): Map<number, MemoryRow> {
  const out = new Map<number, MemoryRow>();
  if (rids.length === 0) return out;
  for (const row of read.all(ROWS_BY_RIDS, [JSON.stringify(rids)], readMemoryRow))
    out.set(row.rid, row);
  return out;
}

/** Up to `n` rows of a row's session before it (nearest first) or after it (in time order). */
export function sessionRows(
  read: Reader,
  row: MemoryRow,
  side: 'before' | 'after',
  n: number,
): MemoryRow[] {
  const sql =
    side === 'before'
      ? `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.session = ? AND (m.created_at, m.rid) < (?, ?) ORDER BY m.created_at DESC, m.rid DESC LIMIT ?`
      : `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.session = ? AND (m.created_at, m.rid) > (?, ?) ORDER BY m.created_at, m.rid LIMIT ?`;
  return read.all(sql, [row.session, row.createdAt, row.rid, n], readMemoryRow);
}

/** Maps ids to rids through the {@link Reader}; unknown ids are absent from the map. */
export function readRidsByIds(read: Reader, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  for (const [id, rid] of read.all(
    'SELECT id, rid FROM memories WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify(ids)],
    (c) => [c.text(0)!, c.num(1)] as const,
  ))
    out.set(id, rid);
  return out;
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
