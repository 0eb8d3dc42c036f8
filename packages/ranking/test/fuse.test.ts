import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fuse, type CandidateFeatures } from '../src/fuse.ts';
import { PROFILES, getProfile, poolSize } from '../src/profiles.ts';
import { bestLegRank, indexList, type RankedList } from '../src/ranked-list.ts';
import { expectCode } from './helpers.ts';

const feat = (f: Partial<CandidateFeatures> = {}): CandidateFeatures => ({
  similarity: 0.5,
  importance: 0.5,
  ageHours: 0,
  accessCount: 0,
  memoryScore: 0,
  ...f,
});

const lists: RankedList[] = [
  {
    leg: 'vector',
    items: [
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.4 },
    ],
  },
  {
    leg: 'fts',
    items: [
      { id: 'b', score: -6 },
      { id: 'c', score: -3 },
    ],
  },
];
const features = new Map([
  ['a', feat({ similarity: 0.9, importance: 0.2, ageHours: 10 })],
  ['b', feat({ similarity: 0.4, importance: 0.9, ageHours: 1000 })],
  ['c', feat({ similarity: 0.1, importance: 0.5, ageHours: 0 })],
]);

describe('fuse by profile', () => {
  it('mnemosyne: (0.5·cos + 0.3·bm25/max + 0.2·importance) · (0.7 + 0.3·exp(−age/τ))', () => {
    const p = PROFILES.mnemosyne!;
    const out = fuse(p, lists, features);
    const tau = p.recency.kind === 'multiplier' ? p.recency.halfLifeHours : NaN;
    const expected = (cos: number, fts: number, imp: number, age: number) =>
      (0.5 * cos + 0.3 * fts + 0.2 * imp) * (0.7 + 0.3 * Math.exp(-age / tau));
    const byId = new Map(out.map((r) => [r.id, r]));
    expect(byId.get('a')!.score).toBeCloseTo(expected(0.9, 0, 0.2, 10), 12);
    expect(byId.get('b')!.score).toBeCloseTo(expected(0.4, 1, 0.9, 1000), 12);
    expect(byId.get('c')!.score).toBeCloseTo(expected(0.1, 0.5, 0.5, 0), 12);
    expect(byId.get('b')!.legs).toEqual([
      { leg: 'vector', rank: 2, score: 0.4 },
      { leg: 'fts', rank: 1, score: -6 },
    ]);
    expect(byId.get('b')!.contributions.map((c) => c.component)).toEqual([
      'similarity',
      'fts',
      'importance',
      'recency',
    ]);
  });
  it('mnemosyne-rrf: weights 0.4 / 0.4 / 0.2 with the absent penalty', () => {
    const out = fuse(
      PROFILES['mnemosyne-rrf']!,
      [...lists, { leg: 'usage', items: [{ id: 'c', score: 2 }] }],
      features,
    );
    const a = out.find((r) => r.id === 'a')!;
    expect(a.score).toBeCloseTo(0.4 / 61 + 0.4 / 63 + 0.2 / 62, 15);
  });
  it("mnestic: seed 003's example, Σ 1/(60 + rank) with per-leg detail, absent legs add nothing", () => {
    const out = fuse(PROFILES.mnestic!, lists, features);
    expect(out.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(out[0]!.score).toBe(1 / 62 + 1 / 61);
    expect(out[1]!.score).toBe(1 / 61);
    expect(out[2]!.score).toBe(1 / 62);
    expect(out[0]!.legs.map((l) => [l.leg, l.rank, l.score])).toEqual([
      ['vector', 2, 0.4],
      ['fts', 1, -6],
    ]);
    expect(out[1]!.legs.map((l) => l.leg)).toEqual(['vector']);
  });
  it('keeps the first (best) occurrence of an id listed twice in a leg; rejects bad lists', () => {
    const twice: RankedList[] = [
      {
        leg: 'vector',
        items: [
          { id: 'a', score: 2 },
          { id: 'a', score: 1 },
          { id: 'b', score: 0.5 },
        ],
      },
    ];
    const out = fuse(PROFILES.mnestic!, twice, features);
    expect(out.map((r) => [r.id, r.legs[0]!.rank])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    const nan: RankedList[] = [{ leg: 'vector', items: [{ id: 'a', score: NaN }] }];
    expectCode(() => fuse(PROFILES.mnestic!, nan, features), 'INVALID_INPUT');
    expectCode(() => fuse(PROFILES.mnestic!, [{ leg: '', items: [] }], features), 'INVALID_INPUT');
  });
  it('memsense: Σ 1/(15 + rank) + 0.1 · memory score', () => {
    const f = new Map([...features].map(([id, v]) => [id, { ...v, memoryScore: 0.5 }]));
    const b = fuse(PROFILES.memsense!, lists, f).find((r) => r.id === 'b')!;
    expect(b.score).toBeCloseTo(1 / 17 + 1 / 16 + 0.05, 15);
  });
  it('mnemexa: four factors with the recency factor', () => {
    const a = fuse(PROFILES.mnemexa!, [lists[0]!], features).find((r) => r.id === 'a')!;
    const rec = Math.pow(2, -10 / (24 * 100));
    expect(a.score).toBeCloseTo(0.55 * 0.9 + 0.2 * rec + 0.15 * 0.2 + 0.1 * 0, 12);
  });
  it('property: in every profile, contributions add up to the score exactly', () => {
    const id = fc.constantFrom('a', 'b', 'c');
    const list = fc.record({
      leg: fc.constantFrom('vector', 'fts', 'graph', 'usage'),
      items: fc.array(fc.record({ id, score: fc.double({ min: -50, max: 50, noNaN: true }) }), {
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(list, { maxLength: 4 }),
        fc.constantFrom(...Object.keys(PROFILES)),
        (ls, name) => {
          for (const r of fuse(getProfile(name), ls, features)) {
            let s = 0;
            for (const c of r.contributions) s += c.contribution;
            expect(s).toBe(r.score);
          }
        },
      ),
    );
  });
  it('rejects unknown profiles and missing or NaN features', () => {
    expectCode(() => getProfile('nope'), 'INVALID_INPUT');
    expectCode(() => getProfile('toString'), 'INVALID_INPUT');
    expectCode(() => fuse(PROFILES.mnestic!, lists, new Map()), 'INTERNAL');
    expectCode(
      () =>
        fuse(
          PROFILES.mnestic!,
          lists,
          new Map([...features].map(([k, v]) => [k, { ...v, importance: NaN }])),
        ),
      'INVALID_INPUT',
    );
  });
  it('sizes pools per profile (Memsense: seed 001)', () => {
    expect(poolSize(PROFILES.memsense!, 10)).toEqual({ perLeg: 80, beforeRerank: 40 });
    expect(poolSize(PROFILES.mnestic!, 10).perLeg).toBeGreaterThanOrEqual(30);
    expectCode(() => poolSize(PROFILES.mnestic!, 0), 'INVALID_INPUT');
  });
});

describe('bestLegRank', () => {
  it('is the smallest rank among the legs, Infinity without legs', () => {
    expect(bestLegRank([])).toBe(Infinity);
    expect(bestLegRank([{ rank: 3 }, { rank: 1 }, { rank: 2 }])).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1 }), (ranks) => {
        expect(bestLegRank(ranks.map((rank) => ({ rank })))).toBe(Math.min(...ranks));
      }),
    );
  });
});

describe('tiesShareRank', () => {
  const items = [
    { id: 'a', score: 3 },
    { id: 'b', score: 2 },
    { id: 'c', score: 2 },
    { id: 'b', score: 1 },
    { id: 'd', score: 1 },
  ];
  const ranks = (list: RankedList) =>
    [...indexList(list).ranks].map(([id, r]) => [id, r.rank] as const);

  it('equal scores share the mean of their positions ("1, 2.5, 2.5, 4"); duplicates are still dropped', () => {
    expect(ranks({ leg: 'fts', items, tiesShareRank: true })).toEqual([
      ['a', 1],
      ['b', 2.5],
      ['c', 2.5],
      ['d', 4],
    ]);
    const block = Array.from({ length: 5 }, (_, i) => ({ id: `x${i}`, score: 1 }));
    expect(ranks({ leg: 'v', items: block, tiesShareRank: true }).map(([, r]) => r)).toEqual([
      3, 3, 3, 3, 3,
    ]);
  });

  it('without it every item keeps its position', () => {
    expect(ranks({ leg: 'fts', items })).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
  });
});
