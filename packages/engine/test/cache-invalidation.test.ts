/**
 * Every cache and memo that a write must invalidate, checked by behaviour (issue 42): a recall
 * fills it, a write changes the store, and the same recall asked again must answer from the store
 * as it is now. The assertions are on results (a new memory shows, a forgotten one is gone, a new
 * text is what is found, a match reflects the store), never on counters, so that deleting an
 * invalidation fails one of these tests. The mutation pass (`scripts/mutation-pass.mjs`) deletes
 * each invalidation in turn and runs this file.
 *
 * - the result cache (ARC, keyed by the store's generation): every recall here is cached (no
 *   `noCache`), and the query and options are the same before and after the write;
 * - recall's memos (`recall/rid-memo.ts`: candidate rows, speakers, session neighbours, and the
 *   store's size, its cosine sample and each query slot's document count of `recall/match.ts`),
 *   cleared by every write: checked against an engine opened afresh on the same file;
 * - the vector index and the Bloom filter (in-memory state a write brings up to date after its
 *   commit), and what another process commits to a shared file store (the catch-up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ScoringProfile } from '@anamnesis/ranking';

import {
  createEngine,
  DEFAULT_PROFILE,
  type Engine,
  type EngineOptions,
  type RecallOptions,
  type RecallResult,
} from '../src/index.ts';
import { defaultEmbedder, NOTES } from './helpers.ts';

const CLOCK = Date.UTC(2026, 5, 1);
const dir = mkdtempSync(join(tmpdir(), 'anamnesis-invalidation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened: Engine[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
});

async function open(options: Partial<EngineOptions> = {}): Promise<Engine> {
  const engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => CLOCK,
    ...options,
  });
  opened.push(engine);
  return engine;
}

/** The model's cosine of two texts: what `recall` reports as a result's similarity. */
async function cosine(a: string, b: string): Promise<number> {
  const [x, y] = await (await defaultEmbedder()).embed([a, b]);
  let [dot, xx, yy] = [0, 0, 0];
  for (let i = 0; i < x!.length; i++) {
    dot += x![i]! * y![i]!;
    xx += x![i]! ** 2;
    yy += y![i]! ** 2;
  }
  return dot / Math.sqrt(xx * yy);
}

const ids = (rs: readonly RecallResult[]) => rs.map((r) => r.id);
const hit = (rs: readonly RecallResult[], id: string) => rs.find((r) => r.id === id);
/** A result's contribution of `component` (with `explain: true`), or undefined. */
const contribution = (r: RecallResult | undefined, component: string) =>
  r?.explain?.contributions.find((c) => c.component === component)?.value;

