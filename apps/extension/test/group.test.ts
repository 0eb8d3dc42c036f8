import type { RecallResult } from '@anamnesis/engine';
import { describe, expect, it } from 'vitest';

import { groupByPage } from '../src/group.ts';

/** A result of page `url` matched by `legs` with cosine `similarity`. */
function hit(id: string, url: string, similarity: number, legs: string[]): RecallResult {
  return {
    id,
    text: id,
    score: 1,
    similarity,
    meta: { url },
    explain: { legs: legs.map((leg, rank) => ({ leg, rank, score: 1 })) },
  } as unknown as RecallResult;
}

describe('groupByPage', () => {
  it('one entry per page in order of its best passage; the rest folded under it', () => {
    const pages = groupByPage(
      [
        hit('a1', 'a', 0.5, ['fts', 'vector']),
        hit('b1', 'b', 0.4, ['vector']),
        hit('a2', 'a', 0.2, ['fts']),
        hit('b2', 'b', 0.35, ['vector']),
      ],
      10,
    );
    expect(pages.map((p) => [p.url, p.best.id, p.more.map((m) => m.id)])).toEqual([
      ['a', 'a1', ['a2']],
      ['b', 'b1', ['b2']],
    ]);
  });

  it('cuts weak meaning-only passages, but always shows the best page', () => {
    const weak = [
      hit('x1', 'x', 0.1, ['vector']),
      hit('x2', 'x', 0.05, ['vector']),
      hit('y1', 'y', 0.2, ['vector']),
    ];
    const pages = groupByPage(weak, 10);
    expect(pages.map((p) => p.url)).toEqual(['x']);
    expect(pages[0]!.more).toEqual([]);
    expect(groupByPage(weak, 0)).toEqual([]);
  });
});
