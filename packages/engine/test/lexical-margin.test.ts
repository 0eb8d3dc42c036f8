import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, DEFAULT_PROFILE, type Engine } from '../src/index.ts';
import type { ScoringProfile } from '@anamnesis/ranking';
import { rejectsWith } from './helpers.ts';

/**
 * `lexicalEvidence.margin`: a lexical rank counts `(score / best)^margin` of itself, so that a
 * clear BM25 lead is kept against a memory another list ranks first.
 */
describe('the lexical margin', () => {
  let engine: Engine;
  const strong = 'strong';
  const weak = 'weak';
  beforeAll(async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    // other memories, so that both query words are rare (BM25's idf is about 0 for a word in half the store)
    for (const text of [
      'Pancake batter: flour, eggs, milk',
      'Call the plumber to book an appointment',
      'The train to Lyon leaves at nine',
      'Water the tomatoes twice a week',
      'Renew the passport before March',
      'Book club meets on Thursday evening',
    ])
      await engine.remember({ text });
    await engine.remember({
      id: strong,
      text: 'the zeppelin hangar zeppelin tour zeppelin tickets',
    });
    await engine.remember({
      id: weak,
      text: 'a long note about many other things, the weather, the garden, a hangar at the end, and more words besides',
    });
  });
  afterAll(() => engine.close());

  /** Only the lexical leg and one caller list that puts `weak` first. */
  const profile = (margin?: number): ScoringProfile => ({
    ...DEFAULT_PROFILE,
    name: `margin ${margin}`,
    legs: ['fts'],
    context: null,
    priors: null,
    lexicalEvidence: { full: 0.01, exponent: 0, ...(margin !== undefined ? { margin } : {}) },
    // the margin alone: whole matches first would lift `strong` (it holds both words) either way
    wholeFirst: null,
  });
  const ask = (margin?: number) =>
    engine.recall('zeppelin hangar', {
      profile: profile(margin),
      noCache: true,
      extraLists: [{ label: 'other', items: [{ id: weak, score: 1 }], weight: 0.5 }],
    });

  it('without it, a second lexical match that another list ranks first comes first', async () => {
    const ids = (await ask()).map((r) => r.id);
    expect(ids.slice(0, 2)).toEqual([weak, strong]);
  });

  it('with it, the clear lexical leader stays first', async () => {
    const ids = (await ask(2)).map((r) => r.id);
    expect(ids.slice(0, 2)).toEqual([strong, weak]);
  });

  it('a margin that is not a finite number ≥ 0 is INVALID_INPUT', async () => {
    for (const margin of [-1, Number.NaN, Infinity])
      await rejectsWith(engine.recall('zeppelin', { profile: profile(margin) }), 'INVALID_INPUT');
  });
});
