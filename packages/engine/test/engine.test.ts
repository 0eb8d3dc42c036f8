import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Embedder, type Engine } from '../src/index.ts';
import { defaultEmbedder, NOTES, rejectsWith } from './helpers.ts';
import { DEFAULT_PAGE_CACHE_MB, FILE_PAGE_CACHE_MB, pageCacheMbOf } from '../src/store/schema.ts';

let engine: Engine;
let clock = Date.UTC(2026, 0, 1);
const now = () => clock;

beforeAll(async () => {
  engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder(), now });
  await engine.rememberMany(NOTES);
});
afterAll(() => engine.close());

describe('engine: writes', () => {
  it('remembers and gets a memory with every field', async () => {
    const m = await engine.get('cat');
    expect(m).toMatchObject({
      id: 'cat',
      kind: 'note',
      session: 'home',
      tags: ['pets'],
      importance: 0.5,
      accessCount: expect.any(Number),
    });
    expect(m!.createdAt).toBe(clock);
    expect(await engine.get('nope')).toBeNull();
  });

  it('generates time-ordered ids', async () => {
    const a = await engine.remember({ text: 'first generated id', allowDuplicate: true });
    const b = await engine.remember({ text: 'second generated id' });
    expect(a < b).toBe(true);
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    await engine.forget([a, b]);
  });

  it('returns the existing id for the same text in the same session, unless told otherwise', async () => {
    const again = await engine.remember({ text: NOTES[0]!.text, session: 'home' });
    expect(again).toBe('cat');
    const elsewhere = await engine.remember({ text: NOTES[0]!.text, session: 'other' });
    expect(elsewhere).not.toBe('cat');
    const forced = await engine.remember({
      text: NOTES[0]!.text,
      session: 'home',
      allowDuplicate: true,
    });
    expect(forced).not.toBe('cat');
    expect(await engine.forget([elsewhere, forced])).toBe(2);
  });

  it('returns the existing id for a text that an update or an import put in the session', async () => {
    const e = await createEngine({ storage: 'memory', embedder: 'tfidf', now });
    // once the dedup filter is built (behind the open; until then every lookup reads the index),
    // a text it does not hold is taken for new without a read
    await new Promise((r) => setTimeout(r, 20));
    await e.remember({ id: 'u', text: 'a text before its update', session: 's' });
    await e.update('u', { text: 'the text after its update' });
    expect(await e.remember({ text: 'the text after its update', session: 's' })).toBe('u');
    const other = await createEngine({ storage: 'memory', embedder: 'tfidf', now });
    await other.remember({ id: 'i', text: 'a text that came by import', session: 's' });
    expect(await e.import(await other.export())).toBe(1);
    expect(await e.remember({ text: 'a text that came by import', session: 's' })).toBe('i');
    expect((await e.stats()).memories).toBe(2);
    await other.close();
    await e.close();
  });

  it('updates fields and re-embeds a new text', async () => {
    const id = await engine.remember({
      text: 'the spare key is under the flower pot',
      importance: 0.2,
    });
    clock += 1000;
    const updated = await engine.update(id, {
      text: 'the spare key is with the neighbour now',
      importance: 0.9,
      tags: ['house'],
    });
    expect(updated).toMatchObject({ importance: 0.9, tags: ['house'], updatedAt: clock });
    const hits = await engine.recall('where is the spare key kept with the neighbour', { topK: 1 });
    expect(hits[0]!.id).toBe(id);
    expect(await engine.verify()).toEqual([]);
    await engine.forget(id);
  });

  it('forgets by id and by filter, keeping FTS and vectors in step', async () => {
    await engine.rememberMany([
      { text: 'temporary scratch one', kind: 'scratch' },
      { text: 'temporary scratch two', kind: 'scratch' },
    ]);
    expect(await engine.forget({ kind: 'scratch' })).toBe(2);
    expect(
      (await engine.recall('temporary scratch', { topK: 10 })).some((r) => r.kind === 'scratch'),
    ).toBe(false);
    expect(await engine.verify()).toEqual([]);
    expect(await engine.forget('no-such-id')).toBe(0);
  });

  it('rememberMany is atomic: one bad link target leaves nothing written', async () => {
    const before = (await engine.stats()).memories;
    await rejectsWith(
      engine.rememberMany([
        { text: 'batch item one' },
        { text: 'batch item two', links: [{ to: 'missing-target' }] },
      ]),
      'NOT_FOUND',
    );
    expect((await engine.stats()).memories).toBe(before);
    expect(await engine.verify()).toEqual([]);
  });

  it('links memories (targets in the same batch allowed) and rejects unknown ids', async () => {
    await engine.rememberMany([
      { id: 'a1', text: 'alpha project kickoff notes' },
      { id: 'a2', text: 'alpha project retrospective', links: [{ to: 'a1', kind: 'follows' }] },
    ]);
    await engine.link('a1', 'cat');
    await rejectsWith(engine.link('a1', 'ghost'), 'NOT_FOUND');
    expect((await engine.stats()).links).toBeGreaterThanOrEqual(2);
    await engine.forget(['a1', 'a2']);
  });

  it('refuses a page cache size that is not a number of MB in [1, 4096]', async () => {
    for (const pageCacheMb of [0, 0.5, -64, NaN, Infinity, 4097, '64' as never])
      await rejectsWith(
        createEngine({ storage: 'memory', embedder: 'tfidf', pageCacheMb }),
        'INVALID_INPUT',
      );
    // a memory store is in memory already: a valid size is accepted and changes nothing
    const e = await createEngine({ storage: 'memory', embedder: 'tfidf', pageCacheMb: 16 });
    expect((await e.stats()).memories).toBe(0);
    await e.close();
  });

  it("sizes SQLite's page cache by storage: 16 MB on a file (the OS caches it too), else 64", () => {
    expect(pageCacheMbOf({ storage: 'file' })).toBe(FILE_PAGE_CACHE_MB);
    expect(FILE_PAGE_CACHE_MB).toBe(16);
    expect(pageCacheMbOf({ storage: 'opfs' })).toBe(DEFAULT_PAGE_CACHE_MB);
    expect(pageCacheMbOf({})).toBe(64);
    expect(pageCacheMbOf({ storage: 'file', pageCacheMb: 128 })).toBe(128);
    expect(pageCacheMbOf({ storage: 'opfs', pageCacheMb: 8 })).toBe(8);
  });

  it('rejects bad input with typed errors and writes nothing', async () => {
    const before = (await engine.stats()).memories;
    await rejectsWith(engine.remember({ text: '' }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: '   \n' }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: 42 as never }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: 'x', importance: NaN }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: 'x', importance: 1.5 }), 'INVALID_INPUT');
    await rejectsWith(
      engine.remember({ text: 'x', meta: { "a') OR 1=1 --": 1 } }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      engine.remember({ text: 'x', meta: { ok: { nested: true } as never } }),
      'INVALID_INPUT',
    );
    await rejectsWith(engine.remember({ text: 'x', tags: [''] }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: 'x', createdAt: NaN }), 'INVALID_INPUT');
    await rejectsWith(engine.remember({ text: 'x', id: 'cat' }), 'INVALID_INPUT');
    await rejectsWith(engine.rememberMany([{ text: 'ok' }, { text: '' }]), 'INVALID_INPUT');
    await rejectsWith(engine.update('ghost', { importance: 0.1 }), 'NOT_FOUND');
    await rejectsWith(engine.update('cat', { colour: 'red' } as never), 'INVALID_INPUT');
    await rejectsWith(engine.markUsed('ghost', 'used'), 'NOT_FOUND');
    await rejectsWith(engine.markUsed('cat', 'loved' as never), 'INVALID_INPUT');
    await rejectsWith(engine.forget({}), 'INVALID_INPUT');
    await rejectsWith(engine.forget({ meta: { 'x y': 1 } }), 'INVALID_INPUT');
    expect((await engine.stats()).memories).toBe(before);
  });

  it('stores a 1 MB text and counts it as truncated for the model', async () => {
    const big = 'memory '.repeat(150_000);
    const before = (await engine.stats()).truncated;
    const id = await engine.remember({ text: big });
    expect((await engine.get(id))!.text.length).toBe(big.length);
    expect((await engine.stats()).truncated).toBe(before + 1);
    await engine.forget(id);
  });

  it('treats SQL and FTS5 syntax in tags and text as data', async () => {
    const id = await engine.remember({
      text: 'tricky "quoted" NEAR(x y) text: col:value ^start * )(',
      tags: ["'); DROP TABLE memories; --"],
    });
    const hits = await engine.recall('"quoted" NEAR( col:value ^ * )( AND OR NOT', {
      filter: { tags: ["'); DROP TABLE memories; --"] },
    });
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect((await engine.stats()).memories).toBeGreaterThan(5);
    await engine.forget(id);
  });
});

