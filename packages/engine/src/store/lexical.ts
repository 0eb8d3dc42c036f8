import { stemmer as dutchStem } from '@orama/stemmers/dutch';
import { stemmer as frenchStem } from '@orama/stemmers/french';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { stemmer as italianStem } from '@orama/stemmers/italian';
import { stemmer as portugueseStem } from '@orama/stemmers/portuguese';
import { stemmer as russianStem } from '@orama/stemmers/russian';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { stopwords as dutchStop } from '@orama/stopwords/dutch';
import { stopwords as englishStop } from '@orama/stopwords/english';
import { stopwords as frenchStop } from '@orama/stopwords/french';
import { stopwords as germanStop } from '@orama/stopwords/german';
import { stopwords as italianStop } from '@orama/stopwords/italian';
import { stopwords as portugueseStop } from '@orama/stopwords/portuguese';
import { stopwords as russianStop } from '@orama/stopwords/russian';
import { stopwords as spanishStop } from '@orama/stopwords/spanish';
import { ftsTokens, STOPWORDS } from '@anamnesis/ranking';
import { emojiIn } from './emoji.ts';
import { americanSpelling } from './spelling.ts';

/**
 * Words in every script, for the lexical index and for queries alike. FTS5's `unicode61`
 * tokenizer splits text at what is not a letter or digit, which is right for scripts written with
 * spaces but keeps a whole Chinese, Japanese or Thai sentence as one token. Here each token of
 * such a script is cut into words by the platform's `Intl.Segmenter` (ICU's dictionaries, in
 * every browser and in Node), and each Cyrillic word is reduced to its Snowball (Russian) stem, so
 * that `велосипеды` finds `велосипед`. Latin-script words go to FTS5 as they are (its `porter`
 * tokenizer stems English); when a text's function words show it is German, Spanish, French,
 * Italian, Portuguese or Dutch rather than English, the Snowball stems of its words are added
 * beside them (so `Einheiten` finds `Einheit`, and a query whose language does not show still
 * finds the words as written).
 */

/** A language recognised by its function words, and its Snowball stemmer. */
interface Language {
  stopwords: ReadonlySet<string>;
  stem: (word: string) => string;
}

const LANGUAGES: readonly Language[] = [
  { stopwords: new Set(germanStop), stem: germanStem },
  { stopwords: new Set(spanishStop), stem: spanishStem },
  { stopwords: new Set(frenchStop), stem: frenchStem },
  { stopwords: new Set(italianStop), stem: italianStem },
  { stopwords: new Set(portugueseStop), stem: portugueseStem },
  { stopwords: new Set(dutchStop), stem: dutchStem },
];
/** The bit of English in {@link functionWordBits}. */
const ENGLISH_BIT = 1 << LANGUAGES.length;

let functionWords: Map<string, number> | undefined;

/**
 * Which languages a lower-cased word is a function word of, as bits (bit i: `LANGUAGES[i]`,
 * {@link ENGLISH_BIT}: English), 0 for none: one lookup per word instead of one per language
 * (the lexical text of every memory written asks this of each of its words).
 */
function functionWordBits(word: string): number {
  if (!functionWords) {
    functionWords = new Map();
    const add = (words: Iterable<string>, bit: number) => {
      for (const w of words) functionWords!.set(w, (functionWords!.get(w) ?? 0) | bit);
    };
    LANGUAGES.forEach((language, i) => add(language.stopwords, 1 << i));
    add(englishStop, ENGLISH_BIT);
  }
  return functionWords.get(word) ?? 0;
}

/**
 * The language of lower-cased words by their function words: the one with the most (at least two),
 * and more than English has; `undefined` for English, for too few words, or a tie.
 */
function languageOf(words: readonly string[]): Language | undefined {
  const hits = new Array<number>(LANGUAGES.length + 1).fill(0);
  for (const w of words) {
    const bits = functionWordBits(w);
    if (bits === 0) continue;
    for (let i = 0; i <= LANGUAGES.length; i++) if (bits & (1 << i)) hits[i]!++;
  }
  let best: Language | undefined;
  let bestHits = 0;
  let tie = false;
  LANGUAGES.forEach((language, i) => {
    if (hits[i]! > bestHits) [best, bestHits, tie] = [language, hits[i]!, false];
    else if (hits[i] === bestHits) tie = true;
  });
  if (!best || bestHits < 2 || tie) return undefined;
  return bestHits > hits[LANGUAGES.length]! ? best : undefined;
}

