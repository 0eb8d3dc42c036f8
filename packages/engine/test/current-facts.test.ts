import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

/**
 * Facts that change (issue 70): a newer memory that states a new value for the same fact
 * supersedes the older, found when it is written; recall answers with the current fact, says
 * what replaced the old one, and `history` lists the chain. Nothing is deleted.
 */
const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 18, 12);
let engine: Engine;
const ids: Record<string, string> = {};

beforeAll(async () => {
  engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => now,
  });
  const notes: [string, string, number][] = [
    ['leeds', 'I live in Leeds, in a terraced house near the park', 500],
    ['brother', 'My brother Tomas lives in Valencia with his wife', 300],
    ['hairdresser', 'My hairdresser is Ines on Mill Street', 420],
    ['bike', 'Bike shop on the corner fixes punctures while you wait', 200],
    ['recipe', 'Lentil soup: onions, carrots, red lentils, cumin', 100],
    ['bristol', 'We moved to Bristol last month, the new flat is near the harbour', 25],
    ['salon', 'Switched hairdressers: now going to Kofi at the salon by the station', 40],
    ['teacher', 'Working as a maths teacher at Greenfield School', 700],
    ['tutor', 'Started a new job as a tutor at the university', 60],
    ['garden', 'The garden needs a new fence before winter', 10],
  ];
  for (const [key, text, age] of notes)
    ids[key] = await engine.remember({ text, createdAt: now - age * DAY });
});
afterAll(() => engine.close());

describe('current facts first', () => {
  it('answers with the current fact, not weak, and says what replaced the old one', async () => {
    for (const [q, current, old] of [
      ['where do I live', 'bristol', 'leeds'],
      ['who is my hairdresser', 'salon', 'hairdresser'],
      ['where do I work', 'tutor', 'teacher'],
    ] as const) {
      const rs = await engine.recall(q, { explain: true });
      expect(rs[0]?.id, q).toBe(ids[current]);
      expect(rs[0]!.weak, q).toBeUndefined();
      const replaced = rs.find((r) => r.id === ids[old]);
      if (replaced) {
        expect(replaced.explain!.supersededBy?.id, q).toBe(ids[current]);
        expect(rs.indexOf(replaced), q).toBeGreaterThan(0);
      }
    }
  });

  it('a question about one’s own fact in other words than the note’s finds it: the relation’s words', async () => {
    // "address" is in no note: the notes say where one lives with live, flat, house
    const rs = await engine.recall('what is my address', { explain: true });
    expect(rs[0]?.id).toBe(ids.bristol);
    expect(rs[0]!.weak).toBeUndefined();
    // the same word in a question about something else reads no relation: the flat's note is no
    // lexical match of it
    const other = await engine.recall('what is the address of the bike shop', { explain: true });
    expect(other[0]?.id).toBe(ids.bike);
    const flat = other.find((r) => r.id === ids.bristol);
    expect(flat?.explain!.legs.map((l) => l.leg) ?? []).not.toContain('fts');
  });

  it('another person’s fact is not superseded: the brother still lives in Valencia', async () => {
    expect(await engine.history(ids.brother!)).toHaveLength(1);
    const rs = await engine.recall('where does Tomas live', { explain: true });
    expect(rs[0]?.id).toBe(ids.brother);
    expect(rs[0]!.explain!.supersededBy).toBeUndefined();
  });

  it('a question about the past leaves the old fact where it ranks', async () => {
    const rs = await engine.recall('where did I live before', { explain: true });
    expect(rs[0]?.id).toBe(ids.leeds);
  });

  it('history lists the chain oldest first; supersede confirms, unsupersede undoes', async () => {
    const chain = await engine.history(ids.bristol!);
    expect(chain.map((m) => m.id)).toEqual([ids.leeds, ids.bristol]);
    expect(chain[0]!.supersededBy).toEqual({
      id: ids.bristol,
      at: now - 25 * DAY,
      confirmed: false,
    });
    await engine.supersede(ids.leeds!, ids.bristol!);
    expect((await engine.history(ids.leeds!))[0]!.supersededBy?.confirmed).toBe(true);
    expect(await engine.unsupersede(ids.leeds!, ids.bristol!)).toBe(true);
    expect(await engine.history(ids.leeds!)).toHaveLength(1);
    expect((await engine.recall('where do I live'))[0]?.id).toBe(ids.leeds);
    // an app sets one the engine did not find
    await engine.supersede(ids.leeds!, ids.bristol!);
    expect((await engine.recall('where do I live'))[0]?.id).toBe(ids.bristol);
    await expect(engine.supersede(ids.leeds!, ids.leeds!)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(engine.history('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
