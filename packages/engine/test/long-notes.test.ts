import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

/**
 * Long memories (issue 66): a diary of many paragraphs holds most words of most queries somewhere,
 * so its lexical evidence is that of its best passage (one or two sentences), and the result shows
 * that passage.
 */
const filler = [
  'The skip arrived late on Monday and the driver parked it half on the pavement.',
  'We spent the whole weekend sanding the floorboards in the back bedroom.',
  'My sister came round with a flask of soup and stayed to help with the wallpaper.',
  'The plasterer said the ceiling in the hall would need a second coat after it dried.',
  'It rained for three days and the garden turned into a swamp of clay and bricks.',
  'We found old newspapers from the sixties under the lino in the bathroom.',
  'The neighbours complained about the noise, so we stopped drilling after six.',
  'A pigeon got into the loft through a gap in the tiles and would not leave.',
];
const paragraph = (i: number) => Array.from({ length: 6 }, (_, k) => filler[(i + k) % 8]).join(' ');
const diary = [
  'House renovation diary',
  ...Array.from({ length: 6 }, (_, i) => paragraph(i)),
  'We settled on ash for the banister along the staircase after seeing samples at the timber merchant.',
  ...Array.from({ length: 5 }, (_, i) => paragraph(i + 3)),
  'The surveyor warned that the boiler flue must be moved before the loft can be boarded.',
  ...Array.from({ length: 4 }, (_, i) => paragraph(i + 5)),
].join('\n\n');

describe('a long note', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    await engine.rememberMany([
      { id: 'diary', text: diary },
      { id: 'table', text: 'Ash coffee table from the flea market, needs oiling' },
      { id: 'stairs', text: 'Stair gate for the baby, fits a banister of 5 cm' },
      { id: 'boiler', text: 'Boiler service booked for March' },
      { id: 'loft', text: 'Loft ladder: measure the hatch first' },
      { id: 'bike', text: 'Bike shop on the corner fixes punctures while you wait' },
    ]);
  });
  afterAll(() => engine.close());

  it('is long enough to be read by passages', () => {
    expect(diary.length).toBeGreaterThan(2500);
  });

  it('a query for one of its sentences finds it first, showing that sentence', async () => {
    for (const [q, sentence] of [
      ['ash banister', /^We settled on ash for the banister/],
      ['boiler flue loft', /^The surveyor warned that the boiler flue/],
    ] as const) {
      const rs = await engine.recall(q, { explain: true });
      expect(rs[0]!.id, q).toBe('diary');
      expect(rs[0]!.weak, q).toBeUndefined();
      expect(rs[0]!.passage?.text, q).toMatch(sentence);
      const p = rs[0]!.passage!;
      expect(rs[0]!.text.slice(p.start, p.end).trim()).toBe(p.text);
    }
  });

  it('words it holds only far apart are a partial match, not a whole one', async () => {
    // "punctures" is nowhere in it; "pigeon" and "boiler" are, in paragraphs apart
    const [r] = (await engine.recall('pigeon boiler', { explain: true, topK: 10 })).filter(
      (x) => x.id === 'diary',
    );
    expect(r!.explain!.match!.lexical).toBeLessThan(1);
    expect(r!.explain!.match!.lexical).toBeGreaterThan(0);
  });

  it('a short memory shows no passage', async () => {
    const rs = await engine.recall('bike punctures');
    expect(rs[0]!.id).toBe('bike');
    expect(rs[0]!.passage).toBeUndefined();
  });
});
