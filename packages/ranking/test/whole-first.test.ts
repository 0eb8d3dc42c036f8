import { describe, expect, it } from 'vitest';
import type { ScoredCandidate } from '../src/ranked-list.ts';
import { wholeFirst } from '../src/whole-first.ts';

const candidate = (id: string, score: number): ScoredCandidate => ({
  id,
  score,
  similarity: 0,
  legs: [],
  contributions: [{ component: 'fts', value: 1, weight: score, contribution: score }],
});

describe('wholeFirst', () => {
  const list = [candidate('part', 0.5), candidate('other', 0.4), candidate('whole', 0.3)];

  it('puts whole matches above partial ones, lifted by one amount that keeps the scores in order and adding up', () => {
    const out = wholeFirst(
      list,
      [
        { whole: false, meaning: 0.2 },
        { whole: false, meaning: 0 },
        { whole: true, meaning: 0.1 },
      ],
      0.25,
    );
    expect(out.map((c) => c.id)).toEqual(['whole', 'part', 'other']);
    expect(out[0]!.score).toBeGreaterThan(out[1]!.score);
    expect(out[1]!.score).toBeGreaterThan(out[2]!.score);
    const lift = out[0]!.contributions.at(-1)!;
    expect(lift.component).toBe('wholeFirst');
    expect(out[0]!.score).toBe(0.3 + lift.contribution);
  });

  it('a partial match with clearly stronger meaning keeps its place', () => {
    const out = wholeFirst(
      list,
      [
        { whole: false, meaning: 0.6 },
        { whole: false, meaning: 0 },
        { whole: true, meaning: 0.1 },
      ],
      0.25,
    );
    expect(out.map((c) => c.id)).toEqual(['part', 'whole', 'other']);
  });

  it('changes nothing with no whole match, or when the whole ones already lead', () => {
    const none = wholeFirst(
      list,
      list.map(() => ({ whole: false, meaning: 0 })),
      0.25,
    );
    expect(none).toEqual(list);
    const leading = wholeFirst(
      list,
      [
        { whole: true, meaning: 0 },
        { whole: false, meaning: 0 },
        { whole: false, meaning: 0 },
      ],
      0.25,
    );
    expect(leading).toEqual(list);
  });
});
