import { describe, expect, it } from 'vitest';
import { LEXICAL_SQL_FUNCTION, lexicalText } from '../src/store/lexical.ts';
import { migrate } from '../src/store/schema.ts';
import type { Database } from '../src/store/database.ts';
import { asDatabase, loadSqlite, transaction } from '../src/store/sqlite.ts';
import {
  columnValues,
  insertMemories,
  rowsByRid,
  writeVectors,
  type MemoryInsert,
} from '../src/store/store.ts';

async function freshDb(): Promise<Database> {
  const sqlite3 = await loadSqlite();
  const db = asDatabase(new sqlite3.oo1.DB(':memory:', 'c'));
  migrate(db, 'memory');
  return db;
}

const HOSTILE = [
  'plain',
  'NUL \u0000 inside',
  'a BOM \uFEFF inside',
  'emoji 🐈‍⬛ and CJK 猫 and RTL שלום',
  'quotes " \' and backslashes \\ \\\\ and "]} JSON-ish',
  '',
  'x'.repeat(10_000),
];
const NUMBERS = [0, 0.1, 1 / 3, 1e-300, 123456789.123456, 0.5, 1, -0.25];

function row(i: number, over: Partial<MemoryInsert> = {}): MemoryInsert {
  return {
    id: `id-${i}`,
    text: HOSTILE[i % HOSTILE.length]! + ` ${i}`,
    kind: i % 3 ? 'note' : 'fact',
    session: i % 4 ? `s${i % 5}` : null,
    tags: i % 2 ? ['a', 'é', '"q"'] : [],
    meta: { n: NUMBERS[i % NUMBERS.length]!, s: HOSTILE[(i + 1) % HOSTILE.length]! },
    importance: NUMBERS[i % NUMBERS.length]!,
    createdAt: 1_700_000_000_000 + i,
    updatedAt: 1_700_000_000_123 + i,
    accessCount: i % 7,
    memoryScore: NUMBERS[(i + 3) % NUMBERS.length]!,
    contentHash: `h${i}`,
    ...over,
  };
}

/** The fields the insert writes. */
const FIELDS = [
  'id',
  'text',
  'kind',
  'session',
  'tags',
  'meta',
  'importance',
  'createdAt',
  'updatedAt',
  'accessCount',
  'memoryScore',
  'contentHash',
] as const;
const written = (m: MemoryInsert) => Object.fromEntries(FIELDS.map((k) => [k, m[k]]));

/** What rows read back as, in the fields the insert wrote. */
function readBack(db: Database, rids: number[]) {
  const rows = rowsByRid(db, rids);
  return rids.map((rid) => written(rows.get(rid)!));
}

