import { describe, expect, it } from 'vitest';
import { namesSpeaker, normalizeSpeaker, queryWords } from '../src/speaker.ts';

describe('normalizeSpeaker', () => {
  it('takes the app-given speaker, trimmed and lower-cased; none for blank or not a string', () => {
    expect(normalizeSpeaker('  Melanie ')).toBe('melanie');
    expect(normalizeSpeaker('Dr. Ada Lovelace')).toBe('dr. ada lovelace');
    for (const value of ['', '   ', null, undefined, 3, true])
      expect(normalizeSpeaker(value)).toBeNull();
  });
});

describe('namesSpeaker', () => {
  it('matches a name word of the query, case-insensitively and before a possessive', () => {
    expect(namesSpeaker(queryWords("What do Melanie's kids like?"), 'melanie')).toBe(true);
    expect(namesSpeaker(queryWords('what did lovelace build'), 'dr. ada lovelace')).toBe(true);
    expect(namesSpeaker(queryWords('What did Caroline research?'), 'melanie')).toBe(false);
  });

  it('ignores short name words and stopwords', () => {
    expect(namesSpeaker(queryWords('what did the dr say to al'), 'dr. al lovelace')).toBe(false);
    expect(namesSpeaker(queryWords('what did they say'), 'they')).toBe(false);
  });
});
