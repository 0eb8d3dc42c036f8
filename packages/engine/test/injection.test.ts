/**
 * SQL and FTS5 injection (issue 8): every place caller text meets the store. Each hostile value is
 * either rejected with INVALID_INPUT or stored and matched as plain data; the schema and the rows
 * are unchanged afterwards. A static check proves that no caller text reaches SQL except through
 * bound parameters.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFilter, IDENTIFIER } from '../src/input/filter.ts';
import { CIPHER, rawKey, SALT_BYTES } from '../src/storage/encryption.ts';
import { createEngine, type Engine } from '../src/index.ts';
import { caseSeed, FUZZ_CASES, FUZZ_SEED, Gen, replay } from './fuzz-gen.ts';
import { defaultEmbedder, NOTES, onDisk, rejectsWith } from './helpers.ts';

/** Hostile strings: SQL and FTS5 syntax, comments, quotes, JSON-path and LIKE metacharacters. */
const HOSTILE = [
  "a') OR 1=1 --",
  'x"; DROP TABLE memories; --',
  "'; DROP TABLE memories; --",
  '" OR 1=1',
  "' OR '1'='1",
  'rank',
  "memories_fts MATCH '*'",
  'memories_fts',
  '*',
  '%',
  '_',
  '$.a',
  '$[0]',
  '/*',
  '1; PRAGMA writable_schema=1',
  'json_each(',
  'NULL',
  '?',
  ':x',
  'NEAR(a b)',
  '{text tags}: x',
];

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-injection-'));
const path = join(dir, 'store.db');
let engine: Engine;
let schema: string[];
let memories: number;

/** Names and SQL of every table, index and trigger in the saved store file. */
async function savedSchema(): Promise<string[]> {
  const db = onDisk(path);
  try {
    return db
      .selectArrays('SELECT type, name, sql FROM sqlite_master ORDER BY type, name')
      .map((r) => r.map((v) => String(v as string)).join(' | '));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
  await engine.rememberMany(NOTES);
  await engine.link('cat', 'dog');
  schema = await savedSchema();
  memories = NOTES.length;
  expect(schema.some((s) => s.startsWith('table | memories |'))).toBe(true);
});

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The schema on disk and the row count are what they were; the store checks clean. */
async function intact(extra = 0): Promise<void> {
  expect(await savedSchema()).toEqual(schema);
  expect((await engine.stats()).memories).toBe(memories + extra);
  expect(await engine.verify()).toEqual([]);
}

