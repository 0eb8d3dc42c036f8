/**
 * Where a word stands alone in a text: with no letter or digit (`\p{L}`, `\p{N}`) right before or
 * after it, as `(?<![\p{L}\p{N}])word(?![\p{L}\p{N}])` reads it, but without compiling a pattern
 * per word: a pattern with Unicode classes costs about 0.4 ms to compile, more than the rest of
 * reading a query, and recall reads several words a query.
 */

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Unicode white space, as `\s` reads it. */
const SPACE = /^\s$/u;

/** The code point that ends just before index `i` of `text` (a surrogate pair read as one). */
function codePointBefore(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  const high = text.charCodeAt(i - 2);
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? i - 2 : i - 1, i);
}

/** The code point that begins at index `i` of `text`. */
function codePointAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** Whether index `i` falls between the two halves of a surrogate pair (no code point starts there). */
function splitsPair(text: string, i: number): boolean {
  const high = text.charCodeAt(i - 1);
  const low = text.charCodeAt(i);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

const alone = (text: string, start: number, end: number) =>
  !splitsPair(text, start) &&
  !splitsPair(text, end) &&
  !LETTER_OR_DIGIT.test(codePointBefore(text, start)) &&
  !LETTER_OR_DIGIT.test(codePointAt(text, end));

/** Whether `word` (non-empty) stands alone somewhere in `text` (case as written). */
export function standsAlone(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1))
    if (alone(text, i, i + word.length)) return true;
  return false;
}

/**
 * Whether `first`, white space, then `second` stand alone side by side somewhere in `text`, as
 * `(?<![\p{L}\p{N}])first\s+second(?![\p{L}\p{N}])` reads it (case as written).
 */
export function standSideBySide(text: string, first: string, second: string): boolean {
  for (let i = text.indexOf(first); i >= 0; i = text.indexOf(first, i + 1)) {
    if (splitsPair(text, i) || LETTER_OR_DIGIT.test(codePointBefore(text, i))) continue;
    let j = i + first.length;
    const spaceStart = j;
    while (j < text.length && SPACE.test(text[j]!)) j++;
    if (j > spaceStart && text.startsWith(second, j) && alone(text, j, j + second.length))
      return true;
  }
  return false;
}
