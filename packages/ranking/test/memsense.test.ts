import { describe, expect, it } from 'vitest';
import { candidatePool, memsenseScore, sessionFirst, turnSupport } from '../src/memsense.ts';
import { expectCode } from './helpers.ts';

describe('memsense (seed 001)', () => {
  it('sizes the candidate pool: 80 per route and 40 before MMR at top_k = 10', () => {
    expect(candidatePool(10)).toEqual({ perRoute: 80, beforeRerank: 40 });
    expect(candidatePool(1)).toEqual({ perRoute: 64, beforeRerank: 32 });
    expect(candidatePool(20)).toEqual({ perRoute: 160, beforeRerank: 80 });
    expectCode(() => candidatePool(-1), 'INVALID_INPUT');
    expectCode(() => candidatePool(1.5), 'INVALID_INPUT');
  });
  it('adds 0.1 · memory_score to the RRF score', () => {
    expect(memsenseScore(0.05, 0.5)).toBeCloseTo(0.1, 12);
    expectCode(() => memsenseScore(NaN, 0), 'INVALID_INPUT');
  });
  it('bounds turn support at min(0.12, 0.6 · best)', () => {
    expect(turnSupport(0.1)).toBeCloseTo(0.06, 12);
    expect(turnSupport(0.2)).toBe(0.12);
    expect(turnSupport(1)).toBe(0.12);
    expect(turnSupport(0)).toBe(0);
    expectCode(() => turnSupport(-1), 'INVALID_INPUT');
  });
  it('scores sessions by their best memory plus bounded support from the next best', () => {
    const out = sessionFirst([
      { id: 'a1', session: 'A', score: 0.1 },
      { id: 'a2', session: 'A', score: 0.05 },
      { id: 'a3', session: 'A', score: 0.01 },
      { id: 'b1', session: 'B', score: 0.11 },
    ]);
    expect(out.map((s) => s.session)).toEqual(['A', 'B']);
    expect(out[0]).toMatchObject({
      id: 'a1',
      sessionScore: 0.1,
      supportingTurnCount: 2,
      supportingIds: ['a2', 'a3'],
    });
    expect(out[0]!.turnSupport).toBeCloseTo(0.03, 12);
    expect(out[0]!.score).toBe(0.1 + out[0]!.turnSupport);
    expect(out[1]).toMatchObject({ id: 'b1', score: 0.11, turnSupport: 0, supportingTurnCount: 0 });
    expectCode(() => sessionFirst([{ id: 'x', session: 'S', score: NaN }]), 'INVALID_INPUT');
  });
});
