import { relationsOf } from '@anamnesis/ranking';
import type { Columns, Reader } from './reader.ts';
import type { Database } from './database.ts';
import type { Memory, MetaValue } from '../types.ts';
import { lexicalText } from './lexical.ts';
import { INSERT_INDEXES_FTS } from './schema.ts';
import { siteWordsOfMeta } from './site.ts';

/**
 * The columns of the `memories` table a memory read selects, in this order (what a recovery reads
 * of a damaged store, whose other tables may be unreadable or absent).
 */
export const STORED_MEMORY_COLUMNS =
  'm.rid, m.id, m.text, m.kind, m.session, m.tags, m.meta, m.importance, m.created_at, m.updated_at, m.access_count, m.memory_score, m.content_hash';

/** The columns every memory read selects, in this order: {@link STORED_MEMORY_COLUMNS}, then whether it is pinned. */
export const MEMORY_COLUMNS = `${STORED_MEMORY_COLUMNS}, EXISTS (SELECT 1 FROM pins p WHERE p.rid = m.rid)`;

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
> & {
  /** The text's length in characters (a long memory's evidence is its best passage's). */
  length: number;
};

function toCandidateRow(c: Columns): CandidateRow {
  return {
    rid: c.num(0),
    session: c.text(1),
    importance: c.num(2),
    createdAt: c.num(3),
    accessCount: c.num(4),
    memoryScore: c.num(5),
    contentHash: c.text(6)!,
    length: c.num(7),
  };
}

/** {@link toMemoryRow} from a {@link Reader} row selected with {@link MEMORY_COLUMNS}. */
export function readMemoryRow(c: Columns): MemoryRow {
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
    pinned: c.num(13) === 1,
  };
}

/** The candidate columns of rows by rid, in {@link toCandidateRow}'s order. */
const CANDIDATES_BY_RIDS =
  'SELECT m.rid, m.session, m.importance, m.created_at, m.access_count, m.memory_score, m.content_hash, length(m.text) FROM memories m WHERE m.rid IN (SELECT value FROM json_each(?))';
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
    // absent in a row read with STORED_MEMORY_COLUMNS (a recovery): not pinned
    pinned: r[13] === 1,
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

/**
 * A memory row to insert: every column the engine writes (`pinned`, absent or false: not pinned;
 * true: a row of `pins` too).
 */
export type MemoryInsert = Omit<Memory, 'pinned'> & { contentHash: string; pinned?: boolean };

/**
 * One `INSERT … SELECT` writes many rows, read from one bound JSON array of rows (rid, id, text,
 * kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score,
 * content_hash, then what the FTS indexes hold: the lexical text and the site words). Row by row,
 * a statement each (each firing the FTS5 trigger, each row crossing into wasm a dozen times), the
 * same rows took about five times as long, most of it inside SQLite per statement. Strings and
 * numbers come back out of JSON exactly: SQLite parses a JSON number to the same double, and a
 * whole number to an integer, as a bound whole number is stored. The JSON is bound as its UTF-8
 * bytes, encoded once for the three statements that read it (a bound string is encoded at each
 * bind).
 */
const INSERT_FROM_JSON =
  'INSERT INTO memories(rid, id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10, value->>11, value->>12 FROM json_each(CAST(? AS TEXT))';

/**
 * The same rows into both FTS indexes, as the insert triggers (schema.ts) would write them, with
 * the lexical text computed once per row in JavaScript.
 */
const INDEX_FROM_JSON = [
  'INSERT INTO memories_fts(rowid, text, tags, site) SELECT value->>0, value->>13, value->>5, value->>14 FROM json_each(CAST(? AS TEXT))',
  "INSERT INTO memories_words(rowid, words) SELECT value->>0, (value->>13) || ' ' || (value->>5) || ' ' || (value->>14) FROM json_each(CAST(? AS TEXT))",
];
/**
 * The relations index's rows, as its trigger would write them: the rows that state a relation
 * (`relationsOf`, computed once per row in JavaScript), as `[rid, relation]` pairs. Most rows
 * state none: read out of every row's JSON, they took a sixth of a batch's SQL (42 of 266 ms for
 * 10,000 memories in better-sqlite3, 2026-12-07).
 */
const RELATIONS_FROM_JSON =
  'INSERT OR IGNORE INTO relation_mentions(relation, rid) SELECT value->>1, value->>0 FROM json_each(CAST(? AS TEXT))';

const utf8 = new TextEncoder();

/** At most this many characters of JSON per statement (a batch of long texts takes several): the bound text is copied into SQLite-WASM's memory, which never shrinks. */
const JSON_CHUNK_CHARS = 1 << 21;

/** A lone UTF-16 surrogate (refused by validation; a bound string would store U+FFFD). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a row's values come out of the JSON path as a bound row would store them: finite
 * numbers, and strings without lone surrogates (tags and metadata are JSON text already).
 */
function jsonSafe(m: MemoryInsert): boolean {
  for (const x of [m.importance, m.createdAt, m.updatedAt, m.accessCount, m.memoryScore])
    if (typeof x !== 'number' || !Number.isFinite(x)) return false;
  for (const x of [m.id, m.text, m.kind, m.contentHash])
    if (typeof x !== 'string' || LONE_SURROGATE.test(x)) return false;
  return m.session === null || (typeof m.session === 'string' && !LONE_SURROGATE.test(m.session));
}