describe('insertMemories and writeVectors (batched statements)', () => {
  it('store every value exactly, with the rids SQLite would choose, across several statements', async () => {
    const db = await freshDb();
    // Rows over 4 MB of JSON: the 2 MB statement limit splits them.
    const long = Array.from({ length: 5 }, (_, i) =>
      row(1000 + i, { text: `${'long '.repeat(200_000)}${i}` }),
    );
    const rows = [...Array.from({ length: 300 }, (_, i) => row(i)), ...long];
    const rids = transaction(db, 'test', () => insertMemories(db, rows));
    expect(rids).toEqual(rows.map((_, i) => i + 1));
    expect(readBack(db, rids)).toEqual(rows.map(written));
    // The FTS index holds each row (the trigger fired for every one).
    expect(
      Number(db.selectValue("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'long'")),
    ).toBe(5);
    // After a delete of the last rows, the next rids continue from the largest left, as SQLite's own.
    db.exec('DELETE FROM memories WHERE rid > 300');
    const more = transaction(db, 'test', () => insertMemories(db, [row(900)]));
    expect(more).toEqual([301]);
  });

  it('fills both FTS indexes as the insert trigger does, computing each lexical text once', async () => {
    // Texts that exercise every part of the lexical text: stems added for other languages,
    // British spellings, emoji names, words cut by Intl.Segmenter, Cyrillic stems, site words.
    const texts = [
      'The colour of the centre was organised 🐈 and 🎉',
      'Die Einheiten der Verzeichnisse sind nicht mit den Dateien in der Liste',
      'Los archivos de la carpeta son para el usuario y no para los grupos',
      'Мы купили новые велосипеды для детей в субботу',
      '我们在周末去了北京的公园',
      '東京で新しいカメラを買いました',
      ...HOSTILE,
    ];
    const rows = texts.map((text, i) =>
      row(i, {
        text,
        tags: i % 2 ? ['travel', 'Ünïcode'] : [],
        meta: i % 3 ? { url: `https://docs.example.org/guide/page-${i}?q=x` } : { n: i },
      }),
    );
    const batched = await freshDb();
    // The trigger's SQL function, counted: the batched insert never calls it.
    let calls = 0;
    batched.createFunction(
      LEXICAL_SQL_FUNCTION,
      (_ctx, text) => {
        calls++;
        return lexicalText(String(text));
      },
      { deterministic: true },
    );
    transaction(batched, 'test', () => insertMemories(batched, rows));
    expect(calls).toBe(0);
    // The trigger's way: one plain INSERT per row, as an earlier version of the engine wrote.
    const triggered = await freshDb();
    for (const m of rows)
      triggered.exec({
        sql: 'INSERT INTO memories(id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
        bind: columnValues(m),
      });
    const indexed = (db: Database) =>
      ['memories_fts', 'memories_words'].map((table) => {
        db.exec(`CREATE VIRTUAL TABLE temp.v_${table} USING fts5vocab(main, ${table}, instance)`);
        return db.selectArrays(`SELECT * FROM temp.v_${table} ORDER BY 1, 2, 3, 4`);
      });
    const expected = indexed(triggered);
    expect(expected[0]!.length).toBeGreaterThan(100);
    expect(indexed(batched)).toEqual(expected);
    // The trigger's guard lives only inside the insert.
    expect(batched.selectValue('SELECT count(*) FROM meta')).toBe(0);
    expect(
      Number(
        batched.selectValue("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'color'"),
      ),
    ).toBe(1);
  });

  it('leaves no guard behind when a batched insert fails, and the trigger fills the index again', async () => {
    const db = await freshDb();
    transaction(db, 'test', () => insertMemories(db, [row(0)]));
    // A second row with the same id: the UNIQUE constraint fails the statement.
    expect(() => transaction(db, 'test', () => insertMemories(db, [row(1), row(0)]))).toThrow();
    expect(db.selectValue('SELECT count(*) FROM meta')).toBe(0);
    db.exec(
      "INSERT INTO memories(id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) VALUES ('x', 'zebra crossing', 'note', NULL, '[]', '{}', 0.5, 0, 0, 0, 0, 'h')",
    );
    expect(
      Number(db.selectValue("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'zebra'")),
    ).toBe(1);
    expect(
      Number(
        db.selectValue("SELECT count(*) FROM memories_words WHERE memories_words MATCH 'zebra'"),
      ),
    ).toBe(1);
  });

  it('falls back to one statement per row for values JSON cannot carry, with the same result', async () => {
    const db = await freshDb();
    const lone = row(1, { text: 'a lone \uD800 surrogate' });
    const rids = transaction(db, 'test', () => insertMemories(db, [row(0), lone]));
    expect(rids).toEqual([1, 2]);
    expect(readBack(db, rids).map((r) => r.text)).toEqual(['plain 0', 'a lone \uFFFD surrogate']);
  });

  it('goes one statement per row where the next rids would pass 2^53 (not exact as JavaScript numbers)', async () => {
    const db = await freshDb();
    db.exec(
      "INSERT INTO memories(rid, id, text, kind, session, tags, meta, importance, created_at, updated_at, access_count, memory_score, content_hash) VALUES (9007199254740991, 'last', 'the last safe rid', 'note', NULL, '[]', '{}', 0.5, 0, 0, 0, 0, 'h')",
    );
    // counted in JavaScript, 2^53 - 1 + 2 would round to 2^53 - 1 + 1: two rows on one rid
    transaction(db, 'test', () => insertMemories(db, [row(1), row(2)]));
    expect(db.selectValues('SELECT id FROM memories ORDER BY rid')).toEqual([
      'last',
      'id-1',
      'id-2',
    ]);
  });

  it('writes vectors of different lengths each whole (one statement per row)', async () => {
    const db = await freshDb();
    const rids = transaction(db, 'test', () => insertMemories(db, [row(0), row(1)]));
    const vectors = [
      Float32Array.from({ length: 100 }, (_, d) => d),
      Float32Array.from({ length: 50 }, (_, d) => -d),
    ];
    transaction(db, 'test', () => writeVectors(db, 'm', rids, vectors));
    const stored = db.selectArrays('SELECT vector FROM embeddings ORDER BY rid');
    expect(stored.map(([b]) => new Float32Array((b as Uint8Array).slice().buffer))).toEqual(
      vectors,
    );
  });

  it('writes vectors byte for byte in chunks, and replaces a row it writes again', async () => {
    const db = await freshDb();
    const n = 6000; // 400-byte vectors: two 2 MB statements
    const rids = transaction(db, 'test', () =>
      insertMemories(
        db,
        Array.from({ length: n }, (_, i) => row(i)),
      ),
    );
    const vectors = rids.map((rid) =>
      Float32Array.from({ length: 100 }, (_, d) => Math.fround(Math.sin(rid * 100 + d))),
    );
    transaction(db, 'test', () => writeVectors(db, 'm', rids, vectors));
    const stored = db.selectArrays(
      'SELECT rid, vector FROM embeddings WHERE model = ? ORDER BY rid',
      ['m'],
    );
    expect(stored).toHaveLength(n);
    stored.forEach(([rid, bytes], i) => {
      expect(rid).toBe(rids[i]);
      expect(new Float32Array((bytes as Uint8Array).slice().buffer)).toEqual(vectors[i]);
    });
    const again = Float32Array.from({ length: 100 }, () => 0.5);
    transaction(db, 'test', () => writeVectors(db, 'm', [rids[7]!], [again]));
    const bytes = db.selectValue('SELECT vector FROM embeddings WHERE rid = ? AND model = ?', [
      rids[7]!,
      'm',
    ]) as Uint8Array;
    expect(new Float32Array(bytes.slice().buffer)).toEqual(again);
    expect(Number(db.selectValue('SELECT count(*) FROM embeddings'))).toBe(n);
  });
});
