import { stemmer as russianStem } from '@orama/stemmers/russian';
import { ftsTokens } from '@anamnesis/ranking';

/**
 * Words in every script, for the lexical index and for queries alike. FTS5's `unicode61`
 * tokenizer splits text at what is not a letter or digit, which is right for scripts written with
 * spaces but keeps a whole Chinese, Japanese or Thai sentence as one token. Here each token of
 * such a script is cut into words by the platform's `Intl.Segmenter` (ICU's dictionaries, in
 * every browser and in Node), and each Cyrillic word is reduced to its Snowball (Russian) stem, so
 * that `велосипеды` finds `велосипед`. Latin-script words go to FTS5 as they are (its `porter`
 * tokenizer stems English). Text with neither kind of script is left untouched.
 */

/** A character of a script written without spaces between words. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A Cyrillic letter. */
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** Whether a text needs more than `unicode61` (one test, so most texts cost a single scan). */
const NEEDS_WORDS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Cyrillic}]/u;

let segmenter: Intl.Segmenter | undefined;

/** The words of one `unicode61` token: cut by `Intl.Segmenter` where the script has no spaces. */
function wordsOf(token: string): string[] {
  if (!UNSPACED.test(token))
    return [CYRILLIC.test(token) ? russianStem(token.toLowerCase()) : token];
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const out: string[] = [];
  for (const s of segmenter.segment(token)) {
    if (!s.isWordLike) continue;
    out.push(CYRILLIC.test(s.segment) ? russianStem(s.segment.toLowerCase()) : s.segment);
  }
  return out;
}

/** The words of a text as the lexical index and queries see them (see the module comment). */
export function lexicalWords(text: string): string[] {
  const tokens = ftsTokens(text);
  if (!NEEDS_WORDS.test(text)) return tokens;
  return tokens.flatMap(wordsOf);
}

/**
 * What the lexical index stores for a text: the text itself when `unicode61` already finds its
 * words, else {@link lexicalWords} joined by spaces.
 */
export function lexicalText(text: string): string {
  return NEEDS_WORDS.test(text) ? lexicalWords(text).join(' ') : text;
}

/** The SQL function the FTS triggers call: `anamnesis_lexical(text)` → {@link lexicalText}. */
export const LEXICAL_SQL_FUNCTION = 'anamnesis_lexical';
