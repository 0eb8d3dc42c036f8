import { describe, expect, it } from 'vitest';
import {
  capBySource,
  maxSources,
  nameMatchMultiplier,
  nameMatchScore,
  planInjection,
  sourceNameMatches,
} from '../src/boosts.ts';
import { splitIdentifier } from '../src/identifiers.ts';
import { expectCode } from './helpers.ts';

describe('post-fusion boosts (seed 002, generalised)', () => {
  it('splits camelCase and snake_case identifiers', () => {
    expect(splitIdentifier('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    expect(splitIdentifier('parse_http_response')).toEqual(['parse', 'http', 'response']);
  });
  it('scores name matches: exact 1.0, partial overlap / max(parts) · 0.8', () => {
    expect(nameMatchScore('getUserById', 'where is getUserById defined')).toBe(1);
    // name parts {get,user,by,id}; query parts {get,user} → 2/4·0.8 = 0.4
    expect(nameMatchScore('getUserById', 'get_user')).toBeCloseTo(0.4, 12);
    // {user,name} vs {user,name} → 2/2·0.8 = 0.8
    expect(nameMatchScore('userName', 'user name')).toBeCloseTo(0.8, 12);
    expect(nameMatchMultiplier(['userName'], 'user name')).toBe(3);
    expect(nameMatchMultiplier(['getUserById'], 'get_user')).toBe(1);
    expect(nameMatchScore('', 'x')).toBe(0);
  });
  it('matches source names by a ≥ 5-character prefix covering ≥ 60% of the shorter string', () => {
    expect(sourceNameMatches('src/retrieval.py', 'how does retrieving work')).toBe(true);
    expect(sourceNameMatches('notes/garden-planning.md', 'planner')).toBe(true);
    expect(sourceNameMatches('src/retrieval.py', 'retro')).toBe(false); // prefix 'retr' < 5
    expect(sourceNameMatches('src/cache.py', 'cache')).toBe(true);
    expect(sourceNameMatches('src/cachelayer.py', 'cache')).toBe(true); // 5 ≥ 0.6·5
    expect(sourceNameMatches('src/abcdefghijkl.py', 'abcdezzzzzzz')).toBe(false); // 5 < 0.6·12
    expect(sourceNameMatches('src/api.py', 'api')).toBe(false); // too short
  });
  it('caps distinct sources at min(max(3, n/3), 8) or the override', () => {
    expect(maxSources(3)).toBe(3);
    expect(maxSources(12)).toBe(4);
    expect(maxSources(100)).toBe(8);
    expect(maxSources(100, 5)).toBe(5);
    expectCode(() => maxSources(-1), 'INVALID_INPUT');
    const items = ['a', 'a', 'b', 'c', 'd', 'e'].map((source, i) => ({ source, score: 10 - i }));
    expect(capBySource(items).map((i) => i.source)).toEqual(['a', 'a', 'b', 'c']);
  });
  it('plans link injection: ≥ 2 references, at most min(2, 10 − current), scores 0.9·top or 0.7·p75', () => {
    const plan = planInjection(
      [
        { id: 'one', references: 1 },
        { id: 'two', references: 2 },
        { id: 'three', references: 3 },
        { id: 'test', references: 5, secondary: true },
      ],
      { currentCount: 5, topScore: 1, p75Score: 0.5 },
    );
    expect(plan).toEqual([
      { id: 'three', score: 0.9 },
      { id: 'two', score: 0.35 },
    ]);
    expect(
      planInjection([{ id: 'x', references: 4 }], { currentCount: 9, topScore: 1, p75Score: 1 }),
    ).toHaveLength(1);
    expect(
      planInjection([{ id: 'x', references: 4 }], { currentCount: 10, topScore: 1, p75Score: 1 }),
    ).toHaveLength(0);
    expectCode(
      () => planInjection([], { currentCount: 1, topScore: NaN, p75Score: 1 }),
      'INVALID_INPUT',
    );
  });
});