describe('the result cache: the same recall after a write answers from the store as it is now', () => {
  it('remember and rememberMany: a new memory shows in the answer of a query asked before it', async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const q = 'plumber appointment';
    expect(ids(await engine.recall(q))).not.toContain('plumber');
    await engine.remember({ id: 'plumber', text: 'Call the plumber to book an appointment' });
    expect(ids(await engine.recall(q))[0]).toBe('plumber');

    const q2 = 'violin lessons';
    expect(ids(await engine.recall(q2))).not.toContain('violin');
    await engine.rememberMany([
      { id: 'violin', text: 'Violin lessons start on Thursday' },
      { id: 'other', text: 'Renew the car insurance' },
    ]);
    expect(ids(await engine.recall(q2))[0]).toBe('violin');
  });

  it('rememberMany with replace: the replaced memories leave the answer, the new ones join it', async () => {
    const engine = await open();
    await engine.rememberMany([
      ...NOTES,
      { id: 'page-1', text: 'Ferry timetable: the morning ferry leaves at 7', session: 'page' },
    ]);
    const q = 'ferry timetable';
    expect(ids(await engine.recall(q))[0]).toBe('page-1');
    await engine.rememberMany(
      [{ id: 'page-2', text: 'Ferry timetable: the morning ferry leaves at 8', session: 'page' }],
      { replace: { session: 'page' } },
    );
    const after = await engine.recall(q);
    expect(ids(after)).not.toContain('page-1');
    expect(ids(after)[0]).toBe('page-2');
  });

  it('update: the new text is what is found and shown, the old text no longer finds it', async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const old = 'kitten Luna';
    const fresh = 'parrot Kiwi';
    const text = 'I adopted a parrot named Kiwi; he sings at dawn';
    const lexical = (rs: RecallResult[]) =>
      rs.filter((r) => r.explain!.legs.some((l) => l.leg === 'fts')).map((r) => r.id);
    const opts: RecallOptions = { explain: true };
    expect(lexical(await engine.recall(old, opts))).toEqual(['cat']);
    expect(lexical(await engine.recall(fresh, opts))).toEqual([]);
    await engine.update('cat', { text });
    const gone = await engine.recall(old, opts);
    expect(lexical(gone)).toEqual([]);
    expect(gone.map((r) => r.text)).not.toContain(NOTES[0]!.text);
    const found = await engine.recall(fresh, opts);
    expect(lexical(found)).toEqual(['cat']);
    expect(found[0]).toMatchObject({ id: 'cat', text });
  });

  it('update: new importance, tags and metadata are in the answer, and filters see them', async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten sofa';
    const opts: RecallOptions = { explain: true, profile: 'mnemosyne' };
    const before = hit(await engine.recall(q, opts), 'cat');
    expect(contribution(before, 'importance')).toBe(0.5);
    expect(before).toMatchObject({ tags: ['pets'], meta: {} });
    const filtered: RecallOptions = { filter: { tags: ['adopted'] } };
    expect(await engine.recall(q, filtered)).toEqual([]);
    await engine.update('cat', {
      importance: 0.9,
      tags: ['pets', 'adopted'],
      meta: { vet: 'Dr Ng' },
    });
    const after = hit(await engine.recall(q, opts), 'cat');
    expect(contribution(after, 'importance')).toBe(0.9);
    expect(after).toMatchObject({ tags: ['pets', 'adopted'], meta: { vet: 'Dr Ng' } });
    expect(ids(await engine.recall(q, filtered))).toEqual(['cat']);
  });

  it('forget by id, by filter and all: the forgotten memories leave the answer', async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten puppy pets';
    expect(ids(await engine.recall(q))).toEqual(expect.arrayContaining(['cat', 'dog']));
    await engine.forget('cat');
    const noCat = ids(await engine.recall(q));
    expect(noCat).not.toContain('cat');
    expect(noCat).toContain('dog');
    await engine.forget({ tags: ['pets'] });
    expect(ids(await engine.recall(q))).not.toContain('dog');
    const q2 = 'tax deadline';
    expect(ids(await engine.recall(q2))[0]).toBe('tax');
    await engine.forget({ all: true });
    expect(await engine.recall(q2)).toEqual([]);
  });

  it('link and unlink: the graph leg follows the links as they are now', async () => {
    const engine = await open();
    await engine.rememberMany([
      { id: 'seed', text: 'project atlas kickoff' },
      { id: 'budget', text: 'budget spreadsheet' },
    ]);
    const q = 'unrelated words entirely';
    const opts: RecallOptions = { profile: 'mnestic', graph: { seeds: ['seed'] }, explain: true };
    const graphHits = (rs: RecallResult[]) =>
      rs.filter((r) => r.explain!.legs.some((l) => l.leg === 'graph')).map((r) => r.id);
    expect(graphHits(await engine.recall(q, opts))).toEqual([]);
    await engine.link('budget', 'seed');
    expect(graphHits(await engine.recall(q, opts))).toEqual(['budget']);
    await engine.unlink('budget', 'seed');
    expect(graphHits(await engine.recall(q, opts))).toEqual([]);
  });

  it('markUsed: the usage leg ranks the memory used', async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten puppy pets';
    const opts: RecallOptions = { explain: true, profile: 'mnemosyne-rrf' };
    const usage = (r: RecallResult | undefined) => r?.explain?.legs.find((l) => l.leg === 'usage');
    expect(usage(hit(await engine.recall(q, opts), 'dog'))).toBeUndefined();
    await engine.markUsed('dog', 'used');
    expect(usage(hit(await engine.recall(q, opts), 'dog'))).toMatchObject({ rank: 1 });
  });

  it('import: the imported memories show in the answer', async () => {
    const source = await open();
    await source.remember({ id: 'kayak', text: 'Kayak rental at the lake opens in May' });
    const engine = await open();
    await engine.rememberMany(NOTES);
    const q = 'kayak rental';
    expect(ids(await engine.recall(q))).not.toContain('kayak');
    expect(await engine.import(await source.export())).toBe(1);
    expect(ids(await engine.recall(q))[0]).toBe('kayak');
  });

  it("what a query is read as follows the store's words: completions and typo corrections", async () => {
    const engine = await open();
    await engine.rememberMany(NOTES);
    const typing: RecallOptions = { typing: true, explain: true };
    // "panc" begins no stored word yet
    expect(ids(await engine.recall('panc', typing))).not.toContain('pancake');
    await engine.remember({ id: 'pancake', text: 'Pancake batter: flour, eggs, milk' });
    const typed = await engine.recall('panc', typing);
    expect(ids(typed)[0]).toBe('pancake');
    expect(typed[0]!.explain!.query![0]).toMatchObject({ completions: ['pancake'] });
    // "pasport" is no stored word, and no stored word is near it yet
    const typo: RecallOptions = { explain: true };
    const before = await engine.recall('pasport', typo);
    expect(ids(before)).not.toContain('passport');
    await engine.remember({ id: 'passport', text: 'Renew the passport before the trip' });
    const corrected = await engine.recall('pasport', typo);
    expect(ids(corrected)[0]).toBe('passport');
    expect(corrected[0]!.explain!.query![0]).toMatchObject({ correction: 'passport' });
  });

  it('a write by another engine on the same file store shows at the next recall (catch-up)', async () => {
    const path = join(dir, 'catch-up.db');
    const a = await open({ storage: 'file', path });
    const b = await open({ storage: 'file', path });
    await a.rememberMany(NOTES);
    const q = 'kitten puppy pets';
    expect(ids(await a.recall(q))).toEqual(expect.arrayContaining(['cat', 'dog']));
    await b.forget('cat');
    await b.remember({ id: 'hamster', text: 'Our pet hamster Pip escaped from his cage' });
    const after = ids(await a.recall(q));
    expect(after).not.toContain('cat');
    expect(after).toContain('hamster');
  });
});

