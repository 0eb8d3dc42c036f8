import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoringProfile } from '@anamnesis/ranking';
import { createEngine, DEFAULT_PROFILE, resolveProfile, type Engine } from '../src/index.ts';
import { conversationEngines, defaultEmbedder, rejectsWith } from './helpers.ts';

const clock = Date.UTC(2026, 5, 1);
const S1 = [
  'Ana: how was your weekend?',
  'Ben: we went kayaking on the lake and grilled fish',
  'Ana: lovely, I signed up for a pottery class yesterday',
  'Ben: pottery sounds relaxing',
];
const S2 = [
  'Ben: I started running in the mornings',
  'Ana: I painted a horse last weekend, it hangs in the hall',
  'Ben: what a nice thing to hang in the hall',
];

let withSessions: Engine;
let without: Engine;
const noSpeaker: ScoringProfile = { ...DEFAULT_PROFILE, name: 'no speaker', speaker: 0 };

beforeAll(async () => {
  ({ withSessions, without } = await conversationEngines(clock, [
    { session: 's1', texts: S1, at: clock - 9e6, prefix: 'a' },
    { session: 's2', texts: S2, at: clock - 5e6, prefix: 'b' },
  ]));
});
afterAll(async () => {
  await withSessions.close();
  await without.close();
});

describe('speaker focus in the default profile', () => {
  it('is on in default and lifts the turns of the speaker the query names', async () => {
    expect(DEFAULT_PROFILE.speaker).toBeGreaterThan(0);
    const q = 'what hobbies does Ana have, pottery or painting?';
    const rs = await withSessions.recall(q, { explain: true, topK: 7, noCache: true });
    const lifted = rs.filter((r) =>
      r.explain!.contributions.some((c) => c.component === 'speaker'),
    );
    expect(lifted.length).toBeGreaterThan(0);
    for (const r of lifted) expect(r.text.startsWith('Ana: ')).toBe(true);
    for (const r of rs.filter((r) => !r.text.startsWith('Ana: ')))
      expect(r.explain!.contributions.some((c) => c.component === 'speaker')).toBe(false);
    // Ana's pottery turn now outranks Ben's turn about pottery
    const ids = rs.map((r) => r.id);
    expect(ids.indexOf('a2')).toBeLessThan(ids.indexOf('a3'));
    const plain = await withSessions.recall(q, { topK: 7, noCache: true, profile: noSpeaker });
    expect(plain.map((r) => r.id)).not.toEqual(ids);
  });

  it('contributions add up to the score exactly, and scores come best first', async () => {
    for (const q of ['What did Ana paint?', 'Does Ben like pottery?', 'Ana and Ben weekend']) {
      const rs = await withSessions.recall(q, { explain: true, topK: 7, noCache: true });
      for (const r of rs) {
        let sum = 0;
        for (const c of r.explain!.contributions) sum += c.contribution;
        expect(sum, `${q} ${r.id}`).toBe(r.score);
        const s = r.explain!.contributions.find((c) => c.component === 'speaker');
        if (s) expect(s.contribution).toBe(s.weight * s.value);
      }
      for (let i = 1; i < rs.length; i++)
        expect(rs[i - 1]!.score).toBeGreaterThanOrEqual(rs[i]!.score);
    }
  });

  it('reads only what could be lifted into topK, and the head stays the same', async () => {
    for (const q of [
      'What did Ana paint?',
      'Does Ben like pottery?',
      'what hobbies does Ana have',
    ]) {
      const all = await withSessions.recall(q, { topK: 7, noCache: true });
      for (const topK of [1, 2, 3]) {
        const head = await withSessions.recall(q, { topK, noCache: true });
        expect(head.map((r) => [r.id, r.score])).toEqual(
          all.slice(0, topK).map((r) => [r.id, r.score]),
        );
      }
    }
  });

  it('does nothing in a store without speakers (the same texts, no meta.speaker)', async () => {
    for (const q of ['What did Ana paint?', 'Does Ben like pottery?', 'kayaking']) {
      const a = await without.recall(q, { explain: true, topK: 7, noCache: true });
      const b = await without.recall(q, {
        explain: true,
        topK: 7,
        noCache: true,
        profile: noSpeaker,
      });
      expect(a.map((r) => [r.id, r.score])).toEqual(b.map((r) => [r.id, r.score]));
      expect(
        a.flatMap((r) => r.explain!.contributions).some((c) => c.component === 'speaker'),
      ).toBe(false);
    }
  });

  it('does nothing when the query names no speaker', async () => {
    for (const q of ['kayaking on the lake', 'a horse in the hall']) {
      const a = await withSessions.recall(q, { explain: true, topK: 7, noCache: true });
      const b = await withSessions.recall(q, {
        explain: true,
        topK: 7,
        noCache: true,
        profile: noSpeaker,
      });
      expect(a.map((r) => [r.id, r.score])).toEqual(b.map((r) => [r.id, r.score]));
    }
  });

  it('is off in every seed profile, and a custom weight must be finite and ≥ 0', async () => {
    for (const name of ['mnemosyne', 'mnemosyne-rrf', 'memsense', 'mnestic', 'mnemexa'])
      expect(resolveProfile(name).speaker ?? 0).toBe(0);
    await rejectsWith(
      withSessions.recall('Ana', { profile: { ...DEFAULT_PROFILE, name: 'bad', speaker: -1 } }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      withSessions.recall('Ana', { profile: { ...DEFAULT_PROFILE, name: 'bad', speaker: NaN } }),
      'INVALID_INPUT',
    );
  });
});

describe('speaker focus reads the app-given speaker only', () => {
  it('a note or page whose title has a colon is never lifted (issue 27)', async () => {
    const e = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    try {
      await e.rememberMany([
        { id: 'parking', text: 'Meeting: parking lot\n\nWe talked about the parking lot lines.' },
        {
          id: 'freeze',
          text: 'Hiring freeze\n\nThe meeting decided on a hiring freeze until March.',
        },
        { id: 'todo', text: 'TODO: call the plumber', session: 'notes' },
        {
          id: 'tax',
          text: 'Tax receipts\n\nKeep the tax receipts todo list in the blue folder.',
          session: 'notes',
        },
      ]);
      for (const [q, first] of [
        ['meeting hiring freeze', 'freeze'],
        ['todo tax receipts', 'tax'],
      ] as const) {
        const rs = await e.recall(q, { explain: true, noCache: true });
        expect(rs[0]!.id, q).toBe(first);
        for (const r of rs)
          expect(r.explain!.contributions.some((c) => c.component === 'speaker')).toBe(false);
      }
    } finally {
      await e.close();
    }
  });
});