/** The Snowball stems of lower-cased words in the language their function words show, where they differ. */
function addedStems(lower: readonly string[]): string[] {
  return formsOfLower(lower).flatMap((forms) => forms.slice(1));
}

/**
 * Each token lower-cased, with its Snowball stem after it where the tokens' function words show
 * a language other than English and the stem differs.
 */
function wordForms(tokens: readonly string[]): string[][] {
  return formsOfLower(tokens.map((t) => t.toLowerCase()));
}

/** {@link wordForms} of words already lower-cased. */
function formsOfLower(lower: readonly string[]): string[][] {
  const language = languageOf(lower);
  return lower.map((w) => {
    if (!language || language.stopwords.has(w)) return [w];
    const stem = language.stem(w);
    return stem === w ? [w] : [w, stem];
  });
}

/** The scripts written without spaces between words, as regular-expression classes. */
const UNSPACED_SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar']
  .map((s) => `\\p{Script=${s}}`)
  .join('');
/** A character of a script written without spaces between words. */
const UNSPACED = new RegExp(`[${UNSPACED_SCRIPTS}]`, 'u');
/** A Cyrillic letter. */
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** Whether a text needs more than `unicode61` (one test, so most texts cost a single scan). */
const NEEDS_WORDS = new RegExp(`[${UNSPACED_SCRIPTS}\\p{Script=Cyrillic}]`, 'u');

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
  if (!NEEDS_WORDS.test(text))
    return [...tokens, ...addedStems(tokens.map((t) => t.toLowerCase()))];
  return tokens.flatMap(wordsOf);
}

/**
 * A query's words as the lexical index holds them, one group per word: the word lower-cased (cut
 * by `Intl.Segmenter`, or stemmed if Cyrillic, as {@link lexicalWords} does), then its other form
 * (its stem in a language other than English, as {@link lexicalText} adds it).
 */
export function queryWordForms(text: string): string[][] {
  const tokens = ftsTokens(text);
  if (!NEEDS_WORDS.test(text)) return wordForms(tokens);
  return tokens.flatMap(wordsOf).map((w) => [w.toLowerCase()]);
}

/**
 * What the lexical index stores for a text: the text itself when `unicode61` already finds its
 * words (with the added stems of a language other than English after it), else
 * {@link lexicalWords} joined by spaces; then the American spelling of each British word
 * (`spelling.ts`) and the name of each emoji (`emoji.ts`), so that either spelling and an emoji
 * find the text.
 */
export function lexicalText(text: string): string {
  const tokens = ftsTokens(text);
  const lower = tokens.map((t) => t.toLowerCase());
  const extra = [...americanForms(lower), ...emojiIn(text).map((e) => e.name)];
  const spaced = !NEEDS_WORDS.test(text);
  const base = spaced ? text : lexicalWords(text).join(' ');
  if (spaced) extra.unshift(...addedStems(lower));
  return extra.length === 0 ? base : `${base}\n${extra.join(' ')}`;
}

/** The American spellings of the British words among lower-cased words. */
function americanForms(lower: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of lower) {
    const us = americanSpelling(w);
    if (us !== undefined) out.push(us);
  }
  return out;
}

/** The SQL function the FTS triggers call: `anamnesis_lexical(text)` → {@link lexicalText}. */
export const LEXICAL_SQL_FUNCTION = 'anamnesis_lexical';

const RUSSIAN_QUERY_STOPWORDS: ReadonlySet<string> = new Set([
  ...STOPWORDS,
  ...russianStop.map((w) => russianStem(w)),
]);

/**
 * The words a query drops: the shared English stopwords, and for a query in Cyrillic the Russian
 * function words too (compared as stems, as the index holds them: "как", "что", "в" match most
 * Russian texts and only blur the ranking).
 */
export function queryStopwords(query: string): ReadonlySet<string> {
  return CYRILLIC.test(query) ? RUSSIAN_QUERY_STOPWORDS : STOPWORDS;
}
