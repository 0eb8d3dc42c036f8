/**
 * Failure keeps memory and disk in step (issue 39), on a real file system: a full disk (a 1 MiB
 * tmpfs) fails a write with QUOTA_EXCEEDED and a retry fails again (never "succeeds" from what the
 * engine keeps in memory); what the engine answers before a restart is what the file holds after
 * it. A read-only store fails with READ_ONLY, every time. The mounts need root (CI runs as root);
 * elsewhere these tests are skipped and say why.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder, rejectsWith } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-disk-'));

/** Mounts a 1 MiB tmpfs on `dir`; returns why it could not (not root, no mount). */
function mountTmpfs(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (e) {
    return `mount -t tmpfs is not permitted here (${(e as Error).message.split('\n')[0]})`;
  }
}
const skipped = mountTmpfs();
afterAll(() => {
  if (!skipped) execFileSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
});

/** What an engine answers about the store: every memory's id and text, and a recall. */
async function view(engine: Engine): Promise<unknown> {
  const listed = (await engine.list({ limit: 1000 })).map((m) => [m.id, m.text]).sort();
  const recalled = (await engine.recall('note', { topK: 50, noCache: true })).map((r) => r.id);
  return { listed, recalled: recalled.sort() };
}

/** Fills the file system of `dir` with a file of zeros until it is full. */
function fill(path: string): void {
  const chunk = Buffer.alloc(4096);
  let size = 0;
  for (;;) {
    try {
      writeFileSync(path, chunk, { flag: 'a' });
      size += chunk.length;
    } catch {
      return;
    }
    if (size > 4 << 20) throw new Error('the tmpfs does not fill');
  }
}

describe.skipIf(skipped !== undefined)(
  `disk failures${skipped ? `: skipped, ${skipped}` : ''}`,
  () => {
    it('a full disk: remember fails with QUOTA_EXCEEDED, the retry fails too, and a restart shows what the engine showed', async () => {
      const path = join(dir, 'full.db');
      const filler = join(dir, 'filler');
      const embedder = await defaultEmbedder();
      const engine = await createEngine({ storage: 'file', path, embedder });
      const kept = await engine.remember({ text: 'a note that was saved before the disk filled' });
      fill(filler);
      const big = { text: `a note that cannot be saved: ${'words of a long note '.repeat(8000)}` };
      await rejectsWith(engine.remember(big), 'QUOTA_EXCEEDED');
      await rejectsWith(engine.remember(big), 'QUOTA_EXCEEDED');
      expect((await engine.recall('cannot be saved')).map((r) => r.text)).not.toContain(big.text);
      // a forget on the full disk either fails (and the note stays) or is saved: never in between
      const code = (e: unknown) => (e as { code: string }).code;
      const forgot = await engine.forget(kept).catch(code);
      expect([1, 'QUOTA_EXCEEDED']).toContain(forgot);
      if (forgot !== 1) expect(await engine.forget(kept).catch(code)).toBe('QUOTA_EXCEEDED');
      const before = await view(engine);
      expect(JSON.stringify(before).includes('cannot be saved')).toBe(false);
      rmSync(filler);
      await engine.close();
      const reopened = await createEngine({ storage: 'file', path, embedder });
      expect(await view(reopened)).toEqual(before);
      expect(await reopened.verify()).toEqual([]);
      // with room again, the same write is saved
      const id = await reopened.remember(big);
      expect((await reopened.get(id))?.text).toBe(big.text);
      await reopened.close();
      rmSync(path); // room for the next tests on the same 1 MiB
    });

    it('a read-only store file: every write fails with READ_ONLY, reads work, nothing is lost', async () => {
      const path = join(dir, 'readonly-file.db');
      const embedder = await defaultEmbedder();
      const a = await createEngine({ storage: 'file', path, embedder });
      await a.remember({ text: 'a note kept in a store made read-only' });
      await a.close();
      // a read-only bind mount of the file alone (chmod does not stop root)
      execFileSync('mount', ['--bind', path, path]);
      execFileSync('mount', ['-o', 'remount,ro,bind', path]);
      try {
        const b = await createEngine({ storage: 'file', path, embedder });
        expect((await b.stats()).backendReason).toContain('read-only');
        const before = await view(b);
        await rejectsWith(b.remember({ text: 'a note that cannot be written' }), 'READ_ONLY');
        await rejectsWith(b.remember({ text: 'a note that cannot be written' }), 'READ_ONLY');
        expect(await view(b)).toEqual(before);
        await b.close();
      } finally {
        execFileSync('umount', [path]);
      }
      const c = await createEngine({ storage: 'file', path, embedder });
      expect((await c.stats()).memories).toBe(1);
      expect((await c.recall('cannot be written')).map((r) => r.text)).not.toContain(
        'a note that cannot be written',
      );
      await c.close();
    });

    it('a read-only folder: the open fails with READ_ONLY, every time; the store is as it was', async () => {
      // a folder of its own (the 1 MiB one may be full from the tests before)
      const folder = join(dir, 'folder');
      mkdirSync(folder);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', folder]);
      try {
        const path = join(folder, 'readonly-folder.db');
        const embedder = await defaultEmbedder();
        const a = await createEngine({ storage: 'file', path, embedder });
        await a.remember({ text: 'a note kept in a read-only folder' });
        await a.close();
        execFileSync('mount', ['-o', 'remount,ro', folder]);
        try {
          await rejectsWith(createEngine({ storage: 'file', path, embedder }), 'READ_ONLY');
          await rejectsWith(createEngine({ storage: 'file', path, embedder }), 'READ_ONLY');
          await rejectsWith(
            createEngine({ storage: 'file', path: join(folder, 'new.db'), embedder }),
            'READ_ONLY',
          );
        } finally {
          execFileSync('mount', ['-o', 'remount,rw', folder]);
        }
        const b = await createEngine({ storage: 'file', path, embedder });
        expect((await b.stats()).memories).toBe(1);
        await b.close();
      } finally {
        execFileSync('umount', [folder]);
      }
    });
  },
);
