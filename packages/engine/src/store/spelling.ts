import { BRITISH_AMERICAN } from './spelling-variants.ts';

/**
 * British spellings folded into American ones ("colour" → "color", "organise" → "organize",
 * "centre" → "center"), for the lexical index and queries alike: a note written in one spelling
 * is found by a query in the other. The pairs come from SCOWL's spelling-specific word lists
 * (`spelling-variants.ts`), so only words that exist in one spelling alone are folded: "hour",
 * "four" and "tour" are words of both and stay as they are.
 */

let pairs: Map<string, string> | undefined;

/** The American spelling of a lower-case British word, or `undefined` when it has none. */
export function americanSpelling(word: string): string | undefined {
  if (!pairs) {
    pairs = new Map();
    for (const pair of BRITISH_AMERICAN.split(',')) {
      const space = pair.indexOf(' ');
      pairs.set(pair.slice(0, space), pair.slice(space + 1));
    }
  }
  return pairs.get(word);
}