/** Turns of a chat and notes of a home session, each memory's speaker and time given. */
const TURNS = [
  'Ana: how was your weekend?',
  'Ben: we went kayaking on the lake and grilled fish',
  'Ben: I signed up for a pottery class yesterday',
  'Ana: pottery sounds relaxing',
].map((text, i) => ({
  id: `t${i}`,
  text,
  session: 'chat',
  meta: { speaker: text.slice(0, text.indexOf(':')) },
  createdAt: CLOCK - 9e6 + i * 1000,
}));
const HOME = [
  { id: 'cat', text: 'I adopted a kitten named Luna last spring', at: 0 },
  { id: 'tax', text: 'The quarterly tax filing deadline is in April', at: 2 },
  { id: 'dog', text: 'Our neighbour walks a golden retriever puppy every morning', at: 4 },
].map(({ id, text, at }) => ({ id, text, session: 'home', createdAt: CLOCK - 60_000 + at * 1000 }));

describe("recall's memos: after a write, recall answers as an engine opened afresh on the store does", () => {
  /**
   * Queries that read each memo: a slot's document count (a word no memory holds yet), rows and
   * session neighbours (the cat note), speakers (Ana's class), and the store's size and sample
   * (every query: idf and the cosine scale).
   */
  const QUERIES: [string, RecallOptions][] = [
    ['plumber appointment', {}],
    ['kitten adopted sofa', { topK: 4 }],
    ['what class did Ana sign up for?', { topK: 4 }],
    ['pottery kitten', { profile: 'mnemosyne' }],
  ];

  it('every kind of write: remember, rememberMany (and replace), update, forget, link, unlink, markUsed, import', async () => {
    const path = join(dir, 'memos.db');
    const a = await open({ storage: 'file', path });
    await a.rememberMany([...TURNS, ...HOME]);
    const source = await open();
    await source.remember({ id: 'imported', text: 'The plumber fixed the kitchen tap' });
    const exported = await source.export();

    /**
     * Fills the memos with every query without answering (`minMatch: 1`), so that no retrieval
     * count is queued: its write before the next call would clear the memos itself, and hide a
     * write that does not.
     */
    const fill = async () => {
      await a.stats(); // writes what earlier recalls queued
      for (const [q, o] of QUERIES) expect(await a.recall(q, { ...o, minMatch: 1 }), q).toEqual([]);
    };
    /** Each query's answer from `a` and from an engine opened on the file now. */
    const same = async (what: string) => {
      const fresh = await createEngine({
        storage: 'file',
        path,
        embedder: await defaultEmbedder(),
        now: () => CLOCK,
      });
      try {
        for (const [q, o] of QUERIES) {
          const options = { ...o, explain: true };
          expect(await a.recall(q, options), `${what}: ${q}`).toEqual(
            await fresh.recall(q, options),
          );
        }
      } finally {
        await fresh.close();
      }
    };
    const writes: [string, () => Promise<unknown>][] = [
      ['remember', () => a.remember({ id: 'plumber', text: 'Call the plumber about the leak' })],
      [
        'rememberMany',
        () =>
          a.rememberMany(
            ['bread rolls', 'car insurance', 'garden hose', 'train tickets', 'library books'].map(
              (t, i) => ({ id: `n${i}`, text: `Remember the ${t}` }),
            ),
          ),
      ],
      ['update importance', () => a.update('cat', { importance: 0.95 })],
      ['update speaker', () => a.update('t2', { meta: { speaker: 'Ana' } })],
      [
        'remember a turn between two',
        () =>
          a.remember({
            id: 'between',
            text: 'Sourdough needs flour, water and salt',
            session: 'home',
            createdAt: CLOCK - 59_000,
          }),
      ],
      ['update text', () => a.update('tax', { text: 'Ask the plumber about the boiler' })],
      ['forget', () => a.forget('plumber')],
      ['link', () => a.link('cat', 'dog')],
      ['unlink', () => a.unlink('cat', 'dog')],
      ['markUsed', () => a.markUsed('dog', 'used')],
      ['import', () => a.import(exported)],
      [
        'rememberMany with replace',
        () =>
          a.rememberMany([{ id: 'n9', text: 'Remember the plumber invoice' }], {
            replace: { ids: ['n0', 'n1'] },
          }),
      ],
    ];
    for (const [what, write] of writes) {
      await fill();
      await write();
      await same(what);
    }
  });

  it("a word no memory held: once remembered, the new memory's match counts it", async () => {
    const engine = await open();
    await engine.rememberMany(HOME);
    const q = 'plumber appointment';
    const opts: RecallOptions = { explain: true };
    expect(await engine.recall(q, opts)).toEqual([]); // counted no match for "plumber"
    await engine.remember({ id: 'plumber', text: 'Call the plumber to book an appointment' });
    const [found] = await engine.recall(q, opts);
    expect(found).toMatchObject({ id: 'plumber', match: 1 });
    expect(found!.weak).toBeUndefined();
  });
});

