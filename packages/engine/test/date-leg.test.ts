import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoringProfile } from '@anamnesis/ranking';
import { createEngine, DEFAULT_PROFILE, type Engine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

const DAY = 86_400_000;
const june3 = Date.UTC(2023, 5, 3, 14);
let engine: Engine;
const noDate: ScoringProfile = {
  ...DEFAULT_PROFILE,
  name: 'no-date',
  legs: DEFAULT_PROFILE.legs.filter((l) => l !== 'date'),
};

beforeAll(async () => {
  engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => june3 + 30 * DAY,
  });
  await engine.rememberMany([
    {
      id: 'early',
      text: 'We talked about the garden and the new tomato plants',
      createdAt: june3 - 20 * DAY,
    },
    { id: 'on', text: 'She said the garden party was moved indoors', createdAt: june3 },
    { id: 'late', text: 'The garden needs water after the heat wave', createdAt: june3 + 10 * DAY },
  ]);
});
afterAll(() => engine.close());

describe('date leg in the default profile', () => {
  it('ranks first what was written on the day the query names', async () => {
    const rs = await engine.recall('what about the garden on 3 June, 2023?', { explain: true });
    expect(rs[0]!.id).toBe('on');
    expect(rs[0]!.explain!.legs.map((l) => l.leg)).toContain('date');
    for (const r of rs) {
      let sum = 0;
      for (const c of r.explain!.contributions) sum += c.contribution;
      expect(sum).toBe(r.score);
    }
  });

  it('does nothing when the query names no date', async () => {
    for (const q of ['garden', 'what about the garden at 10:30?', 'tomato plants, 1/2 a row']) {
      const a = await engine.recall(q, { explain: true, noCache: true });
      const b = await engine.recall(q, { explain: true, noCache: true, profile: noDate });
      expect(a.map((r) => [r.id, r.score])).toEqual(b.map((r) => [r.id, r.score]));
      expect(a.some((r) => r.explain!.legs.some((l) => l.leg === 'date'))).toBe(false);
    }
  });

  it('a window read once is read again after a write: a memory written into it, or forgotten, counts at the next recall', async () => {
    const q = 'the garden on 3 June, 2023';
    const dated = async () =>
      (await engine.recall(q, { explain: true, noCache: true }))
        .filter((r) => r.explain!.legs.some((l) => l.leg === 'date'))
        .map((r) => r.id)
        .sort();
    expect(await dated()).toEqual(['on']);
    expect(await dated()).toEqual(['on']); // the window kept
    await engine.remember({
      id: 'also',
      text: 'The garden gate was painted green',
      createdAt: june3 + 3_600_000,
    });
    expect(await dated()).toEqual(['also', 'on']);
    // the same window under another filter is its own
    const filtered = await engine.recall(q, {
      explain: true,
      noCache: true,
      filter: { ids: ['also'] },
    });
    expect(filtered.map((r) => r.id)).toEqual(['also']);
    await engine.forget('also');
    expect(await dated()).toEqual(['on']);
  });

  it('stays inside the recall filter', async () => {
    const rs = await engine.recall('garden on 3 June, 2023', {
      filter: { ids: ['early', 'late'] },
    });
    expect(rs.map((r) => r.id).sort()).toEqual(['early', 'late']);
  });
});

describe('a busy period', () => {
  it('the date leg takes the period’s memories by relevance, not the oldest ones', async () => {
    const may = Date.UTC(2023, 4, 1);
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => may + 60 * DAY,
    });
    try {
      // 6,000 routine entries early in May, then the one the question is about, on 30 May
      await e.rememberMany(
        Array.from({ length: 6000 }, (_, i) => ({
          text: `Daily log ${i}: checked the mail and tidied the desk`,
          createdAt: may + i * 60_000,
        })),
      );
      await e.remember({
        id: 'boat',
        text: 'The sailboat hull was repaired and repainted at the harbour',
        createdAt: may + 29 * DAY,
      });
      const rs = await e.recall('what happened to the sailboat in May 2023?', {
        explain: true,
        noCache: true,
      });
      const boat = rs.find((r) => r.id === 'boat');
      expect(boat?.explain!.legs.map((l) => l.leg)).toContain('date');
    } finally {
      await e.close();
    }
  }, 60_000);
});
