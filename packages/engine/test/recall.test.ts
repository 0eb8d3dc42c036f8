import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ENGINE_PROFILES, type Engine, type MemoryFilter } from '../src/index.ts';
import { defaultEmbedder, NOTES, rejectsWith } from './helpers.ts';

let engine: Engine;
const DAY = 86_400_000;
const clock = Date.UTC(2026, 5, 1);

beforeAll(async () => {
  engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => clock,
  });
  // created over six days, one per day
  await engine.rememberMany(
    NOTES.map((n, i) => ({
      ...n,
      createdAt: clock - (NOTES.length - i) * DAY,
      importance: i / 10,
    })),
  );
});
afterAll(() => engine.close());

const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe('recall', () => {
  it('finds by words and by meaning', async () => {
    expect(ids(await engine.recall('tax deadline', { topK: 1 }))).toEqual(['tax']);
    expect(ids(await engine.recall('a cat sleeping on the couch', { topK: 1 }))).toEqual(['cat']);
    expect(ids(await engine.recall('baking a loaf', { topK: 1 }))).toEqual(['bread']);
    expect(ids(await engine.recall('trekking in the mountains', { topK: 1 }))).toEqual(['hike']);
  });

  it('returns score and similarity on every result, best first', async () => {
    const rs = await engine.recall('pets animals', { topK: 6 });
    for (const r of rs) {
      expect(Number.isFinite(r.score)).toBe(true);
      expect(r.similarity).toBeGreaterThanOrEqual(-1);
      expect(r.similarity).toBeLessThanOrEqual(1);
    }
    for (let i = 1; i < rs.length; i++)
      expect(rs[i - 1]!.score).toBeGreaterThanOrEqual(rs[i]!.score);
  });

  it('explains every result in every profile: contributions add up to the score exactly', async () => {
    for (const profile of Object.keys(ENGINE_PROFILES)) {
      const rs = await engine.recall('kitten on the sofa', { profile, explain: true, topK: 5 });
      expect(rs.length, profile).toBeGreaterThan(0);
      for (const r of rs) {
        expect(r.explain!.profile).toBe(profile);
        let sum = 0;
        for (const c of r.explain!.contributions) sum += c.contribution;
        expect(sum, `${profile} ${r.id}`).toBe(r.score);
      }
    }
    const [top] = await engine.recall('kitten on the sofa', { explain: true, topK: 1 });
    expect(top!.explain!.legs.map((l) => l.leg)).toContain('vector');
    expect(top!.explain!.legs.every((l) => l.rank >= 1)).toBe(true);
  });

  it('applies filters inside every leg', async () => {
    const q = 'pets and work and food';
    // the query matches most of these memories weakly: minMatch 0 keeps what the filters let through
    const recall = (filter: MemoryFilter) => engine.recall(q, { filter, minMatch: 0 });
    expect(new Set((await recall({ tags: ['pets'] })).map((r) => r.id))).toEqual(
      new Set(['cat', 'dog']),
    );
    expect(ids(await recall({ session: 'work' })).sort()).toEqual(['meeting', 'tax']);
    expect(ids(await recall({ ids: ['bread'] }))).toEqual(['bread']);
    expect(ids(await recall({ after: clock - 2 * DAY })).sort()).toEqual(['dog', 'meeting']);
    expect(ids(await recall({ before: clock - 5 * DAY }))).toEqual(['cat']);
    expect(await recall({ kind: 'page' })).toEqual([]);
    await engine.update('bread', { meta: { rating: 5, vegan: true } });
    expect(ids(await recall({ meta: { rating: 5 } }))).toEqual(['bread']);
    expect(ids(await recall({ meta: { vegan: true } }))).toEqual(['bread']);
    await rejectsWith(engine.recall(q, { filter: { meta: { '1=1; --': 1 } } }), 'INVALID_INPUT');
    await rejectsWith(engine.recall(q, { filter: { colour: 'red' } as never }), 'INVALID_INPUT');
  });

  it('caches results until the next write', async () => {
    const s0 = await engine.stats();
    const first = await engine.recall('sourdough starter');
    const second = await engine.recall('sourdough starter');
    expect(second).toBe(first);
    const s1 = await engine.stats();
    expect(s1.cache.hits).toBe(s0.cache.hits + 1);
    await engine.markUsed('bread', 'used');
    const third = await engine.recall('sourdough starter');
    expect(third).not.toBe(first);
    expect((await engine.stats()).cache.misses).toBe(s1.cache.misses + 1);
    expect(await engine.recall('sourdough starter', { noCache: true })).not.toBe(third);
  });

  it('applies mnemexa’s cosine floor and a caller minSimilarity', async () => {
    const rs = await engine.recall('kitten', { profile: 'mnemexa', topK: 6 });
    expect(rs.every((r) => r.similarity >= 0.35)).toBe(true);
    const floor = await engine.recall('kitten', { minSimilarity: 0.99 });
    expect(floor).toEqual([]);
  });

  it('recency: mnemosyne prefers the newer of two equally relevant memories', async () => {
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => clock,
    });
    await e.rememberMany([
      { id: 'old', text: 'client prefers async standups', createdAt: clock - 300 * DAY },
      { id: 'new', text: 'Client prefers async standups', createdAt: clock - DAY },
    ]);
    expect(ids(await e.recall('client standups', { profile: 'mnemosyne' }))).toEqual([
      'new',
      'old',
    ]);
    const boost = await e.recall('client standups', {
      profile: 'mnemexa',
      recencyMode: 'boost',
      explain: true,
    });
    const weights = Object.fromEntries(
      boost[0]!.explain!.contributions.map((c) => [c.component, c.weight]),
    );
    expect(weights.recency).toBeCloseTo(0.28, 12);
    expect(weights.similarity).toBeCloseTo(0.47, 12);
    await e.close();
  });

  it('usage: selected and used memories rank higher in mnemosyne-rrf', async () => {
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => clock,
    });
    await e.rememberMany([
      { id: 'x', text: 'notes about the garden fence' },
      { id: 'y', text: 'Notes about the garden fence' },
    ]);
    const before = await e.recall('garden fence', { profile: 'mnemosyne-rrf' });
    const loser = before[1]!;
    await e.markUsed(loser.id, 'selected');
    await e.markUsed(loser.id, 'used');
    const after = await e.recall('garden fence', { profile: 'mnemosyne-rrf', explain: true });
    const gap = (rs: typeof before) =>
      rs.find((r) => r.id !== loser.id)!.score - rs.find((r) => r.id === loser.id)!.score;
    // the used memory moves from the shared penalty rank to usage rank 1; the other falls to rank 2
    expect(gap(before) - gap(after)).toBeCloseTo(0.2 / 61 - 0.2 / 62, 15);
    expect(
      after.find((r) => r.id === loser.id)!.explain!.legs.find((l) => l.leg === 'usage'),
    ).toMatchObject({ rank: 1 });
    await e.close();
  });

  it('graph leg: bounded hops from seeds, ranked by distance', async () => {
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => clock,
    });
    await e.rememberMany([
      { id: 'seed', text: 'project atlas kickoff' },
      { id: 'hop1', text: 'budget spreadsheet', links: [{ to: 'seed' }] },
      { id: 'hop2', text: 'vendor contact list', links: [{ to: 'hop1' }] },
      { id: 'hop3', text: 'office plants watering', links: [{ to: 'hop2' }] },
    ]);
    const rs = await e.recall('unrelated words entirely', {
      profile: 'mnestic',
      graph: { seeds: ['seed'], maxHops: 2 },
      explain: true,
      topK: 10,
    });
    const graph = rs.flatMap((r) =>
      r.explain!.legs.filter((l) => l.leg === 'graph').map((l) => [r.id, l.rank, l.score]),
    );
    expect(graph).toEqual([
      ['hop1', 1, -1],
      ['hop2', 2, -2],
    ]);
    await rejectsWith(e.recall('x', { graph: { seeds: ['seed'], maxHops: 0 } }), 'INVALID_INPUT');
    await e.close();
  });

  it('extra lists are fused with their own label', async () => {
    const rs = await engine.recall('completely unrelated query about spaceships', {
      profile: 'mnestic',
      extraLists: [
        {
          label: 'pinned',
          items: [
            { id: 'meeting', score: 1 },
            { id: 'ghost', score: 0.5 },
          ],
          weight: 5,
        },
      ],
      explain: true,
    });
    expect(rs[0]!.id).toBe('meeting');
    expect(rs[0]!.explain!.legs.some((l) => l.leg === 'pinned')).toBe(true);
    await rejectsWith(
      engine.recall('x', { extraLists: [{ label: 'fts', items: [] }] }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      engine.recall('x', { extraLists: [{ label: 'bad label', items: [] }] }),
      'INVALID_INPUT',
    );
  });

  it('groupBy session returns one result per session with bounded turn support', async () => {
    const rs = await engine.recall('pets kitten puppy sofa', {
      groupBy: 'session',
      explain: true,
      topK: 10,
    });
    const sessions = rs.map((r) => r.session);
    expect(new Set(sessions).size).toBe(sessions.length);
    const home = rs.find((r) => r.session === 'home')!;
    expect(home.explain!.session!.supportingTurnCount).toBeGreaterThan(0);
    expect(home.explain!.session!.turnSupport).toBeLessThanOrEqual(0.12);
  });

  it('neighbors adds adjacent memories of the same session', async () => {
    const rs = await engine.recall('sourdough', { topK: 1, neighbors: 1, explain: true });
    expect(rs[0]!.id).toBe('bread');
    const added = rs.slice(1);
    expect(added.length).toBeGreaterThan(0);
    for (const n of added) {
      expect(n.session).toBe('home');
      expect(n.explain!.neighborOf).toBe('bread');
    }
  });

  it('MMR and memsense drop near duplicates', async () => {
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => clock,
    });
    await e.rememberMany([
      { id: 'd1', text: 'the wifi password is on the fridge', session: '1' },
      { id: 'd2', text: 'The wifi password is on the fridge', session: '2' },
      { id: 'o', text: 'router admin page lives at the gateway address', session: '3' },
    ]);
    const rs = await e.recall('wifi password router', { profile: 'memsense', explain: true });
    expect(rs.filter((r) => r.id.startsWith('d'))).toHaveLength(1);
    expect(rs[0]!.explain!.mmrRank).toBe(1);
    const plain = await e.recall('wifi password router', { mmr: false });
    expect(plain.filter((r) => r.id.startsWith('d'))).toHaveLength(2);
    await e.close();
  });

  it('fills a token budget instead of topK', async () => {
    const rs = await engine.recall('notes', { tokenBudget: 30, minMatch: 0 });
    const tokens = rs.reduce((s, r) => s + Math.ceil(r.text.length / 4), 0);
    expect(rs.length).toBeGreaterThan(0);
    expect(tokens).toBeLessThanOrEqual(40);
  });

  it('handles empty, hostile and bad queries and options', async () => {
    expect(await engine.recall('')).toEqual([]);
    expect(await engine.recall('   ')).toEqual([]);
    for (const q of [
      '"',
      "'",
      '(',
      ')',
      '*',
      ':',
      '^',
      'NEAR(a b)',
      'text:foo',
      'a AND',
      'OR OR',
      '"unbalanced',
      '{}',
      '-x',
    ]) {
      await expect(engine.recall(q)).resolves.toBeInstanceOf(Array);
    }
    await rejectsWith(engine.recall(7 as never), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { profile: 'nope' }), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { topK: 0 }), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { topK: NaN }), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { minSimilarity: NaN }), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { colour: 1 } as never), 'INVALID_INPUT');
    await rejectsWith(engine.recall('x', { mmr: { lambda: NaN } }), 'INVALID_INPUT');
  });

  it('records retrieved events without a generation bump', async () => {
    await new Promise((r) => setTimeout(r, 20));
    const before = await engine.stats();
    const rs = await engine.recall('asynchronous updates client', { topK: 1, noCache: true });
    await new Promise((r) => setTimeout(r, 20));
    const after = await engine.stats();
    expect(after.usageEvents).toBe(before.usageEvents + rs.length);
    expect(after.generation).toBe(before.generation);
    expect((await engine.get(rs[0]!.id))!.accessCount).toBeGreaterThan(0);
  });
});
