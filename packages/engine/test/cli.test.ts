import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('prints usage for an unknown command', async () => {
    const r = await run('dance');
    expect(r.code).toBe(2);
    expect(r.out).toContain('usage:');
  });
});
