/**
 * The typo distance counts a swap of two neighbouring letters as one edit (issue 71), as the docs
 * say ("restuarant" → "restaurant"): a word of up to seven letters is corrected only within one
 * edit, so "kithcen" finds "kitchen" only while the swap counts one. (A ten-letter word is allowed
 * two edits, so "restuarant" alone cannot tell a swap of one from one of two.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { editDistance } from '../src/recall/query/edit-distance.ts';

const open: Engine[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

describe('editDistance', () => {
  it('a swap of two neighbouring letters is one edit, at the start, inside and at the end', () => {
    expect(editDistance('kithcen', 'kitchen', 1)).toBe(1);
    expect(editDistance('ktichen', 'kitchen', 1)).toBe(1);
    expect(editDistance('kitchne', 'kitchen', 1)).toBe(1);
    expect(editDistance('ikt', 'kit', 1)).toBe(1);
    expect(editDistance('restuarant', 'restaurant', 2)).toBe(1);
    // letters two apart are no swap: two substitutions
    expect(editDistance('cba', 'abc', 2)).toBe(2);
    expect(editDistance('kihctne', 'kitchen', 3)).toBe(3);
    // code points, not UTF-16 units: a swap of two emoji is one edit too
    expect(editDistance('a😀😺', 'a😺😀', 1)).toBe(1);
  });

  it('insertions, deletions and substitutions are one edit each; beyond max it says max + 1', () => {
    expect(editDistance('kitchen', 'kitchen', 1)).toBe(0);
    expect(editDistance('kitchn', 'kitchen', 1)).toBe(1);
    expect(editDistance('kittchen', 'kitchen', 1)).toBe(1);
    expect(editDistance('kitchan', 'kitchen', 1)).toBe(1);
    expect(editDistance('kotchan', 'kitchen', 1)).toBe(2);
    expect(editDistance('kit', 'kitchen', 2)).toBe(3);
  });
});

describe('typo correction with a swapped pair of letters', () => {
  it('"kithcen" (seven letters, one edit allowed) is read as "kitchen"', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    open.push(engine);
    const notes = [
      'Repaint the kitchen cabinets in spring',
      'The bathroom tap drips again',
      'Kitten food: salmon on Fridays',
    ];
    await engine.rememberMany(notes.map((text) => ({ text })));
    const [hit] = await engine.recall('kithcen', { explain: true });
    expect(hit?.text).toBe(notes[0]);
    expect(hit?.explain?.query?.[0]).toMatchObject({ text: 'kithcen', correction: 'kitchen' });
  });
});
