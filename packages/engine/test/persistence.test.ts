import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Embedder, type Engine } from '../src/index.ts';
import { defaultEmbedder, NOTES, onDisk, rejectsWith } from './helpers.ts';

/** A fixed clock: the default profile's recency prior makes scores depend on the time. */
const CLOCK = Date.UTC(2026, 0, 1);

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The default model under another id: what a store built with a different model looks like. */
async function renamed(id: string): Promise<Embedder> {
  const base = await defaultEmbedder();
  return { id, dims: base.dims, device: base.device, truncated: 0, embed: (t) => base.embed(t) };
}

describe('file-backed store (Node)', () => {
  it('keeps memories, links, usage and vectors between runs', async () => {
    const path = join(dir, 'notes.db');
    const a = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      now: () => CLOCK,
    });
    await a.rememberMany(NOTES);
    await a.link('cat', 'dog');
    await a.markUsed('cat', 'used');
    const before = await a.recall('kitten', { explain: true });
    await a.close();

    const b = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      now: () => CLOCK,
    });
    const s = await b.stats();
    expect(s).toMatchObject({ backend: 'file', memories: NOTES.length, links: 1 });
    expect(s.usageEvents).toBeGreaterThanOrEqual(1);
    const after = await b.recall('kitten', { explain: true });
    expect(after.map((r) => [r.id, r.score])).toEqual(before.map((r) => [r.id, r.score]));
    expect(await b.verify()).toEqual([]);
    await b.close();
  });

  it('dedups across reopen, after a clean close and after a crash (no close)', async () => {
    const path = join(dir, 'dedup.db');
    const a = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      now: () => CLOCK,
    });
    const x = await a.remember({ text: 'remember the milk' });
    await a.close(); // saves the Bloom snapshot
    const b = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      now: () => CLOCK,
    });
    expect(await b.remember({ text: 'remember the milk' })).toBe(x);
    const y = await b.remember({ text: 'and the eggs' }); // drops the snapshot in its transaction
    // b is never closed: a crash. The next open must not trust a stale filter.
    const c = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      now: () => CLOCK,
    });
    expect(await c.remember({ text: 'and the eggs' })).toBe(y);
    expect(await c.remember({ text: 'remember the milk' })).toBe(x);
    expect((await c.stats()).memories).toBe(2);
    await c.close();
  });

  it('a write that changes texts deletes the saved snapshots in its own transaction: a crash after it leaves none to trust', async () => {
    /** The snapshots in the store file as it is on disk. */
    const snapshots = (path: string) => {
      const db = onDisk(path);
      try {
        return db.selectValues("SELECT key FROM meta WHERE key IN ('bloom', 'tfidf') ORDER BY key");
      } finally {
        db.close();
      }
    };
    const scratch = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await scratch.remember({ id: 'c', text: 'an imported text', session: 's' });
    const jsonl = await scratch.export();
    await scratch.close();
    const writes: [string, (e: Engine) => Promise<unknown>][] = [
      ['a new text', (e) => e.update('a', { text: 'a changed text' })],
      ['a new session', (e) => e.update('a', { session: 'elsewhere' })],
      ['forget', (e) => e.forget('a')],
      ['import', (e) => e.import(jsonl)],
    ];
    for (const [i, [what, write]] of writes.entries()) {
      const path = join(dir, `snapshots-${i}.db`);
      const options = { storage: 'file', path, embedder: 'tfidf', now: () => CLOCK } as const;
      const a = await createEngine(options);
      await a.rememberMany([
        { id: 'a', text: 'the first text', session: 's' },
        { id: 'b', text: 'the second text', session: 's' },
      ]);
      await a.close(); // saves the Bloom filter's and TF-IDF's snapshots
      expect(snapshots(path), what).toEqual(['bloom', 'tfidf']);
      const b = await createEngine(options);
      await write(b);
      // b is never closed (a crash): the file holds what the write committed, and no snapshot
      expect(snapshots(path), what).toEqual([]);
    }
  });

  it('dedups while the filter is rebuilt behind an open without a snapshot, and after', async () => {
    const path = join(dir, 'rebuild.db');
    const embedder = await defaultEmbedder();
    const texts = Array.from({ length: 4500 }, (_, i) => `note ${i} about the garden`);
    const a = await createEngine({ storage: 'file', path, embedder });
    const ids = await a.rememberMany(texts.map((text) => ({ text, session: 's' })));
    // a is never closed: no snapshot, so b rebuilds its filter in steps behind the open
    const b = await createEngine({ storage: 'file', path, embedder });
    expect(await b.remember({ text: texts[4499]!, session: 's' })).toBe(ids[4499]);
    const meanwhile = await b.remember({ text: 'written during the rebuild', session: 's' });
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(await b.remember({ text: texts[0]!, session: 's' })).toBe(ids[0]);
    expect(await b.remember({ text: texts[3000]!, session: 's' })).toBe(ids[3000]);
    expect(await b.remember({ text: 'written during the rebuild', session: 's' })).toBe(meanwhile);
    expect(await b.remember({ text: texts[0]!, session: 'other' })).not.toBe(ids[0]);
    expect((await b.stats()).memories).toBe(4502);
    await b.close(); // the rebuilt filter is saved
    const c = await createEngine({ storage: 'file', path, embedder });
    expect(await c.remember({ text: texts[1234]!, session: 's' })).toBe(ids[1234]);
    expect((await c.stats()).memories).toBe(4502);
    await c.close();
  });

  it('detects a corrupt store file at open', async () => {
    const path = join(dir, 'corrupt.db');
    writeFileSync(path, Buffer.from('SQLite format 3\u0000' + 'garbage'.repeat(200)));
    await rejectsWith(
      createEngine({ storage: 'file', path, embedder: await defaultEmbedder(), now: () => CLOCK }),
      'STORE_CORRUPT',
    );
  });

  it('refuses a store built with another model, and re-embeds when asked', async () => {
    const path = join(dir, 'model.db');
    const a = await createEngine({ storage: 'file', path, embedder: await renamed('other/model') });
    await a.rememberMany(NOTES);
    await a.close();
    const err = await rejectsWith(
      createEngine({ storage: 'file', path, embedder: await defaultEmbedder(), now: () => CLOCK }),
      'MODEL_MISMATCH',
    );
    expect(err.message).toContain('other/model');
    const progress: number[] = [];
    const b = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
      onModelMismatch: 'reembed',
      onProgress: (e) => progress.push(e.loaded),
    });
    expect(progress.at(-1)).toBe(NOTES.length);
    expect((await b.stats()).model.id).toBe('anamnesis/static-multi-64d');
    expect(await b.verify()).toEqual([]);
    expect((await b.recall('tax deadline', { topK: 1 }))[0]!.id).toBe('tax');
    await b.close();
  });
});