describe('engine: stats and lifecycle', () => {
  it('reports counts, backend, model and generation', async () => {
    const s = await engine.stats();
    expect(s).toMatchObject({
      backend: 'memory',
      model: { id: 'anamnesis/static-multi-64d', dims: 64, device: 'cpu' },
      schemaVersion: 14,
      lexicalMerge: { due: false }, // a few notes: no merge due
    });
    expect(s.memories).toBe(NOTES.length);
    expect(s.bytes).toBeGreaterThan(0);
    const g = s.generation;
    await engine.markUsed('cat', 'selected');
    expect((await engine.stats()).generation).toBe(g + 1);
  });

  it('says what the store and model are (`about`) as stats does, and an unopened model as loading', async () => {
    const { backend, encrypted, model } = await engine.stats();
    expect(engine.about).toEqual({ backend, encrypted, model });
    let arrive!: (e: Embedder) => void;
    const later = await createEngine({
      storage: 'memory',
      embedder: new Promise<Embedder>((resolve) => (arrive = resolve)),
    });
    try {
      expect(later.about.model).toMatchObject({ id: '', dims: 0, state: 'loading' });
      arrive(await defaultEmbedder());
      await later.model;
      expect(later.about.model).toEqual((await later.stats()).model);
      expect(later.about.model.dims).toBe(64);
    } finally {
      await later.close();
    }
  });

  it('close is idempotent, waits for calls in flight, and later calls fail with CLOSED', async () => {
    const e = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    const write = e.remember({ text: 'written while closing' });
    const closing = e.close();
    const closingAgain = e.close();
    await expect(write).resolves.toEqual(expect.any(String));
    await closing;
    await closingAgain;
    await rejectsWith(e.recall('anything'), 'CLOSED');
    await rejectsWith(e.remember({ text: 'late' }), 'CLOSED');
    await rejectsWith(e.stats(), 'CLOSED');
  });
});