describe('the vector index follows the writes', () => {
  /** Every memory of a small store, whatever its match and similarity. */
  const byMeaning: RecallOptions = { minMatch: 0, minSimilarity: -1, topK: 20 };

  it("update: the memory's similarity is its new text's", async () => {
    const engine = await open();
    await engine.rememberMany(HOME);
    const text = 'I adopted a parrot named Kiwi; he sings at dawn';
    const q = 'tropical bird singing';
    const similarity = async () => hit(await engine.recall(q, byMeaning), 'cat')!.similarity;
    const [now, then] = [await cosine(q, text), await cosine(q, HOME[0]!.text)];
    expect(now - then).toBeGreaterThan(0.1);
    expect(await similarity()).toBeCloseTo(then, 5);
    await engine.update('cat', { text });
    expect(await similarity()).toBeCloseTo(now, 5);
  });

  it('forget and replace: no forgotten vector crowds out a memory found by meaning', async () => {
    const engine = await open();
    // 70 memories nearer the query than the one kept: more than the vector leg takes (60)
    const near = (prefix: string) =>
      Array.from({ length: 70 }, (_, i) => ({
        id: `${prefix}${i}`,
        text: `tropical bird singing at dawn, song ${prefix}${i}`,
        tags: [prefix],
      }));
    await engine.rememberMany([
      { id: 'parrot', text: 'Our parrot Kiwi whistles in the morning' },
      ...near('a'),
    ]);
    const q = 'tropical bird singing';
    const opts: RecallOptions = { profile: 'mnemexa', minMatch: 0, topK: 5 };
    expect(ids(await engine.recall(q, opts))).not.toContain('parrot');
    await engine.forget({ tags: ['a'] });
    expect(ids(await engine.recall(q, opts))).toEqual(['parrot']);
    await engine.rememberMany(near('b'));
    expect(ids(await engine.recall(q, opts))).not.toContain('parrot');
    await engine.rememberMany([{ id: 'c', text: 'Grocery list: rice and beans', tags: ['b'] }], {
      replace: { tags: ['b'] },
    });
    expect(ids(await engine.recall(q, opts))[0]).toBe('parrot');
    expect(await engine.verify()).toEqual([]);
  });

  it('import: an imported memory is found by its meaning', async () => {
    const source = await open();
    await source.remember({ id: 'parrot', text: 'Our parrot Kiwi whistles in the morning' });
    const engine = await open();
    await engine.rememberMany(HOME);
    const q = 'tropical bird singing';
    expect(ids(await engine.recall(q, byMeaning))).not.toContain('parrot');
    await engine.import(await source.export());
    const found = hit(await engine.recall(q, byMeaning), 'parrot');
    expect(found?.similarity).toBeGreaterThan(0);
  });
});

