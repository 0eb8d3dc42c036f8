/**
 * `engine.backup(dest)` and `anamnesis backup` (issue 71): a consistent copy of a live file store
 * while another process writes (where `cp` of the store file gives an old copy: the newest pages
 * are in its `-wal`), an encrypted store's copy encrypted under the same passphrase, a destination
 * that exists never overwritten; and `recover` on an encrypted store says that it is encrypted.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/cli.ts';
import { createEngine, recoverStore } from '../src/index.ts';
import { defaultEmbedder, rejectsWith, writer } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('backup of a live store', () => {
  it('while another process writes: the copy holds every memory acknowledged before it, verifies clean, and cp of the file alone does not', async () => {
    const path = join(dir, 'live.db');
    const embedder = await defaultEmbedder();
    const here = await createEngine({ storage: 'file', path, embedder });
    const before = await here.rememberMany(
      Array.from({ length: 40 }, (_, i) => ({ text: `kept before the backup, note ${i}` })),
    );
    const other = writer(path, 'during', 30);
    // the backup is taken while the other process is writing
    while (other.acked.length < 5) await new Promise((r) => setTimeout(r, 20));
    const acked = [...other.acked];
    const dest = join(dir, 'live-backup.db');
    const result = await here.backup(dest);
    expect(result).toMatchObject({ path: dest, encrypted: false });
    expect(result.bytes).toBeGreaterThan(4096);
    // what `cp` gives of the same live store: the file without its -wal
    copyFileSync(path, join(dir, 'cp-copy.db'));
    expect(await other.done).toBe(0);
    await here.close();

    const copy = await createEngine({ storage: 'file', path: dest, embedder, create: false });
    const ids = new Set((await copy.list({ limit: 1000 })).map((m) => m.id));
    for (const id of [...before, ...acked]) expect(ids.has(id)).toBe(true);
    expect(await copy.verify()).toEqual([]);
    expect((await copy.recall('kept before the backup note 7'))[0]?.text).toBe(
      'kept before the backup, note 7',
    );
    await copy.close();
    expect(readFileSync(dest).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect((await recoverStore(join(dir, 'cp-copy.db'))).recovered).toBeLessThan(before.length);
  });

  it('an encrypted store: the copy is encrypted (no plaintext), opens with the same passphrase and not without', async () => {
    const path = join(dir, 'locked.db');
    const encryption = { passphrase: 'a passphrase of some length' };
    const embedder = await defaultEmbedder();
    const engine = await createEngine({ storage: 'file', path, embedder, encryption });
    await engine.remember({ text: 'the vault code is behind the painting of tulips' });
    const dest = join(dir, 'locked-backup.db');
    expect(await engine.backup(dest)).toMatchObject({ encrypted: true });
    await engine.close();
    const bytes = readFileSync(dest);
    for (const word of ['tulips', 'painting', 'SQLite format 3'])
      expect(bytes.includes(Buffer.from(word))).toBe(false);
    await rejectsWith(
      createEngine({ storage: 'file', path: dest, embedder, create: false }),
      'ENCRYPTION_MISMATCH',
    );
    const copy = await createEngine({
      storage: 'file',
      path: dest,
      embedder,
      encryption,
      create: false,
    });
    expect((await copy.recall('vault code'))[0]?.text).toContain('tulips');
    await copy.close();
    // recover cannot read an encrypted store's pages: it says so instead of "damaged"
    const e = await rejectsWith(recoverStore(dest), 'ENCRYPTION_MISMATCH');
    expect(e.message).toMatch(/encrypted/);
  });

  it('a destination that exists is never overwritten, a memory store has no file to copy, and the CLI writes a backup', async () => {
    const path = join(dir, 'cli.db');
    const embedder = await defaultEmbedder();
    const engine = await createEngine({ storage: 'file', path, embedder });
    await engine.remember({ text: 'a note for the command line backup' });
    const taken = join(dir, 'taken.db');
    writeFileSync(taken, 'someone else’s file');
    await rejectsWith(engine.backup(taken), 'INVALID_INPUT');
    expect(readFileSync(taken, 'utf8')).toBe('someone else’s file');
    await engine.close();
    const memory = await createEngine({ storage: 'memory', embedder });
    await rejectsWith(memory.backup(join(dir, 'memory.db')), 'INVALID_INPUT');
    await memory.close();

    const lines: string[] = [];
    const dest = join(dir, 'cli-backup.db');
    expect(await main(['backup', '--db', path, dest], (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toMatch(/backed up .*cli\.db to .*cli-backup\.db/);
    const copy = await createEngine({ storage: 'file', path: dest, embedder, create: false });
    expect((await copy.list()).map((m) => m.text)).toEqual(['a note for the command line backup']);
    await copy.close();
  });
});
