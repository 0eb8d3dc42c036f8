import { describe, expect, it } from 'vitest';
import { contextContributions, contextScores } from '../src/context.ts';
import { expectCode } from './helpers.ts';

const W = { neighbor: 0.5, near: 0.1, session: 0.5 };

describe('contextScores', () => {
  it('gives each memory the margins of its better neighbours (distance 1, 2) and session best', () => {
    const items = [
      { id: 'a', score: 0.3, session: 's' },
      { id: 'b', score: 0.1, session: 's' },
      { id: 'x', score: 0.2, session: 't' },
    ];
    const pairs = [
      { a: 'a', b: 'b', distance: 1 },
      { a: 'a', b: 'c', distance: 1 },
      { a: 'a', b: 'd', distance: 2 },
    ];
    const c = contextScores(items, pairs);
    // the best of its session and of its stretch: nothing moves it
    expect(c.has('a')).toBe(false);
    expect(c.get('b')!.neighbor).toBeCloseTo(0.2, 15);
    expect(c.get('b')!.near).toBe(0);
    expect(c.get('b')!.session).toBeCloseTo(0.2, 15);
    // unscored neighbours join with their partner's session
    expect(c.get('c')).toEqual({ neighbor: 0.3, near: 0, session: 0.3 });
    expect(c.get('d')).toEqual({ neighbor: 0, near: 0.3, session: 0.3 });
    expect(c.has('x')).toBe(false);
  });

  it('never lifts a memory past the best that lifts it while the weights sum to at most 1', () => {
    const items = [
      { id: 'top', score: 0.9, session: 's' },
      { id: 'low', score: 0.1, session: 's' },
    ];
    const c = contextScores(items, [{ a: 'top', b: 'low', distance: 1 }]);
    const lifted = contextContributions(c.get('low')!, { neighbor: 0.6, near: 0, session: 0.4 });
    let score = 0.1;
    for (const x of lifted) score += x.contribution;
    expect(score).toBeLessThanOrEqual(0.9 + 1e-12);
  });

  it('does nothing without sessions', () => {
    const items = [
      { id: 'a', score: 0.3, session: null },
      { id: 'b', score: 0.1, session: null },
    ];
    expect(contextScores(items, []).size).toBe(0);
  });

  it('rejects negative or non-finite scores and odd distances', () => {
    expectCode(() => contextScores([{ id: 'a', score: -1, session: 's' }], []), 'INVALID_INPUT');
    expectCode(() => contextScores([{ id: 'a', score: NaN, session: 's' }], []), 'INVALID_INPUT');
    expectCode(
      () => contextScores([{ id: 'a', score: 1, session: 's' }], [{ a: 'a', b: 'b', distance: 3 }]),
      'INVALID_INPUT',
    );
  });
});

describe('contextContributions', () => {
  it('weighs each value, leaves zero ones out, and keeps a fixed order', () => {
    const out = contextContributions({ neighbor: 0.2, near: 0, session: 0.4 }, W);
    expect(out).toEqual([
      { component: 'context:neighbor', value: 0.2, weight: 0.5, contribution: 0.1 },
      { component: 'context:session', value: 0.4, weight: 0.5, contribution: 0.2 },
    ]);
    expect(
      contextContributions({ neighbor: 1, near: 1, session: 1 }, { ...W, near: 0 }),
    ).toHaveLength(2);
  });
});
