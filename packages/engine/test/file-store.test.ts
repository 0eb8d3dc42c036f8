/**
 * The file store's writes on a shared machine: its temporary file is created exclusively under an
 * unpredictable name (a planted symlink is never followed), and the store is readable by its
 * owner only.
 */
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file store writes', () => {
  it('never writes through a planted temporary-file symlink; leaves no temporary file', async () => {
    const path = join(dir, 'planted.db');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    // the name a writer of `${path}.${pid}.tmp` would use, and a few neighbours
    for (const name of [`${path}.${process.pid}.tmp`, `${path}.tmp`, `${path}-journal`]) {
      symlinkSync(victim, name);
    }
    const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
    await engine.remember({ text: 'a memory written next to planted links' });
    await engine.remember({ text: 'and a second one' });
    await engine.close();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(`${path}.${process.pid}.tmp`).isSymbolicLink()).toBe(true);
    const reopened = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
    });
    expect((await reopened.stats()).memories).toBe(2);
    await reopened.close();
    // nothing left beside the store but what was planted
    expect(readdirSync(dir).sort()).toEqual(
      [
        'planted.db',
        `planted.db.${process.pid}.tmp`,
        'planted.db-journal',
        'planted.db.tmp',
        'victim.txt',
      ].sort(),
    );
  });

  it.skipIf(process.platform === 'win32')(
    'creates the store readable by its owner only (0600)',
    async () => {
      const path = join(dir, 'private.db');
      const engine = await createEngine({
        storage: 'file',
        path,
        embedder: await defaultEmbedder(),
      });
      await engine.remember({ text: 'a private note' });
      await engine.close();
      expect(statSync(path).mode & 0o777).toBe(0o600);
    },
  );
});
