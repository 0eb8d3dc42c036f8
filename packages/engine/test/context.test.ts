import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoringProfile } from '@anamnesis/ranking';
import { DEFAULT_PROFILE, type Engine } from '../src/index.ts';
import { conversationEngines, rejectsWith } from './helpers.ts';

const clock = Date.UTC(2026, 5, 1);
const TURNS = [
  'Ana: how was the weekend, did you go anywhere?',
  'Ben: we drove up to the lake cabin with the kids',
  'Ana: that sounds lovely, what did you do there?',
  'Ben: mostly kayaking and grilling fish',
  'Ana: I want to try kayaking some day',
];
const OTHER = [
  'Ana: my sister finished her thesis on glaciers',
  'Ben: congratulations to her, that is a lot of work',
];

let withSessions: Engine;
let without: Engine;
const plain: ScoringProfile = { ...DEFAULT_PROFILE, name: 'plain', context: null };

beforeAll(async () => {
  ({ withSessions, without } = await conversationEngines(clock, [
    { session: 's1', texts: TURNS, at: clock - 9e6, prefix: 'a' },
    { session: 's2', texts: OTHER, at: clock - 5e6, prefix: 'b' },
  ]));
});
afterAll(async () => {
  await withSessions.close();
  await without.close();
});

describe('conversation context in the default profile', () => {
  it('is on in default and brings in a session neighbour of a strong match', async () => {
    expect(DEFAULT_PROFILE.context).toBeTruthy();
    const rs = await withSessions.recall('where did they drive with the kids', {
      explain: true,
      topK: 7,
    });
    const components = rs.flatMap((r) => r.explain!.contributions.map((c) => c.component));
    expect(components).toContain('context:neighbor');
    expect(components).toContain('context:session');
  });

  it('contributions add up to the score exactly, and scores come best first', async () => {
    for (const q of ['kayaking at the lake', 'thesis', 'weekend kids fish']) {
      const rs = await withSessions.recall(q, { explain: true, topK: 7, noCache: true });
      for (const r of rs) {
        let sum = 0;
        for (const c of r.explain!.contributions) sum += c.contribution;
        expect(sum, `${q} ${r.id}`).toBe(r.score);
      }
      for (let i = 1; i < rs.length; i++)
        expect(rs[i - 1]!.score).toBeGreaterThanOrEqual(rs[i]!.score);
    }
  });

  it('does nothing in a store without sessions', async () => {
    for (const q of ['kayaking at the lake', 'where did they drive with the kids', 'thesis']) {
      const a = await without.recall(q, { explain: true, topK: 7, noCache: true });
      const b = await without.recall(q, { explain: true, topK: 7, noCache: true, profile: plain });
      expect(a.map((r) => [r.id, r.score])).toEqual(b.map((r) => [r.id, r.score]));
      expect(
        a.flatMap((r) => r.explain!.contributions).some((c) => c.component.startsWith('context')),
      ).toBe(false);
    }
  });

  it('stays inside the recall filter', async () => {
    const rs = await withSessions.recall('lake cabin kids', {
      filter: { ids: ['a1', 'a3'] },
      topK: 7,
    });
    expect(rs.map((r) => r.id).sort()).toEqual(['a1', 'a3']);
  });

  it('rejects a malformed context in a custom profile', async () => {
    await rejectsWith(
      withSessions.recall('x', {
        profile: { ...DEFAULT_PROFILE, context: { head: -1, neighbor: 1, near: 0, session: 0 } },
      }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      withSessions.recall('x', {
        profile: { ...DEFAULT_PROFILE, context: { head: 5, neighbor: NaN, near: 0, session: 0 } },
      }),
      'INVALID_INPUT',
    );
  });
});