describe('the TF-IDF index follows the writes before its next refit', () => {
  /** Only the TF-IDF leg ranks. */
  const TFIDF_ONLY: ScoringProfile = {
    ...DEFAULT_PROFILE,
    name: 'tfidf-only',
    legs: ['vector'],
    fusion: { ...DEFAULT_PROFILE.fusion, weights: { vector: 1 } } as ScoringProfile['fusion'],
    context: null,
  };

  it('forget and update: no forgotten document crowds out the memory the query finds', async () => {
    // fitted at the first recall, and not again until as many changes as it holds documents
    const engine = await open({ embedder: { tfidf: { refitRatio: 1 } } });
    const near = Array.from({ length: 70 }, (_, i) => ({
      id: `n${i}`,
      text: `tropical bird singing, song ${i}`,
      tags: ['near'],
    }));
    await engine.rememberMany([{ id: 'kept', text: 'a bird on the feeder' }, ...near]);
    const q = 'tropical bird singing';
    const opts: RecallOptions = { profile: TFIDF_ONLY, minMatch: 0, topK: 5 };
    expect(ids(await engine.recall(q, opts))).not.toContain('kept');
    await engine.forget({ tags: ['near'] });
    expect(ids(await engine.recall(q, opts))).toEqual(['kept']);
    await engine.update('kept', { text: 'a tropical bird singing on the feeder' });
    await engine.remember({ id: 'other', text: 'a bird on the fence' });
    expect(ids(await engine.recall(q, opts))).toEqual(['kept', 'other']);
    expect(await engine.verify()).toEqual([]);
  });
});