describe('injection: values are data', () => {
  it('tags, kinds and sessions made of SQL round-trip and match only themselves', async () => {
    const ids = await engine.rememberMany(
      HOSTILE.map((h, i) => ({
        id: `inj-${i}`,
        text: `hostile value number ${i}: ${h}`,
        tags: [h],
        kind: h,
        session: h,
        meta: { source: h },
      })),
    );
    await intact(HOSTILE.length);
    for (const [i, h] of HOSTILE.entries()) {
      const m = (await engine.get(ids[i]!))!;
      expect(m).toMatchObject({ tags: [h], kind: h, session: h, meta: { source: h } });
      for (const filter of [{ tags: [h] }, { kind: h }, { session: h }, { meta: { source: h } }]) {
        expect((await engine.list({ filter })).map((x) => x.id)).toEqual([ids[i]]);
        const hits = await engine.recall(`hostile value number ${i}`, { filter, topK: 50 });
        expect(hits.map((x) => x.id)).toEqual([ids[i]]);
      }
    }
    // Forgetting by a hostile filter deletes exactly its memory.
    expect(await engine.forget({ session: HOSTILE[0]! })).toBe(1);
    expect(await engine.forget(ids.slice(1))).toBe(HOSTILE.length - 1);
    await intact();
  });

  it('ids and link kinds made of SQL round-trip; unlink removes only that kind', async () => {
    const ids = HOSTILE.map((h) => `id ${h}`);
    await engine.rememberMany(ids.map((id, i) => ({ id, text: `link test ${i} ${id}` })));
    for (const [i, h] of HOSTILE.entries()) {
      expect((await engine.get(ids[i]!))!.id).toBe(ids[i]);
      await engine.link(ids[i]!, 'cat', { kind: h });
      await engine.link(ids[i]!, 'cat', { kind: 'plain' });
    }
    await intact(HOSTILE.length);
    expect((await engine.stats()).links).toBe(1 + 2 * HOSTILE.length);
    const exported = await engine.export();
    for (const h of HOSTILE) expect(exported).toContain(JSON.stringify(h));
    for (const [i, h] of HOSTILE.entries()) expect(await engine.unlink(ids[i]!, 'cat', h)).toBe(1);
    expect((await engine.stats()).links).toBe(1 + HOSTILE.length);
    const hits = await engine.recall('kitten', { graph: { seeds: [ids[0]!] }, topK: 50 });
    expect(hits.some((x) => x.id === 'cat')).toBe(true);
    expect(await engine.forget(ids)).toBe(HOSTILE.length);
    expect((await engine.stats()).links).toBe(1);
    await intact();
  });

  it('queries made of FTS5 and SQL syntax are words, never syntax', async () => {
    const id = await engine.remember({ text: 'rank memories_fts match select drop table' });
    for (const h of HOSTILE) {
      const hits = await engine.recall(h, { topK: 50 });
      expect(Array.isArray(hits)).toBe(true);
    }
    const [top] = await engine.recall("memories_fts MATCH '*' rank", { topK: 1 });
    expect(top!.id).toBe(id);
    await engine.forget(id);
    await intact();
  });
});

describe('injection: names are rejected', () => {
  it('metadata keys: non-identifiers are rejected, identifiers such as rank are plain JSON keys', async () => {
    for (const h of HOSTILE) {
      if (IDENTIFIER.test(h)) {
        const id = await engine.remember({ text: `meta key ${h}`, meta: { [h]: 'v' } });
        expect((await engine.list({ filter: { meta: { [h]: 'v' } } })).map((m) => m.id)).toEqual([
          id,
        ]);
        expect(await engine.forget({ meta: { [h]: 'v' } })).toBe(1);
        continue;
      }
      await rejectsWith(
        engine.remember({ text: 'meta key test', meta: { [h]: 1 } }),
        'INVALID_INPUT',
      );
      await rejectsWith(engine.list({ filter: { meta: { [h]: 1 } } }), 'INVALID_INPUT');
      await rejectsWith(engine.recall('cat', { filter: { meta: { [h]: 1 } } }), 'INVALID_INPUT');
      await rejectsWith(engine.forget({ meta: { [h]: 1 } }), 'INVALID_INPUT');
    }
    expect(HOSTILE.filter((h) => IDENTIFIER.test(h))).toEqual([
      'rank',
      'memories_fts',
      '_',
      'NULL',
    ]);
    await intact();
  });

  it('profile names, extra-list labels, list order, limit and offset, filter keys', async () => {
    for (const h of HOSTILE) {
      await rejectsWith(engine.recall('cat', { profile: h }), 'INVALID_INPUT');
      const extra = engine.recall('cat', {
        extraLists: [{ label: h, items: [{ id: 'cat', score: 1 }] }],
        explain: true,
      });
      if (IDENTIFIER.test(h)) {
        // an identifier label is only a leg name in the explanation
        const [top] = await extra;
        expect(top!.explain!.legs.some((l) => l.leg === h)).toBe(true);
      } else {
        await rejectsWith(extra, 'INVALID_INPUT');
      }
      await rejectsWith(engine.list({ order: h as never }), 'INVALID_INPUT');
      await rejectsWith(engine.list({ limit: h as never }), 'INVALID_INPUT');
      await rejectsWith(engine.list({ offset: h as never }), 'INVALID_INPUT');
      await rejectsWith(engine.list({ filter: { [h]: 'x' } }), 'INVALID_INPUT');
      await rejectsWith(engine.recall('cat', { [h]: 1 }), 'INVALID_INPUT');
      await rejectsWith(engine.markUsed('cat', h as never), 'INVALID_INPUT');
      await rejectsWith(engine.update('cat', { [h]: 1 }), 'INVALID_INPUT');
    }
    await rejectsWith(engine.list({ offset: '0; DROP TABLE memories' as never }), 'INVALID_INPUT');
    await intact();
  });

  it('store names that are not plain file names', async () => {
    for (const name of ['../x', 'a b', "x'; --", 'a/b', '']) {
      await rejectsWith(
        createEngine({ name, storage: 'memory', embedder: await defaultEmbedder() }),
        'INVALID_INPUT',
      );
    }
  });
});

