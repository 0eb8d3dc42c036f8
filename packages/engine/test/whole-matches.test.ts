import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, DEFAULT_PROFILE, type Engine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

/**
 * Coverage and negation (issue 66): a memory holding every part of a query outranks one holding
 * a part of it, unless the other's meaning is clearly stronger, and "without X", "no X", "not X"
 * ask for a memory that says X negated.
 */
describe('whole matches first, negation read', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await engine.rememberMany([
      { id: 'extra', text: 'Burger with extra onions and pickles' },
      { id: 'none', text: 'Burger, no onions, for Sam who hates them' },
      { id: 'soup', text: 'Onion soup recipe from grandma' },
      { id: 'tea', text: 'Tea without sugar for dad' },
      { id: 'cake', text: 'Sugar and sugar again: the cake needs more sugar' },
      { id: 'table', text: 'Walnut coffee table from the market, needs oil' },
      { id: 'rail', text: 'Banister for the garden steps, metal, painted black' },
      {
        id: 'diary',
        text: 'Renovation diary\n\nThe plasterer came on Monday and the skip was collected on Tuesday. We chose walnut for the staircase banister after seeing samples at the timber yard. The painter starts next week.',
      },
    ]);
  });
  afterAll(() => engine.close());

  it('"without X" and "no X" find the memory that says X negated, above the one that says X', async () => {
    for (const q of ['burger without onions', 'burger no onions', 'burger with no onions']) {
      const rs = await engine.recall(q, { explain: true });
      expect(rs[0]!.id, q).toBe('none');
      expect(rs[0]!.weak, q).toBeUndefined();
      const extra = rs.find((r) => r.id === 'extra')!;
      expect(extra.match, q).toBeLessThan(rs[0]!.match);
      expect(rs[0]!.explain!.query!.map((s) => s.kind)).toEqual(['word', 'negation']);
    }
    expect((await engine.recall('tea without sugar'))[0]!.id).toBe('tea');
  });

  it('a memory holding every word typed comes before one that holds a part, however often', async () => {
    const rs = await engine.recall('walnut banister', { explain: true });
    expect(rs[0]!.id).toBe('diary');
    expect(rs[0]!.match).toBe(1);
    expect(
      rs
        .slice(1, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['rail', 'table']);
  });

  it('without whole-first, the partial match the vector leg prefers leads: the guard is what orders them', async () => {
    const profile = { ...DEFAULT_PROFILE, name: 'no whole-first', wholeFirst: null };
    const rs = await engine.recall('burger without onions', { profile });
    expect(rs[0]!.id).toBe('extra');
    const [first] = await engine.recall('burger without onions', { explain: true });
    expect(first!.id).toBe('none');
    expect(first!.explain!.contributions.at(-1)!.component).toBe('wholeFirst');
  });
});
