import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type RecallStage } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

let engine: Engine;

beforeAll(async () => {
  engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
  await engine.rememberMany([
    { text: 'The dentist appointment moved to Thursday at nine' },
    { text: 'Pancake batter: flour, eggs, milk and a pinch of salt' },
    { text: 'Book the train to Lisbon for the conference in May' },
  ]);
});
afterAll(() => engine.close());

describe('stats().recallStages', () => {
  it('adds up each stage of computed recalls, in pipeline order, and not the cached ones', async () => {
    const before = (await engine.stats()).recallStages;
    expect(Object.keys(before.ms)).toEqual([
      'query',
      'embed',
      'fts',
      'expansion',
      'vector',
      'date',
      'graph',
      'rows',
      'fusion',
      'signals',
      'mmr',
      'answer',
    ] satisfies RecallStage[]);

    await engine.recall('when is the dentist');
    await engine.recall('when is the dentist'); // from the cache: not computed
    await engine.recall('pancake batter on 3 June, 2023', { noCache: true });
    const after = (await engine.stats()).recallStages;

    expect(after.recalls - before.recalls).toBe(2);
    const spent = (stage: RecallStage) => after.ms[stage] - before.ms[stage];
    for (const stage of Object.keys(after.ms) as RecallStage[])
      expect(spent(stage)).toBeGreaterThanOrEqual(0);
    // the default profile's legs ran, and took time
    for (const stage of ['fts', 'vector', 'rows', 'answer'] as const)
      expect(spent(stage)).toBeGreaterThan(0);
  });

  it('is a copy: reading it twice does not share one object with the engine', async () => {
    const a = (await engine.stats()).recallStages;
    await engine.recall('train to Lisbon', { noCache: true });
    expect((await engine.stats()).recallStages.recalls).toBe(a.recalls + 1);
  });
});
