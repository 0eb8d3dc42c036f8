import { describe, expect, it } from 'vitest';
import { PhraseScores, type PhraseMatches } from '../src/recall/phrase-scores.ts';

const matches = (n: number): PhraseMatches => ({
  rids: Int32Array.from({ length: n }, (_, i) => i + 1),
  bm25: Float64Array.from({ length: n }, (_, i) => -i),
});

describe('PhraseScores', () => {
  it('reads a phrase once, and again under another bm25() call', () => {
    const kept = new PhraseScores();
    let reads = 0;
    const read = () => (reads++, matches(3));
    const a = kept.get('bm25(a)', '"w"', read);
    expect(kept.get('bm25(a)', '"w"', read)).toBe(a);
    expect(reads).toBe(1);
    kept.get('bm25(b)', '"w"', read);
    expect(reads).toBe(2);
  });

  it('drops the least recently used phrases past its capacity, and never keeps what exceeds it', () => {
    const kept = new PhraseScores(10);
    const reads: string[] = [];
    const get = (phrase: string, n: number) =>
      kept.get('bm25', phrase, () => (reads.push(phrase), matches(n)));
    get('a', 4);
    get('b', 4);
    get('a', 4); // a used last: b goes first
    get('c', 4); // 12 > 10: b dropped
    get('a', 4);
    get('b', 4); // read again; drops c (a was used after it)
    get('a', 4);
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
    const big = get('huge', 11);
    expect(big.rids).toHaveLength(11);
    get('huge', 11);
    expect(reads.filter((r) => r === 'huge')).toHaveLength(2);
    get('a', 4); // a still kept: the oversized list evicted nothing
    expect(reads).toHaveLength(6);
  });
});