/** A row's values in the column order of both inserts (id … content_hash; tags and meta as JSON). */
export function columnValues(m: MemoryInsert): (string | number | null)[] {
  return [
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
  ];
}

/**
 * Inserts rows (inside the caller's transaction); returns their rids, in order. Rids are given
 * explicitly, as SQLite itself would choose them: the largest rid so far plus one, counting up.
 */
export function insertMemories(db: Database, rows: readonly MemoryInsert[]): number[] {
  if (rows.length === 0) return [];
  const last = db.selectValue('SELECT coalesce(max(rid), 0) FROM memories');
  if (
    typeof last !== 'number' ||
    last > Number.MAX_SAFE_INTEGER - rows.length ||
    !rows.every(jsonSafe)
  )
    return insertMemoriesByRow(db, rows);
  const rids = rows.map((_, i) => last + 1 + i);
  let chunk: string[] = [];
  let chars = 0;
  let relations: [number, string][] = [];
  const flush = () => {
    const json = utf8.encode(`[${chunk.join(',')}]`);
    for (const sql of [INSERT_FROM_JSON, ...INDEX_FROM_JSON]) db.exec({ sql, bind: [json] });
    if (relations.length > 0)
      db.exec({ sql: RELATIONS_FROM_JSON, bind: [utf8.encode(JSON.stringify(relations))] });
    chunk = [];
    chars = 0;
    relations = [];
  };
  db.exec({
    sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, 1)',
    bind: [INSERT_INDEXES_FTS],
  });
  try {
    rows.forEach((m, i) => {
      const values = columnValues(m);
      const row = JSON.stringify([
        rids[i],
        ...values,
        lexicalText(m.text),
        siteWordsOfMeta(values[5] as string),
      ]);
      if (chunk.length > 0 && chars + row.length > JSON_CHUNK_CHARS) flush();
      chunk.push(row);
      for (const r of relationsOf(m.text)) relations.push([rids[i]!, r]);
      chars += row.length;
    });
    flush();
  } finally {
    db.exec({ sql: 'DELETE FROM meta WHERE key = ?', bind: [INSERT_INDEXES_FTS] });
  }
  pinRows(db, rows, rids);
  return rids;
}

/** After an insert: pins the rows that are pinned (an import or a recovery of pinned memories). */
function pinRows(db: Database, rows: readonly MemoryInsert[], rids: readonly number[]): void {
  const pinned = rids.filter((_, i) => rows[i]!.pinned === true);
  if (pinned.length > 0)
    db.exec({
      sql: 'INSERT OR IGNORE INTO pins(rid) SELECT value FROM json_each(?)',
      bind: [JSON.stringify(pinned)],
    });
}

/** {@link insertMemories} one row at a time (values JSON cannot carry, or rids near the limit). */
function insertMemoriesByRow(db: Database, rows: readonly MemoryInsert[]): number[] {
  const rids: number[] = [];
  const stmt = db.prepare(
    'INSERT INTO memories(id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING rid',
  );
  try {
    for (const m of rows) {
      stmt.bind(columnValues(m));
      stmt.step();
      rids.push(stmt.get(0) as number);
      stmt.reset();
    }
  } finally {
    stmt.finalize();
  }
  pinRows(db, rows, rids);
  return rids;
}

/**
 * Vectors of one length are written by one statement per chunk: their bytes bound as one blob,
 * cut by `substr` (bytes, for a blob), the rids as a JSON array.
 */
const VECTORS_FROM_BLOB =
  'INSERT OR REPLACE INTO embeddings(rid, model, vector) SELECT value, ?2, substr(?3, key * ?4 + 1, ?4) FROM json_each(?1)';

/** At most this many bytes of vectors per statement. */
const VECTOR_CHUNK_BYTES = 1 << 21;

/** Writes the stored vectors (float32 bytes, already unit length) of rows for a model. */
export function writeVectors(
  db: Database,
  model: string,
  rids: readonly number[],
  vectors: readonly Float32Array[],
): void {
  const size = vectors[0]?.byteLength ?? 0;
  if (
    size === 0 ||
    vectors.some((v) => v.byteLength !== size) ||
    rids.some((rid) => !Number.isSafeInteger(rid))
  ) {
    writeVectorsByRow(db, model, rids, vectors);
    return;
  }
  const perChunk = Math.max(1, Math.floor(VECTOR_CHUNK_BYTES / size));
  for (let start = 0; start < rids.length; start += perChunk) {
    const end = Math.min(rids.length, start + perChunk);
    const bytes = new Uint8Array((end - start) * size);
    for (let i = start; i < end; i++) {
      const v = vectors[i]!;
      bytes.set(new Uint8Array(v.buffer, v.byteOffset, size), (i - start) * size);
    }
    db.exec({
      sql: VECTORS_FROM_BLOB,
      bind: [JSON.stringify(rids.slice(start, end)), model, bytes, size],
    });
  }
}

/** {@link writeVectors} one row at a time (vectors of different lengths, rids JSON cannot carry). */
function writeVectorsByRow(
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
