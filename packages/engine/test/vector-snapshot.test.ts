/**
 * The stored vectors' snapshot parts: written at a clean close and behind the writes, read at open
 * instead of the rows, and never trusted when they could differ from the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIMENSIONS } from '@anamnesis/model-default';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { DenseSimilarity } from '../src/similarity/dense-similarity.ts';
import type { Database } from '../src/store/database.ts';
import { SCHEMA_VERSION } from '../src/store/schema.ts';
import { partRows } from '../src/vectors/vector-snapshot.ts';
import { defaultEmbedder, onDisk as openOnDisk } from './helpers.ts';

/** A fixed clock: the default profile's recency prior makes scores depend on the time. */
const CLOCK = Date.UTC(2026, 0, 1);

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PER_PART = partRows(DIMENSIONS); // rows of the default model's dimension in a part
const texts = Array.from(
  { length: 2 * PER_PART + 300 },
  (_, i) => `note ${i}: ${['garden', 'tax', 'river', 'piano', 'bread'][i % 5]} ${i % 97}`,
);

/** Runs SQL on the store file as it is on disk, through a second connection (the log included). */
async function onDisk<T>(path: string, fn: (db: Database) => T): Promise<T> {
  const db = openOnDisk(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const parts = (path: string) =>
  onDisk(path, (db) =>
    db.selectArrays('SELECT last_rid, n_rows FROM vector_snapshot ORDER BY last_rid'),
  );

async function open(path: string): Promise<Engine> {
  // a fixed clock: the default profile's recency prior makes scores depend on the time
  return createEngine({
    storage: 'file',
    path,
    embedder: await defaultEmbedder(),
    now: () => CLOCK,
  });
}

/** Top ids and scores of a few queries: what must not change when the vectors come from parts. */
async function answers(e: Engine): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of ['garden 12', 'piano lessons', 'river bread 40'])
    out.push((await e.recall(q, { noCache: true, topK: 8 })).map((r) => [r.id, r.score]));
  return out;
}

/**
 * A store at `path` holding `stored` (every note by default): the open engine, the ids, and the
 * answers to remember.
 */
async function filled(path: string, stored = texts) {
  const engine = await open(path);
  const ids = await engine.rememberMany(stored.map((text) => ({ text, session: 's' })));
  return { engine, ids, before: await answers(engine) };
}

