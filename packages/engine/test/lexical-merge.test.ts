/**
 * The lexical indexes merged behind the writes (`engine/lexical-merge.ts`): a store written in
 * many transactions holds its FTS5 indexes in several segments; once enough was written and the
 * engine has been quiet, they are merged into one segment each, in transactions of their own,
 * and recall answers exactly as before. Checked on a file store (its segments read with another
 * connection, and a second engine on the same file) and on SQLite-WASM's, the browser's SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder, onDisk } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Segments of each FTS5 index of the store at `path` (read with a connection of its own). */
function segments(path: string): Record<string, number> {
  const db = onDisk(path, { readonly: true });
  try {
    const count = (table: string) =>
      Number(
        db.selectValue(
          `SELECT count(DISTINCT id >> 37) FROM ${table} WHERE id >> 37 > 0`, // a page's segment id
        ),
      );
    return { fts: count('memories_fts_data'), words: count('memories_words_data') };
  } finally {
    db.close();
  }
}

const TOPICS = ['garden', 'invoice', 'train', 'recipe', 'doctor', 'holiday', 'bicycle', 'piano'];

/** Writes `n` notes in transactions of `batch`. */
async function fill(engine: Engine, n: number, batch: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i += batch)
    await engine.rememberMany(
      Array.from({ length: Math.min(batch, from + n - i) }, (_, j) => {
        const k = i + j;
        return {
          text: `note ${k} about the ${TOPICS[k % 8]} and the ${TOPICS[(k * 3 + 1) % 8]} on day ${k % 31}`,
          allowDuplicate: true,
        };
      }),
    );
}

/** What a few recalls answer: ids and scores, in order. */
async function answers(engine: Engine): Promise<string> {
  const out: unknown[] = [];
  for (const q of ['garden invoice', 'the piano on day 12', 'recipe', 'train doctr'])
    out.push(
      (await engine.recall(q, { noCache: true, topK: 20 })).map((r) => [r.id, r.score.toFixed(12)]),
    );
  return JSON.stringify(out);
}

describe('lexical merge', () => {
  it('merges a store written in many transactions into one segment per index once quiet, and recall answers the same', async () => {
    const path = join(dir, 'merge.db');
    const embedder = await defaultEmbedder();
    const now = () => Date.UTC(2026, 10, 30); // one time for both: recency scores alike
    const engine = await createEngine({ storage: 'file', path, embedder, now });
    const other = await createEngine({ storage: 'file', path, embedder, now });
    await fill(engine, 1500, 50);
    const before = segments(path);
    expect(before.fts).toBeGreaterThan(1);
    expect(before.words).toBeGreaterThan(1);
    const state = (await engine.stats()).lexicalMerge;
    expect(state.due).toBe(true);
    expect(state.changesSince).toBeGreaterThanOrEqual(3000);
    const answered = await answers(engine);
    expect(await answers(other)).toBe(answered);

    await sleep(3000); // quiet: the merge runs
    expect(segments(path)).toEqual({ fts: 1, words: 1 });
    expect((await engine.stats()).lexicalMerge).toEqual({ changesSince: 0, due: false });
    expect(await answers(engine)).toBe(answered);
    expect(await answers(other)).toBe(answered); // another process reads the merged indexes
    expect(await engine.verify()).toEqual([]);

    // a few writes: not due again (2,000 changes at least, and half of those before)
    await fill(engine, 100, 50, 1500);
    expect((await engine.stats()).lexicalMerge).toEqual({ changesSince: 200, due: false });
    await engine.close();
    await other.close();
  }, 30_000);

  it('calls keep the merge waiting; a close stops it and the store stays whole', async () => {
    const path = join(dir, 'busy.db');
    const engine = await createEngine({ storage: 'file', path, embedder: await defaultEmbedder() });
    await fill(engine, 1200, 40);
    const before = segments(path);
    // a call every half second for three seconds: never two quiet seconds, so no merge step
    for (let i = 0; i < 6; i++) {
      await engine.recall('garden', { noCache: true });
      await sleep(500);
    }
    expect(segments(path)).toEqual(before);
    expect((await engine.stats()).lexicalMerge.due).toBe(true);
    await engine.close(); // before any step
    const reopened = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
    });
    expect(await reopened.verify()).toEqual([]);
    expect((await reopened.stats()).lexicalMerge.due).toBe(true); // the open schedules it again
    await sleep(3000);
    expect(segments(path)).toEqual({ fts: 1, words: 1 });
    expect((await reopened.recall('garden')).length).toBeGreaterThan(0);
    await reopened.close();
  }, 30_000);

  it("merges a store in SQLite-WASM (the browser's SQLite) too", async () => {
    const now = () => Date.UTC(2026, 10, 30);
    const engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now,
    });
    await fill(engine, 1100, 25);
    expect((await engine.stats()).lexicalMerge.due).toBe(true);
    const answered = await answers(engine);
    await sleep(3000);
    expect((await engine.stats()).lexicalMerge).toEqual({ changesSince: 0, due: false });
    expect(await answers(engine)).toBe(answered);
    expect(await engine.verify()).toEqual([]);
    await engine.close();
  }, 30_000);
});
