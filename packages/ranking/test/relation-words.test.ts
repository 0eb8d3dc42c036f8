import { describe, expect, it } from 'vitest';
import { relationWordsOf, relationsOf } from '../src/index.ts';

describe('relationWordsOf', () => {
  it('gives the other words of the relations a word says, in any case and number', () => {
    const home = relationWordsOf('Address');
    expect(home).toEqual(expect.arrayContaining(['live', 'flat', 'house', 'cottage']));
    expect(home).not.toContain('address');
    expect(relationWordsOf('cars')).toEqual(expect.arrayContaining(['drive', 'driving']));
    expect(relationWordsOf('cars')).not.toContain('car');
  });

  it('nothing for a word no relation says', () => {
    expect(relationWordsOf('lentils')).toEqual([]);
    expect(relationWordsOf('')).toEqual([]);
  });

  it('each word it gives says the same relation', () => {
    for (const w of relationWordsOf('dentist')) expect(relationsOf(`my ${w}`)).toContain('dentist');
  });
});