describe('JSON Lines export and import', () => {
  it('round trips losslessly: export → import → export is byte-identical, with or without vectors', async () => {
    const a = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await a.rememberMany(
      NOTES.map((n, i) => ({
        ...n,
        meta: { n: i, ok: i % 2 === 0, none: null },
        importance: i / 7,
      })),
    );
    await a.link('cat', 'dog', { kind: 'similar', weight: 0.5 });
    await a.markUsed('bread', 'selected');
    for (const vectors of [false, true]) {
      const first = await a.export({ vectors });
      const b = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
      expect(await b.import(first)).toBe(NOTES.length);
      const second = await b.export({ vectors });
      expect(second).toBe(first);
      expect(await b.verify()).toEqual([]);
      expect((await b.recall('kitten', { topK: 1 }))[0]!.id).toBe('cat');
      await b.close();
    }
    await a.close();
  });

  it('imports atomically and reports bad lines with their number', async () => {
    const a = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    const good = JSON.stringify({ id: 'g', text: 'a good memory' });
    await rejectsWith(a.import(`${good}\n{not json}\n`), 'INVALID_INPUT');
    await rejectsWith(
      a.import(`${good}\n${JSON.stringify({ id: 'b', text: '' })}\n`),
      'INVALID_INPUT',
    );
    await rejectsWith(
      a.import(`${JSON.stringify({ id: 'l', text: 'linked', links: [{ to: 'missing' }] })}\n`),
      'NOT_FOUND',
    );
    expect((await a.stats()).memories).toBe(0);
    expect(await a.import(good)).toBe(1);
    await rejectsWith(a.import(good), 'INVALID_INPUT');
    expect(await a.import(good, { onConflict: 'skip' })).toBe(0);
    await a.close();
  });
});
