import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standSideBySide, standsAlone } from '../src/recall/query/word-at.ts';

/** The patterns the functions stand for, compiled per word (what recall used to do). */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const B = '(?<![\\p{L}\\p{N}])';
const A = '(?![\\p{L}\\p{N}])';
const alonePattern = (text: string, word: string) =>
  new RegExp(`${B}${escape(word)}${A}`, 'u').test(text);
const sideBySidePattern = (text: string, first: string, second: string) =>
  new RegExp(`${B}${escape(first)}\\s+${escape(second)}${A}`, 'u').test(text);

// letters of several scripts (one outside the BMP), digits, marks, spaces of several kinds,
// punctuation and lone surrogate halves
const pieces = fc.constantFrom(
  'a',
  'b',
  'ab',
  'note',
  'book',
  'é',
  'ж',
  '日',
  '𝒳',
  '9',
  '٣',
  '\u0301',
  ' ',
  '  ',
  '\u00a0',
  '\u3000',
  '\t',
  '-',
  '.',
  "'",
  '😀',
  '\ud835',
  '\udcb3',
  '+',
);
const text = fc.array(pieces, { maxLength: 12 }).map((p) => p.join(''));
const word = fc.array(pieces, { minLength: 1, maxLength: 3 }).map((p) => p.join('').trim() || 'a');

describe('word-at', () => {
  it('standsAlone reads as the lookaround pattern does', () => {
    fc.assert(
      fc.property(text, word, (t, w) => {
        expect(standsAlone(t, w)).toBe(alonePattern(t, w));
      }),
      { numRuns: 3000 },
    );
  });

  it('standSideBySide reads as the pattern with white space between does', () => {
    fc.assert(
      fc.property(text, word, word, (t, a, b) => {
        expect(standSideBySide(t, a, b)).toBe(sideBySidePattern(t, a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('examples: a word inside a longer one, across a surrogate pair, words side by side', () => {
    expect(standsAlone('a notebook', 'note')).toBe(false);
    expect(standsAlone('a note, a book', 'note')).toBe(true);
    expect(standsAlone('𝒳note', 'note')).toBe(false);
    expect(standsAlone('😀note', 'note')).toBe(true);
    expect(standSideBySide('my note  book', 'note', 'book')).toBe(true);
    expect(standSideBySide('my notebook', 'note', 'book')).toBe(false);
    expect(standSideBySide('my note books', 'note', 'book')).toBe(false);
    expect(standSideBySide('keynote book note book', 'note', 'book')).toBe(true);
  });
});