describe('engine: list', () => {
  it('lists memories newest first, filtered and paged', async () => {
    const e = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await e.rememberMany([
      { id: 'a', text: 'first', createdAt: 1000, kind: 'note' },
      { id: 'b', text: 'second', createdAt: 2000, kind: 'note' },
      { id: 'c', text: 'third', createdAt: 3000, kind: 'page' },
    ]);
    expect((await e.list({ order: 'created' })).map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect((await e.list({ order: 'created', filter: { kind: 'note' } })).map((m) => m.id)).toEqual(
      ['b', 'a'],
    );
    expect((await e.list({ order: 'created', limit: 1, offset: 1 })).map((m) => m.id)).toEqual([
      'b',
    ]);
    await rejectsWith(e.list({ limit: 0 }), 'INVALID_INPUT');
    await rejectsWith(e.list({ order: 'random' as never }), 'INVALID_INPUT');
    await e.close();
  });
});

describe('engine: unlink', () => {
  it('removes links of one kind or all kinds', async () => {
    const e = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await e.rememberMany([
      { id: 'a', text: 'note a' },
      { id: 'b', text: 'note b' },
    ]);
    await e.link('a', 'b', { kind: 'wikilink' });
    await e.link('a', 'b', { kind: 'related' });
    expect(await e.unlink('a', 'b', 'wikilink')).toBe(1);
    expect((await e.stats()).links).toBe(1);
    expect(await e.unlink('a', 'b')).toBe(1);
    expect(await e.unlink('a', 'ghost')).toBe(0);
    expect((await e.stats()).links).toBe(0);
    await e.close();
  });
});
