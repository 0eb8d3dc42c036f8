/**
 * A file store under what people and other processes do to it (issue 71): another process holding
 * the write lock (reads answer at once, usage waits and is saved, never dropped), the store file
 * deleted under a running engine (writes rejected, none acknowledged), and a store left behind by a
 * read-only session (writable again once its file is).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { onDisk, rejectsWith } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-reliability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long `p` took to settle, in ms, and its value. */
async function timed<T>(p: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await p();
  return { ms: performance.now() - t, value };
}

describe('another process holds the write lock', () => {
  it('recall, list, get and stats answer at once; usage made meanwhile is saved once it lets go, none lost', async () => {
    const path = join(dir, 'locked.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const ids = await engine.rememberMany(
      ['garden note about tomatoes', 'garden note about basil', 'kitchen note about bread'].map(
        (text) => ({ text }),
      ),
    );
    // retrieved events queued before the lock is taken, saved by the next call
    const before = await engine.recall('garden note', { noCache: true });
    expect(before.length).toBeGreaterThan(0);
    const other = onDisk(path);
    other.exec('BEGIN IMMEDIATE');
    const heldFrom = performance.now();
    const release = sleep(3000).then(() => other.exec('COMMIT'));
    try {
      // a write waits for the lock without holding up the reads beside it
      const used = engine.markUsed(ids[2]!, 'used');
      const during = await timed(() => engine.recall('garden note', { noCache: true }));
      expect(during.ms).toBeLessThan(1000);
      expect(during.value.length).toBeGreaterThan(0);
      const listed = await timed(() => engine.list());
      expect(listed.ms).toBeLessThan(1000);
      expect(listed.value).toHaveLength(3);
      const got = await timed(() => engine.get(ids[0]!));
      expect(got.ms).toBeLessThan(1000);
      expect(got.value?.id).toBe(ids[0]);
      const stats = await timed(() => engine.stats());
      expect(stats.ms).toBeLessThan(1000);
      expect(stats.value.usageQueue.pending).toBe(before.length + during.value.length);
      expect(stats.value.usageQueue.dropped).toBe(0);
      expect(performance.now() - heldFrom).toBeLessThan(2500); // all of it while the lock was held
      await release;
      await used;
      // the queued usage is saved at a call once the lock is free (or by its own retry)
      for (let i = 0; i < 100 && (await engine.stats()).usageQueue.pending > 0; i++)
        await sleep(50);
      const usage = (await engine.stats()).usageQueue;
      expect(usage).toEqual({ pending: 0, dropped: 0 });
      const disk = onDisk(path, { readonly: true });
      try {
        const count = (event: string) =>
          Number(disk.selectValue('SELECT count(*) FROM usage WHERE event = ?', [event]));
        expect(count('retrieved')).toBe(before.length + during.value.length);
        expect(count('used')).toBe(1);
      } finally {
        disk.close();
      }
    } finally {
      await release;
      other.close();
      await engine.close();
    }
  }, 20_000);
});

describe('the store file deleted under a running engine', () => {
  it('the next write is STORE_NOT_FOUND, none is acknowledged after, and the error says so', async () => {
    const path = join(dir, 'deleted.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await engine.remember({ text: 'written before the store was deleted' });
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const error = await rejectsWith(
        engine.remember({ text: `written after the store was deleted ${i}` }).then((id) => {
          acknowledged.push(id);
        }),
        'STORE_NOT_FOUND',
      );
      expect(error.message).toMatch(/deleted, moved or replaced/);
      expect(error.details).toMatchObject({ path });
    }
    expect(acknowledged).toEqual([]);
    await rejectsWith(engine.list(), 'STORE_NOT_FOUND'); // reads say it too
    await engine.close();
    // nothing acknowledged was lost: a store opened at the path now is a new, empty one
    const fresh = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    expect((await fresh.stats()).memories).toBe(0);
    await fresh.close();
  });

  it('a store replaced by another file at its path is noticed too', async () => {
    const path = join(dir, 'replaced.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await engine.remember({ text: 'written before the store was replaced' });
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const other = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await other.remember({ text: 'the new store at the same path' });
    await rejectsWith(engine.remember({ text: 'into the old one' }), 'STORE_NOT_FOUND');
    await engine.close();
    expect((await other.stats()).memories).toBe(1);
    await other.close();
  });
});

describe('a store left behind by a read-only session', () => {
  it('is written again once its file is writable (the stale -shm and -wal fixed)', async () => {
    const path = join(dir, 'read-only.db');
    let engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await engine.remember({
      id: 'first',
      text: 'a note written before the store was made read-only',
    });
    await engine.close();
    // a session on the read-only file: SQLite gives the -shm (and a -wal) the file's mode, 0444
    chmodSync(path, 0o444);
    engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    expect((await engine.list()).map((m) => m.id)).toEqual(['first']);
    await engine.close();
    // what such a session leaves (written here, as root would not leave it: root's session is
    // not read-only)
    for (const suffix of ['-shm', '-wal']) {
      if (!existsSync(path + suffix)) writeFileSync(path + suffix, '');
      chmodSync(path + suffix, 0o444);
    }
    // the person makes the file writable again
    chmodSync(path, 0o644);
    engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await engine.remember({ id: 'second', text: 'a note written once the file is writable again' });
    // fixed at open: the files SQLite writes beside the store are writable by their owner again
    // (a user other than root failed every write before: "attempt to write a readonly database";
    // run as root, as CI is, SQLite itself replaces the stale files and this only checks the
    // writes: the failure before the fix was seen as uid 65534)
    for (const suffix of ['-shm', '-wal'])
      if (existsSync(path + suffix)) expect(statSync(path + suffix).mode & 0o200).toBe(0o200);
    expect((await engine.list()).map((m) => m.id).sort()).toEqual(['first', 'second']);
    await engine.close();
  });
});
