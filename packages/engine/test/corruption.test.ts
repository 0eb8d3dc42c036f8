/**
 * A damaged store file (issue 8): opening it fails with STORE_CORRUPT, or verify() reports the
 * damage, and reading it writes nothing; `recoverStore` salvages the readable memories into JSON Lines that a fresh store imports.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/cli.ts';
import type { AnamnesisError } from '@anamnesis/errors';
import { createEngine, recoverStore, type Engine } from '../src/index.ts';
import { caseSeed, FUZZ_CASES, FUZZ_SEED, Gen, replay } from './fuzz-gen.ts';
import { headerPageSize, scanTableLeaves } from '../src/io/page-scan.ts';
import { importDatabase, loadSqlite } from '../src/store/sqlite.ts';
import { defaultEmbedder } from './helpers.ts';

const N = 500;
const dir = mkdtempSync(join(tmpdir(), 'anamnesis-corrupt-'));
let healthy: Uint8Array;
/** The original memory lines (without links and usage), by id. */
const original = new Map<string, Record<string, unknown>>();

const TOPICS = ['garden', 'taxes', 'hiking', 'recipes', 'meetings', 'music', 'travel', 'books'];

beforeAll(async () => {
  const path = join(dir, 'healthy.db');
  const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
  const g = new Gen(FUZZ_SEED);
  const ids = await engine.rememberMany(
    Array.from({ length: N }, (_, i) => ({
      id: `m${String(i).padStart(4, '0')}`,
      text: `note ${i} about ${g.pick(TOPICS)}: ${g.text(8).replace(/\p{Cs}/gu, '')} ${'detail '.repeat(g.int(40))}`,
      tags: [g.pick(TOPICS)],
      session: `s${i % 17}`,
      meta: { n: i, even: i % 2 === 0 },
      importance: g.float(),
      createdAt: Date.UTC(2025, 0, 1) + i * 60_000,
    })),
  );
  for (let i = 0; i + 1 < N; i += 5) await engine.link(ids[i]!, ids[i + 1]!);
  for (let i = 0; i < N; i += 7) await engine.markUsed(ids[i]!, 'selected');
  for (const line of (await engine.export()).trim().split('\n').slice(1)) {
    const { links: _l, usage: _u, ...rest } = JSON.parse(line) as Record<string, unknown>;
    original.set(rest.id as string, rest);
  }
  await engine.close();
  healthy = new Uint8Array(readFileSync(path));
  expect(healthy.length % pageSize()).toBe(0);
  root = await memoriesRoot(healthy);
  expect(root).toBeGreaterThan(1);
  expect(healthy[(root - 1) * pageSize()]).toBe(5); // an interior table page
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The page size the healthy file declares. */
const pageSize = () => headerPageSize(healthy)!;

/** Overwrites pages (1-based numbers) with seeded random bytes. */
function smashPages(bytes: Uint8Array, pages: readonly number[]): Uint8Array {
  const out = bytes.slice();
  const g = new Gen(FUZZ_SEED + pages.length);
  for (const p of pages)
    for (let i = 0; i < pageSize(); i++) out[(p - 1) * pageSize() + i] = g.int(256);
  return out;
}

/** `count` pages around the middle of the file. */
function middlePages(bytes: Uint8Array, count: number): number[] {
  const first = Math.floor(bytes.length / pageSize() / 2) - Math.floor(count / 2);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** `count` leaf pages of the memories table, from the middle of their run. */
function memoryLeafPages(bytes: Uint8Array, count: number): number[] {
  const pages = [
    ...new Set(
      scanTableLeaves(bytes, pageSize())
        .rows.filter((r) => r.values.length === 13)
        .map((r) => r.page),
    ),
  ];
  const first = Math.floor(pages.length / 2) - Math.floor(count / 2);
  return pages.slice(first, first + count);
}

/** The root page of the memories table (an interior page once it outgrows one page). */
async function memoriesRoot(bytes: Uint8Array): Promise<number> {
  const db = importDatabase(await loadSqlite(), bytes.slice());
  try {
    return Number(db.selectValue("SELECT rootpage FROM sqlite_master WHERE name = 'memories'"));
  } finally {
    db.close();
  }
}
let root = 0;

/** Flips seeded random bytes inside the middle third of the file (cell pointers, headers, data). */
function flipMiddleBytes(bytes: Uint8Array, flips: number): Uint8Array {
  const out = bytes.slice();
  const g = new Gen(FUZZ_SEED + flips);
  const third = Math.floor(out.length / 3);
  for (let i = 0; i < flips; i++) out[third + g.int(third)]! ^= 1 + g.int(255);
  return out;
}

const CORRUPTIONS: [string, (b: Uint8Array) => Uint8Array][] = [
  ['truncated to half', (b) => b.slice(0, Math.floor(b.length / 2))],
  ['truncated mid-page', (b) => b.slice(0, b.length - 1000)],
  ['header zeroed', (b) => b.slice().fill(0, 0, 100)],
  [
    'header overwritten with text',
    (b) => {
      const out = b.slice();
      out.set(new TextEncoder().encode('this is not the header you are looking for!'.repeat(3)));
      return out;
    },
  ],
  ['3 middle pages smashed', (b) => smashPages(b, middlePages(b, 3))],
  ['12 middle pages smashed', (b) => smashPages(b, middlePages(b, 12))],
  ['3 memory leaf pages smashed', (b) => smashPages(b, memoryLeafPages(b, 3))],
  ['the memories root page smashed', (b) => smashPages(b, [root])],
  ['200 bytes flipped in the middle third', (b) => flipMiddleBytes(b, 200)],
  [
    'garbage of the same size',
    (b) => {
      const g = new Gen(FUZZ_SEED);
      return b.map(() => g.int(256));
    },
  ],
  ['a text file', () => new TextEncoder().encode('name,value\nnot,a database\n'.repeat(500))],
];

describe('a damaged store file', () => {
  it.each(CORRUPTIONS)(
    '%s: open fails with STORE_CORRUPT or verify() finds the damage; reading writes nothing',
    async (name, corrupt) => {
      const bytes = corrupt(healthy);
      const path = join(dir, `${name.replace(/\W+/g, '-')}.db`);
      writeFileSync(path, bytes);
      // Real SQLite reads a page when it is used, and writes only the pages a write changes: the
      // open finds damage in what it reads (the schema, the counts, the stored vectors), and
      // verify() (SQLite's integrity check, FTS5's) finds the rest.
      let engine: Engine | undefined;
      try {
        engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
      } catch (e) {
        expect((e as AnamnesisError).code).toBe('STORE_CORRUPT');
        expect((e as AnamnesisError).message.length).toBeGreaterThan(0);
      }
      if (engine) {
        const problems = await engine.verify().catch((e: unknown) => [(e as AnamnesisError).code]);
        expect(problems.length, 'verify() finds the damage').toBeGreaterThan(0);
      }
      expect(Buffer.compare(readFileSync(path), bytes)).toBe(0);
      await engine?.close().catch(() => undefined);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
  );
});

describe('recoverStore', () => {
  const rates: string[] = [];
  afterAll(() => console.info(`recovery (of ${N} memories):\n  ${rates.join('\n  ')}`));

  it('returns every memory, link and usage event of a healthy store', async () => {
    const r = await recoverStore(healthy);
    expect(r).toMatchObject({ recovered: N, unreadable: 0, problems: [] });
    const engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await engine.import(r.jsonl);
    const copy = new Map(
      (await engine.export())
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => [JSON.parse(l).id as string, l]),
    );
    expect(copy.size).toBe(N);
    expect((await engine.stats()).links).toBe(Math.ceil((N - 1) / 5));
    expect((await engine.stats()).usageEvents).toBe(Math.ceil(N / 7));
    await engine.close();
  });

  it.each(CORRUPTIONS)(
    '%s: salvages whole memories only, and a fresh store imports them',
    async (name, corrupt) => {
      const bytes = corrupt(healthy);
      const before = bytes.slice();
      const r = await recoverStore(bytes);
      expect(Buffer.compare(bytes, before)).toBe(0); // never writes to its input
      rates.push(
        `${name}: ${r.recovered} recovered, ${r.unreadable} unreadable; ${r.problems.join('; ')}`,
      );
      const lines = r.jsonl.trim().split('\n');
      expect(lines).toHaveLength(r.recovered + 1);
      let metadataChanged = 0;
      for (const line of lines.slice(1)) {
        const { links: _l, usage: _u, ...m } = JSON.parse(line) as Record<string, unknown>;
        const o = original.get(m.id as string)!;
        expect(m.text).toBe(o.text); // the content hash vouches for every salvaged text
        if (JSON.stringify(m) !== JSON.stringify(o)) metadataChanged++;
      }
      // Whole pages fail structurally; only flipped bytes can alter a field SQLite cannot check.
      if (!/flipped/.test(name)) expect(metadataChanged).toBe(0);
      else if (metadataChanged > 0)
        rates.push(`  (${metadataChanged} salvaged with altered metadata)`);
      const engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
      expect(await engine.import(r.jsonl)).toBe(r.recovered);
      expect(await engine.verify()).toEqual([]);
      if (r.recovered > 0) {
        const [first] = lines.slice(1).map((l) => JSON.parse(l) as { id: string; text: string });
        const hits = await engine.recall(first!.text, { topK: 3 });
        expect(hits.map((h) => h.id)).toContain(first!.id);
      }
      await engine.close();
    },
  );

  it('keeps what the damage spared: all of it behind a lost header or root page, the rest around smashed leaves', async () => {
    const recovered = async (name: string) =>
      (await recoverStore(CORRUPTIONS.find(([n]) => n === name)![1](healthy))).recovered;
    expect(await recovered('header zeroed')).toBe(N);
    expect(await recovered('header overwritten with text')).toBe(N);
    expect(await recovered('the memories root page smashed')).toBe(N);
    expect(await recovered('3 middle pages smashed')).toBeGreaterThanOrEqual(N * 0.9);
    const leaves = memoryLeafPages(healthy, 3);
    const onLeaves = scanTableLeaves(healthy, pageSize()).rows.filter(
      (r) => r.values.length === 13 && leaves.includes(r.page),
    ).length;
    expect(onLeaves).toBeGreaterThan(0);
    // exactly the rows of the smashed leaves are lost, and reported
    const r = await recoverStore(smashPages(healthy, leaves));
    expect(r.recovered).toBe(N - onLeaves);
    expect(r.unreadable).toBe(onLeaves);
  });

  const RANDOM = Math.max(8, Math.round(FUZZ_CASES / 1000));
  it(
    `never throws, and what it returns always imports (${RANDOM} random damages, seed ${FUZZ_SEED})`,
    async () => {
      for (let i = 0; i < RANDOM; i++) {
        const g = new Gen(caseSeed(FUZZ_SEED, 'recover', i));
        let bytes: Uint8Array = healthy.slice();
        switch (g.int(4)) {
          case 0:
            bytes = bytes.slice(0, g.int(bytes.length));
            break;
          case 1:
            for (let k = 1 + g.int(50); k > 0; k--) bytes[g.int(bytes.length)] = g.int(256);
            break;
          case 2:
            bytes = smashPages(bytes, [1 + g.int(bytes.length / pageSize())]);
            break;
          default:
            bytes.fill(g.int(256), g.int(bytes.length), g.int(bytes.length));
        }
        // (a fresh store each time: a flipped byte can alter a salvaged row's time or session)
        const engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
        let r: Awaited<ReturnType<typeof recoverStore>>;
        try {
          r = await recoverStore(bytes);
          expect(await engine.import(r.jsonl)).toBe(r.recovered);
          expect(await engine.verify()).toEqual([]);
        } catch (e) {
          throw new Error(replay('recover', FUZZ_SEED, i, String(e)), { cause: e });
        }
        expect(r.recovered + r.unreadable).toBeLessThanOrEqual(N);
        await engine.close();
      }
      for (const tiny of [new Uint8Array(0), new Uint8Array(10), healthy.slice(0, 100)]) {
        expect((await recoverStore(tiny)).recovered).toBe(0);
      }
    },
    30_000 + RANDOM * 1000,
  );

  it('anamnesis recover <file> --out writes the JSON Lines and reports the counts', async () => {
    const path = join(dir, 'cli-damaged.db');
    writeFileSync(path, smashPages(healthy, memoryLeafPages(healthy, 3)));
    const out = join(dir, 'cli-recovered.jsonl');
    const lines: string[] = [];
    expect(await main(['recover', path, '--out', out], (l) => lines.push(l))).toBe(0);
    expect(existsSync(out)).toBe(true);
    const recovered = readFileSync(out, 'utf8').trim().split('\n').length - 1;
    expect(lines.join('\n')).toContain(`recovered ${recovered} memories`);
    expect(recovered).toBeGreaterThan(N * 0.8);
    const fresh = join(dir, 'cli-fresh.db');
    expect(await main(['import', '--db', fresh, out], (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toBe(`imported ${recovered} memories into ${fresh}`);
    expect(
      Buffer.compare(readFileSync(path), smashPages(healthy, memoryLeafPages(healthy, 3))),
    ).toBe(0);
  });
});
