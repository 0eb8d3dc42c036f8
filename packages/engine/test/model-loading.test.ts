/**
 * An engine given a promise of an embedder: open at once, lexical answers flagged `partial` while
 * the model loads, writes stored at once and embedded when it is ready; a model that fails or does
 * not fit the store leaves the engine lexical, never loses a write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embedding/embedder.ts';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder, NOTES, rejectsWith } from './helpers.ts';

/** A promise of the real default model, resolved when the test says so. */
function deferredEmbedder(): { promise: Promise<Embedder>; resolve: () => Promise<void> } {
  let resolve!: (e: Embedder) => void;
  const promise = new Promise<Embedder>((r) => (resolve = r));
  return { promise, resolve: async () => resolve(await defaultEmbedder()) };
}

/** The model's cosine of two texts: what `recall` must report as a result's similarity. */
async function cosine(a: string, b: string): Promise<number> {
  const [x, y] = await (await defaultEmbedder()).embed([a, b]);
  let dot = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < x!.length; i++) {
    dot += x![i]! * y![i]!;
    xx += x![i]! ** 2;
    yy += y![i]! ** 2;
  }
  return dot / Math.sqrt(xx * yy);
}

/** The similarity `recall(query)` reports for the memory `id` (every memory is a result). */
async function similarityOf(engine: Engine, query: string, id: string): Promise<number> {
  const hit = (await engine.recall(query, { topK: 50 })).find((r) => r.id === id);
  if (!hit) throw new Error(`${id} is not a result of "${query}"`);
  return hit.similarity;
}

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-model-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an engine whose model is still loading', () => {
  it('answers from the lexical legs, flagged partial, then from every leg once the model is ready', async () => {
    const model = deferredEmbedder();
    const engine = await createEngine({ storage: 'memory', embedder: model.promise });
    try {
      expect(engine.modelState).toBe('loading');
      expect((await engine.stats()).model).toMatchObject({ state: 'loading', device: 'loading' });
      await engine.rememberMany(NOTES);
      const early = await engine.recall('kitten', { explain: true });
      expect(early[0]!.id).toBe('cat');
      for (const r of early) {
        expect(r.partial).toBe(true);
        expect(r.similarity).toBe(0);
        expect(r.explain!.partial).toMatch(/still loading/);
        expect(r.explain!.legs.map((l) => l.leg)).not.toContain('vector');
      }
      // meaning only: nothing to find without the model
      expect(await engine.recall('my cat')).toEqual([]);

      await model.resolve();
      await engine.model;
      expect(engine.modelState).toBe('ready');
      const stats = await engine.stats();
      expect(stats.model).toMatchObject({ state: 'ready', dims: (await defaultEmbedder()).dims });
      // the memories written while it loaded are embedded, and the cached answer is gone
      expect(await engine.verify()).toEqual([]);
      const late = await engine.recall('kitten', { explain: true });
      expect(late[0]!.partial).toBeUndefined();
      expect(late[0]!.explain!.partial).toBeUndefined();
      expect(late[0]!.similarity).toBeGreaterThan(0);
      expect(await similarityOf(engine, 'my cat', 'cat')).toBeCloseTo(
        await cosine('my cat', NOTES[0]!.text),
        5,
      );
    } finally {
      await engine.close();
    }
  });

  it('re-embeds a text changed while the model loaded, and keeps writes queued behind the swap in order', async () => {
    const path = join(dir, 'update.db');
    const embedder = await defaultEmbedder();
    const first = await createEngine({ storage: 'file', path, embedder });
    await first.rememberMany(NOTES);
    await first.close();

    const model = deferredEmbedder();
    const engine = await createEngine({ storage: 'file', path, embedder: model.promise });
    try {
      const roof = 'Invoice for the roof repair is due next Tuesday';
      await engine.update('cat', { text: roof });
      const resolved = model.resolve();
      // written while the leg is being swapped: queued behind it, embedded by the model
      const later = engine.remember({ id: 'violin', text: 'Violin lesson every Thursday evening' });
      await resolved;
      await engine.model;
      expect(await later).toBe('violin');
      expect(await engine.verify()).toEqual([]);
      // each vector is the one of the memory's text now
      const query = 'bill to pay for fixing the house';
      expect(await similarityOf(engine, query, 'cat')).toBeCloseTo(await cosine(query, roof), 5);
      expect(await similarityOf(engine, 'music practice', 'violin')).toBeCloseTo(
        await cosine('music practice', 'Violin lesson every Thursday evening'),
        5,
      );
    } finally {
      await engine.close();
    }
  });

  it('stays lexical when the model fails to load; a later open with the model embeds what was written', async () => {
    const path = join(dir, 'failed.db');
    const engine = await createEngine({
      storage: 'file',
      path,
      embedder: Promise.reject(new Error('no GPU, no wasm')),
    });
    const error = await rejectsWith(engine.model, 'MODEL_LOAD_FAILED');
    expect(error.message).toContain('no GPU, no wasm');
    expect(engine.modelState).toBe('failed');
    await engine.rememberMany(NOTES);
    const hits = await engine.recall('sourdough', { explain: true });
    expect(hits[0]!.id).toBe('bread');
    expect(hits[0]!.explain!.partial).toMatch(/failed/);
    await engine.close();

    const reopened = await createEngine({
      storage: 'file',
      path,
      embedder: await defaultEmbedder(),
    });
    try {
      expect(await reopened.verify()).toEqual([]);
      expect(await similarityOf(reopened, 'my cat', 'cat')).toBeCloseTo(
        await cosine('my cat', NOTES[0]!.text),
        5,
      );
    } finally {
      await reopened.close();
    }
  });

  it('fails with MODEL_MISMATCH when the promised model does not fit the store, keeping it intact', async () => {
    const path = join(dir, 'mismatch.db');
    const tiny: Embedder = {
      id: 'tiny-3d',
      dims: 3,
      device: 'cpu',
      truncated: 0,
      embed: async (texts) => texts.map(() => new Float32Array([1, 0, 0])),
    };
    const first = await createEngine({ storage: 'file', path, embedder: tiny });
    await first.rememberMany(NOTES);
    await first.close();

    const engine = await createEngine({
      storage: 'file',
      path,
      embedder: defaultEmbedder(),
    });
    try {
      await rejectsWith(engine.model, 'MODEL_MISMATCH');
      expect(engine.modelState).toBe('failed');
      expect((await engine.recall('sourdough'))[0]!.id).toBe('bread');
    } finally {
      await engine.close();
    }
    const again = await createEngine({ storage: 'file', path, embedder: tiny });
    try {
      expect(await again.verify()).toEqual([]);
      expect((await again.stats()).memories).toBe(NOTES.length);
    } finally {
      await again.close();
    }
  });

  it('closes while the model loads; the model arriving later changes nothing', async () => {
    const model = deferredEmbedder();
    const engine = await createEngine({ storage: 'memory', embedder: model.promise });
    await engine.remember({ text: 'written before close' });
    await engine.close();
    await model.resolve();
    await rejectsWith(engine.model, 'CLOSED');
  });
});
