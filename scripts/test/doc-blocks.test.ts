/**
 * Every fenced code block of README.md, docs/**\/*.md and packages/*\/README.md is run by a test
 * or marked as not code to run (`scripts/doc-blocks.ts`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { allBlocks, docBlock, parseBlocks, REPO } from '../doc-blocks.ts';

const blocks = allBlocks();

describe('code blocks in the docs', () => {
  it('finds the blocks the README quick starts are made of', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(7);
    expect(new Set(blocks.map((b) => b.file)).size).toBeGreaterThan(5);
  });

  it('every block is marked: run by a test, or not run and why', () => {
    const unmarked = blocks
      .filter((b) => b.marker === null)
      .map((b) => `${b.file}:${b.line} (${b.lang || 'no language'}, under "${b.heading}")`);
    expect(
      unmarked,
      'add <!-- block: run by FILE --> or <!-- block: not run, REASON --> before each',
    ).toEqual([]);
  });

  it('a runner named exists and reads the block: its file and its section', () => {
    const wrong: string[] = [];
    for (const b of blocks) {
      if (!b.marker || !('runBy' in b.marker)) continue;
      const runner = join(REPO, b.marker.runBy);
      if (!existsSync(runner)) {
        wrong.push(`${b.file}:${b.line}: ${b.marker.runBy} does not exist`);
        continue;
      }
      const source = readFileSync(runner, 'utf8');
      if (!source.includes(b.file))
        wrong.push(`${b.file}:${b.line}: ${b.marker.runBy} never names ${b.file}`);
      if (!source.includes(b.heading))
        wrong.push(`${b.file}:${b.line}: ${b.marker.runBy} never names the section "${b.heading}"`);
    }
    expect(wrong).toEqual([]);
  });

  it('a reason is given for a block not run', () => {
    for (const b of blocks)
      if (b.marker && 'notRun' in b.marker)
        expect(b.marker.notRun.trim().length).toBeGreaterThan(3);
  });

  it('a test reads only the blocks marked as run by it', () => {
    const consumers = 'e2e/consumers/consumers.spec.ts';
    expect(docBlock('README.md', 'Install', 'sh', consumers)).toContain(
      'npm install @anamnesis/client',
    );
    // marked as run by .ci/run, not by the consumer test
    expect(() => docBlock('README.md', 'Set-up: two commands', 'sh', consumers)).toThrow(
      /not marked "<!-- block: run by e2e\/consumers\/consumers.spec.ts -->"/,
    );
    // marked as not run
    expect(() => docBlock('docs/extension.md', '', 'sh', consumers)).toThrow(/not marked/);
  });

  it('parses fences, sections and markers', () => {
    const md = [
      '# Title',
      '## One',
      '<!-- block: run by e2e/x.spec.ts -->',
      '',
      '```sh',
      'echo 1',
      '```',
      '### Two',
      '````md',
      '```ts',
      'inner',
      '```',
      '````',
      '<!-- block: not run, output -->',
      '```',
      'out',
      '```',
    ].join('\n');
    expect(parseBlocks('x.md', md)).toEqual([
      {
        file: 'x.md',
        line: 5,
        heading: 'One',
        lang: 'sh',
        code: 'echo 1\n',
        marker: { runBy: 'e2e/x.spec.ts' },
      },
      {
        file: 'x.md',
        line: 9,
        heading: 'Two',
        lang: 'md',
        code: '```ts\ninner\n```\n',
        marker: null,
      },
      {
        file: 'x.md',
        line: 15,
        heading: 'Two',
        lang: '',
        code: 'out\n',
        marker: { notRun: 'output' },
      },
    ]);
  });
});
