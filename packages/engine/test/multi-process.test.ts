/**
 * Many processes, one memory (issue 39): a file store open in several processes at once keeps
 * every acknowledged write of each, each process sees the others' writes at its next call (its
 * result cache, vector index and duplicate filter refreshed), duplicates are decided across
 * processes, and `kill -9` during writes loses nothing acknowledged and leaves no stray file.
 * The writers are child processes (`fixtures/writer.ts` through tsx), as two MCP servers and the
 * CLI would be.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { defaultEmbedder, writer } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files beside the store other than the store itself (SQLite's -wal and -shm only while open). */
const strays = (path: string) =>
  readdirSync(dir).filter((f) => f.startsWith(path.split('/').pop()!) && !f.endsWith('.db'));

describe('many processes, one file store', () => {
  it('two writers and this process: every acknowledged write is kept, and each sees the others at its next call', async () => {
    const path = join(dir, 'two.db');
    const embedder = await defaultEmbedder();
    const here = await createEngine({ storage: 'file', path, embedder });
    await here.remember({ text: 'written here first, before the writers start' });
    const [a, b] = [writer(path, 'alpha', 10), writer(path, 'beta', 10)];
    // this process writes and reads while they do
    const mine: string[] = [];
    for (let i = 0; i < 10; i++) {
      mine.push(await here.remember({ text: `here note ${i} about kitchen herbs` }));
      await here.recall('garden');
    }
    expect(await Promise.all([a.done, b.done])).toEqual([0, 0]);
    expect(a.acked).toHaveLength(10);
    expect(b.acked).toHaveLength(10);
    // the next call sees both writers' notes: rows, FTS, vectors (verify: one vector per memory)
    expect((await here.stats()).memories).toBe(31);
    const hits = await here.recall('beta note 7 about the garden', { topK: 3 });
    expect(hits[0]!.id).toBe(b.acked[7]);
    expect(await here.verify()).toEqual([]);
    for (const id of [...a.acked, ...b.acked, ...mine]) expect(await here.get(id)).not.toBeNull();
    await here.close();
    const reopened = await createEngine({ storage: 'file', path, embedder });
    expect((await reopened.stats()).memories).toBe(31);
    expect(await reopened.verify()).toEqual([]);
    await reopened.close();
    expect(strays(path)).toEqual([]);
  });

  it('three writers at once: 3 × 15 notes, none lost', async () => {
    const path = join(dir, 'three.db');
    const writers = ['one', 'two', 'three'].map((p) => writer(path, p, 15));
    expect(await Promise.all(writers.map((w) => w.done))).toEqual([0, 0, 0]);
    const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
    expect((await engine.stats()).memories).toBe(45);
    for (const w of writers) for (const id of w.acked) expect(await engine.get(id)).not.toBeNull();
    expect(await engine.verify()).toEqual([]);
    await engine.close();
  });

  it('the same text from two processes at once is stored once: both get its id', async () => {
    const path = join(dir, 'dedup.db');
    const text = 'the same note, remembered by two assistants at once';
    const [a, b] = [writer(path, 'a', 3, text), writer(path, 'b', 3, text)];
    expect(await Promise.all([a.done, b.done])).toEqual([0, 0]);
    const ids = new Set([...a.acked, ...b.acked]);
    expect(ids.size).toBe(1);
    const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
    expect((await engine.stats()).memories).toBe(1);
    await engine.close();
  });

  it('a process that only reads keeps what another writes, and a forget elsewhere leaves its recall', async () => {
    const path = join(dir, 'reader.db');
    const embedder = await defaultEmbedder();
    const reader = await createEngine({ storage: 'file', path, embedder });
    const first = await reader.remember({ text: 'a note about the tides at the harbour' });
    const w = writer(path, 'cli', 8);
    while ((await reader.recall('tides harbour')).length === 0) await Promise.resolve();
    expect(await w.done).toBe(0);
    // the reader's next recall sees the writer's notes (its cached answers were dropped)
    expect((await reader.recall('cli note 5 about the garden', { topK: 1 }))[0]!.id).toBe(
      w.acked[5],
    );
    const other = await createEngine({ storage: 'file', path, embedder });
    expect(await other.forget(first)).toBe(1);
    await other.close();
    expect((await reader.recall('tides harbour')).map((r) => r.id)).not.toContain(first);
    await reader.close(); // a reader's close writes usage and snapshots, never older rows
    const after = await createEngine({ storage: 'file', path, embedder });
    expect((await after.stats()).memories).toBe(8);
    for (const id of w.acked) expect(await after.get(id)).not.toBeNull();
    expect(await after.verify()).toEqual([]);
    await after.close();
  });

  it('kill -9 during writes: every acknowledged write is kept, no stray file is left', async () => {
    const path = join(dir, 'killed.db');
    const w = writer(path, 'doomed', 500);
    while (w.acked.length < 20) await new Promise((r) => setTimeout(r, 5));
    w.child.kill('SIGKILL');
    await w.done;
    const acked = [...w.acked];
    const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
    const stored = (await engine.stats()).memories;
    expect(stored).toBeGreaterThanOrEqual(acked.length);
    expect(stored).toBeLessThanOrEqual(acked.length + 1); // one committed, not yet acknowledged
    for (const id of acked) expect(await engine.get(id)).not.toBeNull();
    expect(await engine.verify()).toEqual([]);
    await engine.close();
    expect(strays(path)).toEqual([]);
  });
});
