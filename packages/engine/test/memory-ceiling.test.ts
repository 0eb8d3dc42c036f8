/**
 * A store in memory lives in SQLite-WASM's heap, which this build caps at 2 GiB (a malloc past it
 * returns null: SQLITE_NOMEM). Writes that run out of memory fail with QUOTA_EXCEEDED and keep
 * nothing of themselves; what was stored before stays, and writes succeed again once memory is
 * freed. The ceiling is brought down with SQLite's `PRAGMA hard_heap_limit` (one limit for the
 * whole SQLite-WASM instance, which the engine's store shares with this test's connection), so
 * the test does not have to fill 2 GiB.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { loadSqlite } from '../src/store/sqlite.ts';
import { defaultEmbedder } from './helpers.ts';

/** Sets SQLite-WASM's heap limit in bytes (0: none) through a connection of its own. */
async function heapLimit(bytes: number): Promise<void> {
  const sqlite3 = await loadSqlite();
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    db.exec(`PRAGMA hard_heap_limit = ${bytes}`);
  } finally {
    db.close();
  }
}

afterEach(() => heapLimit(0));

describe('a store in memory at its memory ceiling', () => {
  it('SQLite-WASM in this build stops at 2 GiB: a larger allocation is refused, not a crash', async () => {
    const sqlite3 = await loadSqlite();
    const p = sqlite3.capi.sqlite3_malloc(2 ** 31 - 1);
    expect(p).toBe(0);
  });

  it('writes past the ceiling fail with QUOTA_EXCEEDED and keep nothing; earlier memories stay; writes resume when lifted', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    try {
      const before = await engine.rememberMany(
        Array.from({ length: 20 }, (_, i) => ({ text: `kept note ${i} about the garden shed` })),
      );
      await heapLimit(24 * 2 ** 20);
      // large distinct memories until SQLite runs out of its (lowered) heap
      const big = (i: number) =>
        Array.from({ length: 3000 }, (_, j) => `word${i}x${j}`).join(' ') + ' lighthouse';
      let failed = false;
      let stored = 0;
      for (let i = 0; i < 400 && !failed; i++) {
        const batch = [{ text: big(2 * i) }, { text: big(2 * i + 1) }];
        try {
          await engine.rememberMany(batch);
          stored += 2;
        } catch (e) {
          expect((e as { code?: string }).code).toBe('QUOTA_EXCEEDED');
          failed = true;
        }
      }
      expect(failed).toBe(true);
      await heapLimit(0);
      // every earlier memory is there, the failed batch left nothing half-written
      const ids = (await engine.list({ limit: 10_000 })).map((m) => m.id);
      expect(ids).toEqual(expect.arrayContaining(before));
      expect(ids).toHaveLength(20 + stored);
      const found = await engine.recall('garden shed', { topK: 20, noCache: true });
      expect(found.map((r) => r.id).sort()).toEqual([...before].sort());
      // and writing works again
      const after = await engine.remember({ text: 'a note after the ceiling was lifted' });
      expect((await engine.recall('ceiling lifted', { noCache: true }))[0]?.id).toBe(after);
    } finally {
      await engine.close();
    }
  });
});
