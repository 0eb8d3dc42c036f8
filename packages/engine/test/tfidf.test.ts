import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cosine, sparseCosine, TfidfIndex, type ScoringProfile } from '@anamnesis/ranking';
import { createEngine, DEFAULT_PROFILE, TFIDF_MODEL_ID, type Engine } from '../src/index.ts';
import { TfidfSimilarity } from '../src/similarity/tfidf-similarity.ts';
import { defaultEmbedder, NOTES, rejectsWith } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-tfidf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The vector leg alone: what the TF-IDF backend ranks by itself. */
const VECTOR_ONLY: ScoringProfile = {
  ...DEFAULT_PROFILE,
  name: 'vector-only',
  legs: ['vector'],
  fusion: { ...DEFAULT_PROFILE.fusion, weights: { vector: 1 } } as ScoringProfile['fusion'],
  context: null,
};

const ids = (results: readonly { id: string }[]) => results.map((r) => r.id);

describe("embedder: 'tfidf' (the zero-model sparse backend)", () => {
  it('remembers and recalls with no model: vector leg by TF-IDF, similarity the sparse cosine', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await engine.rememberMany(NOTES);
    const stats = await engine.stats();
    expect(stats.model).toEqual({ id: TFIDF_MODEL_ID, dims: 0, device: 'none', state: 'ready' });

    const [top] = await engine.recall('sourdough starter', { profile: VECTOR_ONLY, explain: true });
    expect(top!.id).toBe('bread');
    expect(top!.explain!.legs.map((l) => l.leg)).toEqual(['vector']);
    // The similarity is the sparse cosine of the fitted index (same fit: the same stored texts).
    const index = TfidfIndex.build(NOTES.map((n, i) => ({ id: String(i), text: n.text })));
    const expected = sparseCosine(
      index.vectorize('sourdough starter'),
      index.vector(String(NOTES.findIndex((n) => n.id === 'bread')))!,
    );
    expect(top!.similarity).toBeCloseTo(expected, 6);
    expect(top!.similarity).toBeGreaterThan(0);

    // The default profile fuses FTS5 and TF-IDF; a word in no note finds nothing.
    expect(ids(await engine.recall('kitten sofa'))[0]).toBe('cat');
    expect(await engine.recall('xylophone', { profile: VECTOR_ONLY })).toEqual([]);
    // Filters apply inside the TF-IDF leg too.
    const filtered = await engine.recall('kitten puppy', {
      profile: VECTOR_ONLY,
      filter: { tags: ['pets'], session: 'home' },
    });
    expect(ids(filtered).sort()).toEqual(['cat', 'dog']);
    expect(
      ids(await engine.recall('kitten', { profile: VECTOR_ONLY, filter: { tags: ['work'] } })),
    ).toEqual([]);
    expect(await engine.verify()).toEqual([]);
    await engine.close();
  });

  it('indexes writes at once against the fitted vocabulary and refits once enough changed', async () => {
    const engine = await createEngine({
      storage: 'memory',
      embedder: { tfidf: { refitRatio: 0.5 } },
    });
    await engine.rememberMany(NOTES.concat(NOTES.map((n) => ({ ...n, id: `${n.id}-2` }))));
    // A store of 12: one new memory (1/12 < 0.5) is indexed, but its new word is not yet in the
    // vocabulary, so only FTS finds it.
    await engine.recall('warm up');
    await engine.remember({ id: 'zebra', text: 'A zebra crossed the savannah at dawn' });
    expect(await engine.recall('zebra', { profile: VECTOR_ONLY })).toEqual([]);
    expect(ids(await engine.recall('zebra'))).toEqual(['zebra']);
    // Known words of the new memory are searchable by TF-IDF at once.
    expect(ids(await engine.recall('dawn lake', { profile: VECTOR_ONLY }))).toContain('hike');
    // Six changes of twelve reach the ratio: the next recall refits and learns "zebra".
    for (const i of [1, 2, 3, 4, 5])
      await engine.remember({ id: `z${i}`, text: `note ${i} about quokkas` });
    expect(ids(await engine.recall('zebra', { profile: VECTOR_ONLY }))).toEqual(['zebra']);

    // Updates re-index the new text; forgotten memories leave the index.
    await engine.update('zebra', { text: 'An okapi in the forest' });
    await engine.forget(['z1', 'z2', 'z3', 'z4', 'z5', 'cat-2', 'tax-2']);
    expect(ids(await engine.recall('zebra okapi'))).toEqual(['zebra']);
    expect(await engine.recall('quokkas', { profile: VECTOR_ONLY })).toEqual([]);
    expect(ids(await engine.recall('okapi forest', { profile: VECTOR_ONLY }))).toEqual(['zebra']);
    expect(await engine.verify()).toEqual([]);
    await engine.close();
  });

  it('MMR compares memories by projections whose cosines are the sparse cosines', async () => {
    const db = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await db.rememberMany([
      { id: 'a', text: 'garden tomatoes need water every morning in july' },
      { id: 'a2', text: 'garden tomatoes need water every morning in july!', allowDuplicate: true },
      { id: 'b', text: 'garden roses need pruning in march' },
      { id: 'c', text: 'tomatoes ripen in late summer' },
    ]);
    const plain = await db.recall('garden tomatoes water', { profile: VECTOR_ONLY });
    expect(ids(plain).slice(0, 2).sort()).toEqual(['a', 'a2']);
    const diverse = await db.recall('garden tomatoes water', {
      profile: VECTOR_ONLY,
      mmr: { lambda: 0.5 },
      explain: true,
    });
    expect(ids(diverse)[0]).toMatch(/^a2?$/);
    expect(ids(diverse)[1]).not.toMatch(/^a2?$/); // the near-duplicate is pushed down
    expect(diverse.every((r) => typeof r.explain?.mmrRank === 'number')).toBe(true);
    await db.close();

    const leg = new TfidfSimilarity();
    const texts = ['alpha beta gamma', 'beta gamma delta delta', 'epsilon', ''];
    const rows = texts.map((text, rid) => [rid + 1, text]);
    await leg.load({ selectArrays: () => rows, selectValue: () => undefined } as never);
    const [a, b, c, d] = leg.vectors([1, 2, 3, 4]);
    const q = (await leg.query('beta delta')) as Map<string, number>;
    const sims = leg.similarities([1, 2, 3, 4], q);
    expect(sims.get(2)!).toBeGreaterThan(sims.get(1)!);
    expect(sims.get(3)).toBe(0);
    expect(sims.get(4)).toBe(0);
    const fitted = TfidfIndex.build(
      rows.map(([id, text]) => ({ id: String(id), text: String(text) })),
    );
    expect(cosine(a!, b!)).toBeCloseTo(sparseCosine(fitted.vector('1')!, fitted.vector('2')!), 6);
    expect(cosine(a!, c!)).toBe(0);
    expect(d!.every((x) => x === 0)).toBe(true);
  });

  it('a TF-IDF store keeps no vectors, persists, round-trips, and switches models only when asked', async () => {
    const path = join(dir, 'tfidf.db');
    const a = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await a.rememberMany(NOTES);
    const before = ids(await a.recall('golden retriever puppy'));
    const exported = await a.export({ vectors: true });
    expect(exported).not.toContain('"vector"');
    expect(JSON.parse(exported.split('\n')[0]!)).toMatchObject({ model: 'tfidf', dims: 0 });
    await a.close();

    // Reopened: refitted on the stored texts, same answers.
    const b = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    expect(ids(await b.recall('golden retriever puppy'))).toEqual(before);
    const copy = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    expect(await copy.import(exported)).toBe(NOTES.length);
    expect(await copy.export({ vectors: true })).toBe(exported);
    await copy.close();
    await b.close();

    // A dense model on a TF-IDF store: MODEL_MISMATCH, or a re-embed when asked.
    const model = await defaultEmbedder();
    await rejectsWith(createEngine({ storage: 'file', path, embedder: model }), 'MODEL_MISMATCH');
    const dense = await createEngine({
      storage: 'file',
      path,
      embedder: model,
      onModelMismatch: 'reembed',
    });
    expect((await dense.stats()).model.id).toBe(model.id);
    expect(await dense.verify()).toEqual([]);
    expect(ids(await dense.recall('golden retriever puppy'))[0]).toBe('dog');
    await dense.close();

    // And back: the dense vectors go once the caller agrees.
    await rejectsWith(createEngine({ storage: 'file', path, embedder: 'tfidf' }), 'MODEL_MISMATCH');
    const back = await createEngine({
      storage: 'file',
      path,
      embedder: 'tfidf',
      onModelMismatch: 'reembed',
    });
    expect(await back.verify()).toEqual([]);
    expect((await back.stats()).model.id).toBe('tfidf');
    await back.close();
  });

  it('a clean close saves the fitted index; a write drops that snapshot in its transaction', async () => {
    const path = join(dir, 'snapshot.db');
    const open = (at = path, tfidf = {}) =>
      createEngine({
        storage: 'file',
        path: at,
        embedder: { tfidf: { refitRatio: 0.5, ...tfidf } },
      });
    const vectorOnly = (e: Engine, q: string) =>
      e.recall(q, { profile: VECTOR_ONLY, noCache: true }).then(ids);
    let engine = await open();
    await engine.rememberMany(NOTES.concat(NOTES.map((n) => ({ ...n, id: `${n.id}-2` }))));
    await engine.recall('fit');
    await engine.remember({ id: 'zebra', text: 'A zebra crossed the savannah at dawn' });
    expect(await vectorOnly(engine, 'zebra')).toEqual([]); // 1 change of 13: "zebra" not learnt
    await engine.close();

    // Restored, not refitted: the vocabulary still lacks "zebra".
    engine = await open();
    expect(await vectorOnly(engine, 'zebra')).toEqual([]);
    expect(await engine.verify()).toEqual([]);
    // An update (the count stays the same) drops the snapshot in its transaction: the file as a
    // crash right after it would leave it is refitted at open, and learns "zebra".
    await engine.update('cat', { text: 'A zebra and a kitten on the sofa' });
    const crashCopy = join(dir, 'snapshot-crash.db');
    copyFileSync(path, crashCopy);
    // what a crash leaves: the file and its write-ahead log
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${crashCopy}-wal`);
    const reopened = await open(crashCopy);
    expect((await vectorOnly(reopened, 'zebra')).sort()).toEqual(['cat', 'zebra']);
    await reopened.close();
    await engine.close();

    // A snapshot fitted with other options is not used either.
    engine = await open(path, { maxFeatures: 5_000 });
    expect((await vectorOnly(engine, 'zebra')).sort()).toEqual(['cat', 'zebra']);
    await engine.close();
  });

  it('bad options are INVALID_INPUT', async () => {
    await rejectsWith(
      createEngine({ storage: 'memory', embedder: { tfidf: { maxFeatures: 0 } } }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      createEngine({ storage: 'memory', embedder: { tfidf: { refitRatio: Number.NaN } } }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      createEngine({ storage: 'memory', embedder: 'bm25' as never }),
      'INVALID_INPUT',
    );
  });
});
