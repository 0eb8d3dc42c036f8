/**
 * The expansion leg (`recall/recall-legs.ts`): the model's nearest words to the query's words,
 * searched as the lexical leg searches the query.
 */
import { describe, expect, it } from 'vitest';
import { buildFilter } from '../src/input/filter.ts';
import { matchMemo } from '../src/recall/match.ts';
import { expansionLeg, ftsLeg } from '../src/recall/recall-legs.ts';
import type { SimilarityBackend } from '../src/similarity/similarity.ts';
import { textStore } from './helpers.ts';

/** A backend that knows only its words' neighbours (the leg reads nothing else of it). */
const neighboursOf = (table: Record<string, string[]>) =>
  ({ neighbours: (word: string) => table[word] ?? [] }) as unknown as SimilarityBackend;

describe('expansion leg', () => {
  it('leaves out a neighbour half the store holds: its idf is floored, it tells no memory from another', async () => {
    // "apple" in every 2nd memory (half the store), "pear" in every 50th, "plum" in every 10th
    const texts = Array.from({ length: 600 }, (_, i) =>
      [
        i % 2 === 0 ? 'apple' : 'kiwi',
        i % 50 === 0 ? 'pear' : 'fig',
        i % 10 === 0 ? 'plum' : 'orchard',
      ].join(' '),
    );
    const { db, read } = await textStore(texts);
    try {
      const similarity = neighboursOf({ fruit: ['apple', 'pear'] });
      const memo = matchMemo();
      const leg = expansionLeg(
        read,
        similarity,
        'fruit',
        ['fruit'],
        buildFilter(undefined),
        60,
        memo,
      );
      const pear = ftsLeg(read, ['"pear"'], buildFilter(undefined), 60);
      expect(leg.items).toHaveLength(12);
      expect(leg.items).toEqual(pear.items);
      // a neighbour below half the store is searched as before
      const rare = expansionLeg(
        read,
        neighboursOf({ fruit: ['pear', 'plum'] }),
        'fruit',
        ['fruit'],
        buildFilter(undefined),
        60,
        matchMemo(),
      );
      expect(rare.items).toEqual(
        ftsLeg(read, ['"pear"', '"plum"'], buildFilter(undefined), 60).items,
      );
    } finally {
      db.close();
    }
  });
});