describe('injection: no caller text is ever spliced into SQL', () => {
  const src = fileURLToPath(new URL('../src/', import.meta.url));

  /** Every source file of the engine, in every folder (paths relative to `src`). */
  const sources = () =>
    readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

  /** Every template literal of a source file (with `${…}` nesting), as raw text. */
  function templates(code: string): string[] {
    const out: string[] = [];
    for (let i = 0; i < code.length; i++) {
      if (code[i] !== '`') continue;
      let depth = 0;
      let j = i + 1;
      for (; j < code.length; j++) {
        const c = code[j];
        if (c === '\\') j++;
        else if (depth === 0 && c === '`') break;
        else if (c === '$' && code[j + 1] === '{') {
          depth++;
          j++;
        } else if (depth > 0 && c === '{') depth++;
        else if (depth > 0 && c === '}') depth--;
      }
      out.push(code.slice(i, j + 1));
      i = j;
    }
    return out;
  }

  /** Interpolations allowed in SQL: engine-owned fragments only. */
  const ALLOWED = new Set([
    'MEMORY_COLUMNS', // fixed column list (store.ts)
    'STORED_MEMORY_COLUMNS', // fixed column list (store.ts)
    'bm25', // the lexical leg's bm25() call, one of two fixed strings (recall-legs.ts)
    'bm25Call', // the same string, passed to the pruned top-k search (top-bm25.ts)
    'where', // buildFilter's WHERE: fixed fragments and `?` (checked below)
    'column', // list order: 'm.updated_at' or 'm.created_at', chosen by a fixed comparison
    'SCHEMA_VERSION', // a number constant
    'Math.round(mb * 1024)', // pageCachePragma: a rounded number (pageCacheMb is validated as one)
    'waitFor', // tryBegin's busy timeout: Math.max(0, Math.floor(ms)), a number (store/sqlite.ts)
    "kinds.map(() => '?').join(',')", // placeholders only
    "sessions.map(() => '?').join(',')",
    'CIPHER', // the fixed SQLite3MC cipher name of encrypted stores (storage/encryption.ts)
    'key', // rawKey's output: 'raw:' and hex digits only (storage/encryption.ts, checked below)
    'scope.sql', // export's row scope: one of two fixed fragments, the ids bound as `?` (io/jsonl.ts)
    'FTS_INSTANCES', // the fixed name of the lexical index's instance table (store/schema.ts)
    'FTS_TOKENS', // the fixed name of the lexical index's token table (store/schema.ts)
    'COLUMN_OF', // a CASE over the lexical index's fixed column names (recall/phrase-instances.ts)
  ]);
  const SQL = /\b(SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|WHERE|MATCH|VALUES)\b/;

  it('every interpolation in an SQL template literal is an allow-listed engine fragment', () => {
    const found: string[] = [];
    for (const file of sources()) {
      for (const t of templates(readFileSync(join(src, file), 'utf8'))) {
        if (!SQL.test(t)) continue;
        for (const m of t.matchAll(/\$\{([^}]*(?:\{[^}]*\}[^}]*)*)\}/g)) {
          found.push(m[1]!.trim());
          expect(ALLOWED, `${file}: \${${m[1]}} in ${t.slice(0, 120)}`).toContain(m[1]!.trim());
        }
      }
    }
    // The check sees the SQL it is meant to see.
    expect(found).toContain('MEMORY_COLUMNS');
    expect(found).toContain('where');
  });

  it('the key spliced into PRAGMA key is raw: and hex digits only, whatever the passphrase', async () => {
    expect(CIPHER).toMatch(/^[a-z0-9]+$/);
    // a stand-in for scrypt that echoes the passphrase's bytes: the key still comes out as hex
    const echo = async (p: Uint8Array) => p.slice(0, 32);
    for (const passphrase of ["x' ; DROP TABLE memories; --", '\u0000\'"', 'ключ 🔑']) {
      const key = await rawKey(echo, passphrase, new Uint8Array(SALT_BYTES).fill(7));
      expect(key).toMatch(/^raw:[0-9a-f]+$/);
    }
  });

  it('SQL strings are never built by concatenation', () => {
    for (const file of sources()) {
      const code = readFileSync(join(src, file), 'utf8');
      const concatenated = code.match(
        /['"`][^'"`\n]*\b(SELECT|INSERT|UPDATE|DELETE|WHERE)\b[^'"`\n]*['"`]\s*\+|\+\s*['"`][^'"`\n]*\b(SELECT|INSERT|UPDATE|DELETE|WHERE)\b/g,
      );
      expect(concatenated, file).toBeNull();
    }
  });

  it(`buildFilter's WHERE holds only fixed fragments and placeholders (seed ${FUZZ_SEED})`, () => {
    const fragment = new RegExp(
      '^(?:' +
        [
          'EXISTS \\(SELECT 1 FROM json_each\\(m\\.tags\\) WHERE value = \\?\\)',
          'm\\.kind IN \\(\\?(?:,\\?)*\\)',
          'm\\.session IN \\(\\?(?:,\\?)*\\)',
          'm\\.id IN \\(SELECT value FROM json_each\\(\\?\\)\\)',
          'm\\.created_at >= \\?',
          'm\\.created_at < \\?',
          "json_type\\(m\\.meta, \\?\\) = 'null'",
          'json_type\\(m\\.meta, \\?\\) = \\?',
          'json_extract\\(m\\.meta, \\?\\) = \\?',
        ].join('|') +
        ')$',
    );
    const cases = Math.max(200, Math.round(FUZZ_CASES / 3));
    let built = 0;
    for (let i = 0; i < cases; i++) {
      const g = new Gen(caseSeed(FUZZ_SEED, 'buildFilter', i));
      const h = () => (g.chance(0.5) ? g.pick(HOSTILE) : g.string(100));
      const filter: Record<string, unknown> = {};
      if (g.chance(0.5)) filter.tags = [h(), h()];
      if (g.chance(0.5)) filter.kind = g.chance(0.5) ? h() : [h(), h()];
      if (g.chance(0.5)) filter.session = [h()];
      if (g.chance(0.5)) filter.ids = [h()];
      if (g.chance(0.3)) filter.after = g.int(1e9);
      if (g.chance(0.3)) filter.before = new Date(g.int(1e9));
      if (g.chance(0.5))
        filter.meta = { [g.chance(0.7) ? 'source' : h()]: g.pick([h(), 1, true, null]) };
      let where: string;
      try {
        ({ where } = buildFilter(filter));
      } catch (e) {
        if ((e as { code?: string }).code !== 'INVALID_INPUT')
          throw new Error(replay('buildFilter', FUZZ_SEED, i, String(e)), { cause: e });
        continue;
      }
      built++;
      if (where === '1') continue;
      for (const part of where.split(' AND ')) {
        if (!fragment.test(part))
          throw new Error(replay('buildFilter', FUZZ_SEED, i, `caller text in SQL: ${part}`));
      }
    }
    expect(built).toBeGreaterThan(cases / 4);
  });
});
