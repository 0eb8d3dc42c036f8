import { asksSelf, relationsOf } from '@anamnesis/ranking';
import { describe, expect, it } from 'vitest';

import { warmUpQueryReading } from '../src/index.ts';
import { parseQuery } from '../src/recall/query/parse.ts';
import { readTime } from '../src/recall/query/time.ts';

/**
 * The warm-up the client's worker runs before its store opens: it may leave no state behind that
 * changes how a query is read (a global expression's `lastIndex`, a table half built).
 */
describe('warmUpQueryReading', () => {
  it('leaves every query read as before, however often it runs', () => {
    const now = new Date(2026, 10, 18, 15).getTime();
    const queries = [
      'what colour is the sofa',
      "don't add cheese",
      'what did I cook two days ago',
      'www.example.com/recipes and gov.uk',
      '"quoted phrase" here v1.2.3',
      'room 12 on 3/6',
      'the café 🍕 order',
      'where do I live now',
      "my sister's new phone number",
    ];
    const read = () =>
      queries.map((q) => [readTime(q, now), parseQuery(q, true), asksSelf(q), relationsOf(q)]);
    const before = read();
    warmUpQueryReading();
    warmUpQueryReading();
    expect(read()).toEqual(before);
  });
});