describe('vector snapshot parts', () => {
  it('a clean close writes parts holding every vector; the next open reads them and answers the same', async () => {
    const path = join(dir, 'close.db');
    const { engine: a, before } = await filled(path);
    await a.close();
    const written = await parts(path);
    expect(written.map((p) => p[1])).toEqual([PER_PART, PER_PART, 300]);
    expect(written.at(-1)![0]).toBe(texts.length);

    const b = await open(path);
    expect(await answers(b)).toEqual(before);
    expect(await b.verify()).toEqual([]);
    // added after the parts: read as rows, and the parts stay (no close: a crash)
    await b.remember({ text: 'one more note about the garden', session: 's' });
    expect((await parts(path)).length).toBe(3);
    const c = await open(path);
    expect((await c.recall('one more note about the garden', { topK: 1 }))[0]!.text).toBe(
      'one more note about the garden',
    );
    expect(await c.verify()).toEqual([]);
    // a clean close rewrites the last part with what follows it
    await c.close();
    expect((await parts(path)).map((p) => p[1])).toEqual([PER_PART, PER_PART, 301]);
  });

  it('an open from parts reads their int8 rows; the float rows follow while the engine is quiet', async () => {
    const path = join(dir, 'rest.db');
    const { engine: a, ids, before } = await filled(path);
    await a.close();
    const loads = vi.spyOn(DenseSimilarity.prototype, 'load');
    const steps = vi.spyOn(DenseSimilarity.prototype, 'loadStep');
    try {
      const b = await open(path);
      // this engine's steps (an engine an earlier test left open takes its own)
      const backend = loads.mock.contexts.at(-1);
      const mine = () =>
        steps.mock.results.filter((_, i) => steps.mock.contexts[i] === backend).map((r) => r.value);
      // recalls every 100 ms keep the engine busy: no step runs
      for (let i = 0; i < 6; i++) {
        await b.recall(`garden ${i}`, { noCache: true });
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(mine()).toEqual([]);
      // answers and writes while float rows are still on disk
      expect(await answers(b)).toEqual(before);
      await b.update(ids[3]!, { text: 'a cello sonata at noon' });
      await b.forget(ids[4]!);
      expect((await b.recall('cello sonata', { topK: 1 }))[0]!.id).toBe(ids[3]);
      // quiet: a part's worth of rows a step, until none is left on disk (these notes are so alike
      // that a search may tie most rows within the int8 copy's error bound and read every float
      // row itself: vector-index-lazy.test.ts counts the steps)
      await vi.waitFor(() => expect(mine().at(-1)).toBe(false), { timeout: 5000 });
      expect(await b.verify()).toEqual([]);
      const c = await open(path); // every row read at once, as the parts' own
      expect(await answers(b)).toEqual(await answers(c));
      await Promise.all([b.close(), c.close()]);
    } finally {
      loads.mockRestore();
      steps.mockRestore();
    }
  });

  it('a delete or a changed text drops every part in its own transaction', async () => {
    const path = join(dir, 'drop.db');
    const { engine: a, ids } = await filled(path);
    await a.close();
    const b = await open(path);
    await b.update(ids[5]!, { text: 'a violin concerto in the evening' });
    expect(await parts(path)).toEqual([]);
    const c = await open(path); // b never closed
    expect((await c.recall('violin concerto', { topK: 1 }))[0]!.id).toBe(ids[5]);
    expect(await c.verify()).toEqual([]);
    await c.close();
    expect((await parts(path)).length).toBe(3);
    const d = await open(path);
    await d.forget(ids[7]!);
    expect(await parts(path)).toEqual([]);
    const e = await open(path);
    expect((await e.stats()).memories).toBe(texts.length - 1);
    expect(await e.verify()).toEqual([]);
    await e.close();
  });

  it('writes full parts behind the writes once the engine is quiet', async () => {
    const path = join(dir, 'behind.db');
    const { engine: a } = await filled(path);
    expect((await a.stats()).vectorParts).toEqual({ parts: 0, vectors: 0 });
    await new Promise((r) => setTimeout(r, 1600)); // quiet: both full parts are written
    // stats() says so (what the browser test of the parts waits for)
    expect((await a.stats()).vectorParts).toEqual({ parts: 2, vectors: 2 * PER_PART });
    await a.remember({ text: 'a write that saves the file', session: 's' });
    expect((await parts(path)).map((p) => p[1])).toEqual([PER_PART, PER_PART]);
    const b = await open(path); // a never closed
    expect(await b.verify()).toEqual([]);
    expect((await b.stats()).memories).toBe(texts.length + 1);
    await b.close();
  });

  it('a part that does not read back as written, or parts of another shape, are not trusted', async () => {
    const path = join(dir, 'tampered.db');
    const { engine: a, before } = await filled(path);
    await a.close();
    // a part whose vectors are cut short, and (without the triggers) a stored vector changed
    await onDisk(path, (db) => {
      db.exec(
        'UPDATE vector_snapshot SET vectors = substr(vectors, 1, 400) WHERE last_rid = (SELECT min(last_rid) FROM vector_snapshot)',
      );
    });
    const b = await open(path);
    expect(await answers(b)).toEqual(before);
    expect((await b.verify()).join()).toContain('vector snapshot');
    await b.close(); // a close writes the parts anew from the rows
    const c = await open(path);
    expect(await c.verify()).toEqual([]);
    expect(await answers(c)).toEqual(before);
    await c.close();
  });

  it('a store of schema version 2 (before the parts) is migrated at open and gets its parts', async () => {
    const path = join(dir, 'v2.db');
    const { engine: a, before } = await filled(path, texts.slice(0, 500));
    await a.close();
    await onDisk(path, (db) =>
      db.exec(`DROP TRIGGER embeddings_snapshot_ai; DROP TRIGGER embeddings_snapshot_ad;
          DROP TRIGGER embeddings_snapshot_au; DROP TABLE vector_snapshot; DROP INDEX memories_updated;
          DROP TABLE memories_vocab; DROP TABLE memories_words;
          DROP TRIGGER memories_changes_ai; DROP TRIGGER memories_changes_ad;
          DROP TRIGGER memories_changes_au; DROP TRIGGER embeddings_changes_ai;
          DROP TRIGGER embeddings_changes_ad; DROP TRIGGER embeddings_changes_au;
          DROP TABLE changes; DROP TABLE usage_folded; DROP INDEX usage_at; DROP TABLE usage_devices;
          DROP INDEX usage_feedback; DROP TRIGGER memories_removed_ad; DROP TRIGGER memories_removed_au;
          PRAGMA user_version = 2`),
    );
    const b = await open(path);
    expect((await b.stats()).schemaVersion).toBe(SCHEMA_VERSION);
    expect(await answers(b)).toEqual(before);
    await b.close();
    expect((await parts(path)).map((p) => p[1])).toEqual([500]);
    const index = "SELECT count(*) FROM sqlite_master WHERE name = 'memories_updated'";
    expect(await onDisk(path, (db) => db.selectValue(index))).toBe(1);
  });
});
