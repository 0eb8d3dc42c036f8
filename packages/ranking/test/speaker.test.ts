import { describe, expect, it } from 'vitest';
import { namesSpeaker, queryWords, speakerOf } from '../src/speaker.ts';

describe('speakerOf', () => {
  it('reads the opening Name: of a turn, lower-cased', () => {
    expect(speakerOf('Melanie: I just signed up for a pottery class')).toBe('melanie');
    expect(speakerOf('  Dr. Ada Lovelace: the engine works')).toBe('dr. ada lovelace');
    expect(speakerOf('José: hola')).toBe('josé');
  });

  it('finds none in texts that do not open with a speaker', () => {
    for (const text of [
      'Note to self - buy milk',
      '10:30 call with the bank',
      'https://example.com is down',
      'Buy milk, eggs and bread: the usual',
      'A very long sentence with many words: not a name',
      ':empty name',
      'Name:no space after the colon',
      '',
    ])
      expect(speakerOf(text), text).toBeNull();
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
