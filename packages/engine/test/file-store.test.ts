/**
 * The file store on disk: real SQLite in WAL mode. A new store is readable by its owner only (its
 * `-wal` and `-shm` files too), nothing is left beside it after a clean close, names a writer of
 * temporary copies would have used are never touched, and a store written by an older version
 * (one SQLite file, rollback journal, schema 5) opens as it is.
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
import { SCHEMA_VERSION } from '../src/store/schema.ts';
import { defaultEmbedder, onDisk } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file store on disk', () => {
  it('writes no temporary copy: planted names stay untouched, nothing is left beside the store', async () => {
    const path = join(dir, 'planted.db');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    // the names the old writer (a temporary copy, then a rename) would have used
    for (const name of [`${path}.${process.pid}.tmp`, `${path}.tmp`]) symlinkSync(victim, name);
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
    // the log and the shared-memory file go with the last connection
    expect(readdirSync(dir).sort()).toEqual(
      ['planted.db', `planted.db.${process.pid}.tmp`, 'planted.db.tmp', 'victim.txt'].sort(),
    );
  });

  it.skipIf(process.platform === 'win32')(
    'creates the store readable by its owner only (0600), its -wal and -shm files too',
    async () => {
      const path = join(dir, 'private.db');
      const engine = await createEngine({
        storage: 'file',
        path,
        embedder: await defaultEmbedder(),
      });
      await engine.remember({ text: 'a private note' });
      for (const file of [path, `${path}-wal`, `${path}-shm`])
        expect(statSync(file).mode & 0o777, file).toBe(0o600);
      await engine.close();
      expect(statSync(path).mode & 0o777).toBe(0o600);
    },
  );

  it('a store of the previous format (rollback journal, schema 5) opens as it is, and keeps its memories', async () => {
    const path = join(dir, 'old.db');
    const embedder = await defaultEmbedder();
    const a = await createEngine({ storage: 'file', path, embedder });
    const ids = await a.rememberMany([
      { text: 'a note from the previous version', tags: ['old'] },
      { text: 'another note it wrote' },
    ]);
    await a.markUsed(ids[0]!, 'used');
    await a.close();
    // what the previous version left: no migrations 6 and 7, a rollback journal
    const db = onDisk(path);
    db.exec(`DROP TABLE memories_vocab; DROP TABLE memories_words; DROP TRIGGER memories_changes_ai; DROP TRIGGER memories_changes_ad;
      DROP TRIGGER memories_changes_au; DROP TRIGGER embeddings_changes_ai;
      DROP TRIGGER embeddings_changes_ad; DROP TRIGGER embeddings_changes_au;
      DROP TABLE changes; DROP TABLE usage_folded; DROP INDEX usage_at; DROP TABLE usage_devices;
          DROP INDEX usage_feedback;
      PRAGMA user_version = 5; PRAGMA journal_mode = DELETE`);
    db.close();
    expect(readFileSync(path)[18]).toBe(1); // the file format's write version: rollback journal
    const b = await createEngine({ storage: 'file', path, embedder });
    expect((await b.stats()).schemaVersion).toBe(SCHEMA_VERSION);
    expect((await b.recall('previous version', { topK: 1 }))[0]!.id).toBe(ids[0]);
    expect(await b.verify()).toEqual([]);
    await b.close();
    expect(readFileSync(path)[18]).toBe(2); // WAL from now on
  });
});
