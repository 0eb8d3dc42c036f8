import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';

/**
 * Forget means gone (issue 71): after `forget` or an `update` that replaces a text, and `close`,
 * the removed words are nowhere in the store's file or its `-wal` (not in the rows' pages, free
 * pages or the lexical indexes).
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The store's files as bytes, joined (the file, and its -wal and -shm where they are). */
function onDisk(path: string): Buffer {
  return Buffer.concat(
    ['', '-wal', '-shm'].filter((s) => existsSync(path + s)).map((s) => readFileSync(path + s)),
  );
}

const SECRET = ['zanzibarquartz', 'plumbagoviolet', 'kestrelmarmalade'];

describe('forgotten text on disk', () => {
  it('a forgotten memory and an overwritten text leave no word in the file store after close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anamnesis-forget-'));
    dirs.push(dir);
    const path = join(dir, 'memory.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await engine.rememberMany(
      Array.from({ length: 200 }, (_, i) => ({
        text: `Ordinary note number ${i} about the garden`,
      })),
    );
    const id = await engine.remember({ text: `Bank PIN hint: ${SECRET[0]} and ${SECRET[1]}` });
    const other = await engine.remember({ text: `Diary: ${SECRET[2]} at the harbour` });
    // written, the words are in the files
    expect(onDisk(path).includes(SECRET[0]!)).toBe(true);
    await engine.forget(id);
    await engine.update(other, { text: 'Diary: a walk at the harbour' });
    expect((await engine.stats()).forgetting.purgeDue).toBe(true);
    await engine.close();
    const bytes = onDisk(path);
    for (const word of SECRET) expect(bytes.includes(word), word).toBe(false);
    // the store is whole and keeps what was not forgotten
    const again = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    try {
      expect(await again.verify()).toEqual([]);
      expect((await again.stats()).memories).toBe(201);
      expect((await again.recall('harbour walk'))[0]?.text).toBe('Diary: a walk at the harbour');
      expect((await again.stats()).forgetting.purgeDue).toBe(false);
    } finally {
      await again.close();
    }
  });

  it('while the engine stays open, the purge runs once it is quiet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anamnesis-forget-'));
    dirs.push(dir);
    const path = join(dir, 'memory.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    try {
      await engine.rememberMany(Array.from({ length: 50 }, (_, i) => ({ text: `Note ${i}` })));
      const id = await engine.remember({ text: `Locker code ${SECRET[0]}` });
      await engine.forget(id);
      const deadline = Date.now() + 10_000;
      while ((await engine.stats()).forgetting.purgeDue && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 2_500));
      expect((await engine.stats()).forgetting.purgeDue).toBe(false);
      expect(onDisk(path).includes(SECRET[0]!)).toBe(false);
    } finally {
      await engine.close();
    }
  }, 20_000);

  it('says which SQLite it runs on and whether the lexical indexes delete securely', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    try {
      const { forgetting } = await engine.stats();
      // the browser's SQLite-WASM (3.54.1) has the fix for FTS5's secure-delete path
      expect(forgetting.sqliteVersion).toMatch(/^3\.(5[4-9]|[6-9]\d)\./);
      expect(forgetting.lexicalSecureDelete).toBe(true);
    } finally {
      await engine.close();
    }
    const dir = mkdtempSync(join(tmpdir(), 'anamnesis-forget-'));
    dirs.push(dir);
    const file = await createEngine({
      storage: 'file',
      path: join(dir, 'm.db'),
      embedder: 'tfidf',
    });
    try {
      const { forgetting } = await file.stats();
      // the native module's SQLite (3.53.2 in better-sqlite3 12.11.1) has not: its indexes are rewritten instead
      expect(forgetting.lexicalSecureDelete).toBe(
        Number(forgetting.sqliteVersion.split('.')[1]) >= 54,
      );
    } finally {
      await file.close();
    }
  });
});
