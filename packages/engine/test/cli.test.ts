import { execFile } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/cli.ts';
import { defaultStorePath } from '../src/storage/store-path.ts';
import { createEngine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENGINE = join(import.meta.dirname, '..');
const BIN = join(ENGINE, 'src', 'bin.ts');
const NODE = ['--conditions=@anamnesis/source', '--import', 'tsx'];

async function run(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

describe('anamnesis CLI', () => {
  it('ingests JSON Lines and text files, recalls with explain, reports stats, exports', async () => {
    const db = join(dir, 'cli.db');
    const jsonl = join(dir, 'in.jsonl');
    const txt = join(dir, 'recipe.txt');
    writeFileSync(
      jsonl,
      [
        '{"id":"k","text":"I adopted a kitten named Luna","tags":["pets"]}',
        '{"text":"Tax deadline is April 15"}',
      ].join('\n'),
    );
    writeFileSync(txt, 'Sourdough: flour, water, salt, starter.');
    expect(await run('ingest', '--db', db, jsonl, txt)).toEqual({
      code: 0,
      out: `ingested 3 memories into ${db}`,
    });
    const recall = await run('recall', '--db', db, '--top', '1', 'tax', 'deadline');
    expect(recall.code).toBe(0);
    expect(recall.out).toMatch(/^1\. \[.*\] .* Tax deadline is April 15/);
    expect(recall.out).toContain('leg fts');
    expect(recall.out).toContain('+ rrf:fts');
    const stats = JSON.parse((await run('stats', '--db', db)).out) as {
      memories: number;
      backend: string;
      usageEvents: number;
    };
    expect(stats).toMatchObject({ memories: 3, backend: 'file' });
    expect(stats.usageEvents).toBe(1);
    const exported = (await run('export', '--db', db)).out.split('\n');
    expect(exported).toHaveLength(4);
    expect(JSON.parse(exported[1]!)).toMatchObject({ id: 'k', tags: ['pets'] });
  });

  it('ingest takes createdAt as ISO 8601; import refuses one id on two lines, naming them (issue 71)', async () => {
    const db = join(dir, 'dates.db');
    const jsonl = join(dir, 'dates.jsonl');
    writeFileSync(
      jsonl,
      [
        '{"id":"d","text":"Dentist on Friday","createdAt":"2026-06-12"}',
        '{"id":"f","text":"Flight to Lisbon","createdAt":"2026-06-12T11:30:00+02:00"}',
      ].join('\n'),
    );
    expect((await run('ingest', '--db', db, jsonl)).code).toBe(0);
    const exported = (await run('export', '--db', db)).out.split('\n').slice(1);
    expect(exported.map((l) => (JSON.parse(l) as { createdAt: number }).createdAt)).toEqual([
      Date.UTC(2026, 5, 12),
      Date.UTC(2026, 5, 12, 9, 30),
    ]);
    const twice = join(dir, 'twice.jsonl');
    writeFileSync(
      twice,
      [
        '{"id":"x","text":"the first x","updatedAt":"2026-06-13T08:00:00Z"}',
        '{"id":"y","text":"y"}',
        '{"id":"x","text":"the second x"}',
      ].join('\n'),
    );
    const fresh = join(dir, 'twice.db');
    await expect(run('import', '--db', fresh, twice)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('lines 1 and 3 both have the id "x"') as string,
    });
    expect(JSON.parse((await run('stats', '--db', fresh)).out)).toMatchObject({ memories: 0 });
  });

  it('ingests a long text file as passages, each found by its own words (issue 41)', async () => {
    const db = join(dir, 'passages.db');
    const essay = join(dir, 'essay.txt');
    const paragraphs = Array.from(
      { length: 100 },
      (_, i) =>
        `Paragraph ${i}: ${i === 70 ? 'The zqlighthouse keeper logs ships at dawn. ' : ''}${'The tide came in slowly over the flats. '.repeat(10)}`,
    );
    writeFileSync(essay, paragraphs.join('\n\n'));
    expect(readFileSync(essay, 'utf8').length).toBeGreaterThan(40_000);
    const ingested = await run('ingest', '--db', db, essay);
    const count = Number(/^ingested (\d+) memories/.exec(ingested.out)?.[1]);
    expect(count).toBeGreaterThan(50);
    const engine = await createEngine({ storage: 'file', path: db });
    try {
      const stored = await engine.list({ limit: 1000 });
      expect(stored).toHaveLength(count);
      for (const m of stored) {
        expect(m.text.length).toBeLessThanOrEqual(800);
        expect(m).toMatchObject({ kind: 'file', meta: { source: 'essay.txt', chunks: count } });
      }
      expect(stored.map((m) => m.meta.chunk).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: count }, (_, i) => i),
      );
      const [hit] = await engine.recall('zqlighthouse keeper', { tokenBudget: 1000 });
      expect(hit?.text).toContain('Paragraph 70: The zqlighthouse keeper');
    } finally {
      await engine.close();
    }
    // the file ingested again, changed: its passages are replaced, not added to
    writeFileSync(essay, 'A short note now.\n\nOnly two paragraphs.');
    expect((await run('ingest', '--db', db, essay)).out).toBe(`ingested 1 memories into ${db}`);
    const after = await createEngine({ storage: 'file', path: db });
    try {
      expect((await after.list({ limit: 1000 })).map((m) => m.text)).toEqual([
        'A short note now.\nOnly two paragraphs.',
      ]);
    } finally {
      await after.close();
    }
  });

  it('mcp without @anamnesis/mcp installed: exits 1 and says what to install', async () => {
    const bin = join(import.meta.dirname, '../src/bin.ts');
    const failed = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@anamnesis/source',
        '--import',
        'tsx',
        bin,
        'mcp',
        '--db',
        join(dir, 'mcp.db'),
      ],
      // NODE_PATH out: pnpm's bin shims point it at the workspace's hoisted packages, mcp among them
      {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, NODE_PATH: '' },
        timeout: 25_000,
      },
    ).then(
      () => null,
      (e: unknown) => e as { code: number; stdout: string; stderr: string },
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toMatch(
      /^UNSUPPORTED: .*anamnesis mcp needs the @anamnesis\/mcp package, which is not installed: .*npm install @anamnesis\/mcp/,
    );
  });

  it('an encrypted store through ANAMNESIS_PASSPHRASE: created encrypted, read back with it, ENCRYPTION_MISMATCH without it, WRONG_PASSPHRASE with another', async () => {
    const db = join(dir, 'secret.db');
    const input = join(dir, 'secret.jsonl');
    writeFileSync(input, '{"text":"the spare key is under the blue flowerpot"}\n');
    const saved = process.env.ANAMNESIS_PASSPHRASE;
    try {
      process.env.ANAMNESIS_PASSPHRASE = 'a passphrase for the CLI';
      expect((await run('ingest', '--db', db, input)).code).toBe(0);
      expect(readFileSync(db).includes(Buffer.from('flowerpot'))).toBe(false);
      expect((await run('recall', '--db', db, 'flowerpot')).out).toMatch(/blue flowerpot/);
      process.env.ANAMNESIS_PASSPHRASE = 'another one';
      await expect(run('stats', '--db', db)).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
      delete process.env.ANAMNESIS_PASSPHRASE;
      await expect(run('stats', '--db', db)).rejects.toMatchObject({
        code: 'ENCRYPTION_MISMATCH',
      });
    } finally {
      if (saved === undefined) delete process.env.ANAMNESIS_PASSPHRASE;
      else process.env.ANAMNESIS_PASSPHRASE = saved;
    }
  });

  it('prints usage for an unknown command', async () => {
    const r = await run('dance');
    expect(r.code).toBe(2);
    expect(r.out).toContain('usage:');
  });

  it('recover refuses an --out that is the store itself: by another path, a symlink or a hard link', async () => {
    const store = join(dir, 'damaged.db');
    const engine = await createEngine({
      storage: 'file',
      path: store,
      embedder: await defaultEmbedder(),
    });
    await engine.rememberMany([{ text: 'first memory' }, { text: 'second memory' }]);
    await engine.close();
    const bytes = readFileSync(store);
    symlinkSync(store, join(dir, 'link.db'));
    linkSync(store, join(dir, 'hard.db'));
    for (const out of [
      store,
      join(dir, '.', '..', 'anamnesis-cli-x', '..', dir.split('/').pop()!, 'damaged.db'),
      join(dir, 'link.db'),
      join(dir, 'hard.db'),
    ]) {
      await expect(run('recover', store, '--out', out), out).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('never writes to'),
      });
      expect(readFileSync(store).equals(bytes), out).toBe(true);
    }
    // the store named through a symlink, --out the real file
    await expect(run('recover', join(dir, 'link.db'), '--out', store)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(readFileSync(store).equals(bytes)).toBe(true);
    // the command itself exits non-zero and says why
    const bin = join(import.meta.dirname, '../src/bin.ts');
    const failed = await promisify(execFile)(process.execPath, [
      '--conditions=@anamnesis/source',
      '--import',
      'tsx',
      bin,
      'recover',
      store,
      '--out',
      join(dir, 'link.db'),
    ]).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^INVALID_INPUT: .*never writes to/);
    expect(readFileSync(store).equals(bytes)).toBe(true);
    // another file is written as before
    const salvage = join(dir, 'salvage.jsonl');
    const ok = await run('recover', store, '--out', salvage);
    expect(ok.code).toBe(0);
    expect(readFileSync(salvage, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('prints stored text without terminal control sequences; export stays lossless', async () => {
    const db = join(dir, 'escapes.db');
    const hostile =
      'zqescape title\x1b]0;owned window\x07 clear\x1b[2J\x1b[H link \x1b]8;;https://evil.example/\x1b\\' +
      'https://bank.example\x1b]8;;\x1b\\ c1\x9b2J bell\x07';
    const input = join(dir, 'escapes.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'id\x1b[31m\x9d0;x\x07', text: hostile })}\n`);
    expect((await run('ingest', '--db', db, input)).code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the characters under test
    const active = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
    const recall = await run('recall', '--db', db, 'zqescape');
    expect(recall.out).toContain('zqescape');
    expect(recall.out).toContain('https://bank.example');
    expect(recall.out).not.toMatch(active);
    expect(recall.out).not.toContain('evil.example');
    expect(recall.out).not.toContain('owned window');
    const exported = await run('export', '--db', db);
    expect(exported.out).not.toMatch(active);
    const lines = exported.out
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: string; text?: string });
    expect(lines.find((l) => l.text !== undefined)).toMatchObject({
      id: 'id\x1b[31m\x9d0;x\x07',
      text: hostile,
    });
    const stats = await run('stats', '--db', db);
    expect(stats.out).not.toMatch(active);
  });

  it('stats, recall and export on a store that does not exist say so (STORE_NOT_FOUND) and create nothing', async () => {
    const missing = join(dir, 'mistyped.db');
    for (const argv of [
      ['stats', '--db', missing],
      ['recall', '--db', missing, 'kitten'],
      ['export', '--db', missing],
    ]) {
      await expect(run(...argv), argv.join(' ')).rejects.toMatchObject({
        code: 'STORE_NOT_FOUND',
        message: expect.stringContaining(missing),
      });
      expect(existsSync(missing), argv.join(' ')).toBe(false);
    }
    // the command exits 1 and says why on stderr
    const failed = await promisify(execFile)(process.execPath, [
      ...NODE,
      BIN,
      'stats',
      '--db',
      missing,
    ]).then(
      () => null,
      (e: unknown) => e as { code: number; stdout: string; stderr: string },
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^STORE_NOT_FOUND: .*mistyped\.db/);
    expect(existsSync(missing)).toBe(false);
    // ingest and import create it
    const input = join(dir, 'one.jsonl');
    writeFileSync(input, '{"text":"a kitten named Luna"}\n');
    expect((await run('ingest', '--db', missing, input)).code).toBe(0);
    expect((await run('stats', '--db', missing)).code).toBe(0);
  });

  it("the default store is the MCP server's: ~/.anamnesis/memory.db, its folder created by ingest", async () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    expect(defaultStorePath(home)).toBe(join(home, '.anamnesis', 'memory.db'));
    const input = join(dir, 'home.jsonl');
    writeFileSync(input, '{"text":"the default store"}\n');
    const env = { ...process.env, HOME: home, USERPROFILE: home };
    const exec = (...argv: string[]) =>
      promisify(execFile)(process.execPath, [...NODE, BIN, ...argv], { env, cwd: ENGINE });
    const missing = await exec('stats').then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(missing?.stderr).toMatch(/^STORE_NOT_FOUND: .*\.anamnesis.memory\.db/);
    const ingested = await exec('ingest', input);
    expect(ingested.stdout.trim()).toBe(
      `ingested 1 memories into ${join(home, '.anamnesis', 'memory.db')}`,
    );
    expect(statSync(join(home, '.anamnesis', 'memory.db')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(ENGINE, 'anamnesis.db'))).toBe(false); // the old default, in the cwd
    expect(JSON.parse((await exec('stats')).stdout)).toMatchObject({ memories: 1 });
  });

  it('recover --out writes a new file, mode 0600, never through a symlink or over a file', async () => {
    const store = join(dir, 'to-recover.db');
    const engine = await createEngine({ storage: 'file', path: store, embedder: 'tfidf' });
    await engine.remember({ text: 'a private memory' });
    await engine.close();
    const out = join(dir, 'recovered.jsonl');
    expect((await run('recover', store, '--out', out)).code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).toContain('a private memory');
    // a symlink planted at --out is not followed: its target stays as it was
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'untouched');
    const planted = join(dir, 'planted.jsonl');
    symlinkSync(target, planted);
    await expect(run('recover', store, '--out', planted)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
    // an existing file is not overwritten either
    await expect(run('recover', store, '--out', out)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('exists'),
    });
  });
});
