/**
 * Which FTS5 phrases are one. The lexical index stems English with FTS5's `porter` tokenizer, so
 * `"official"` and `"officials"` are both the token `offici`: the same memories, the same
 * `bm25()` term in every memory. A query and its expansion often hold both (the model's nearest
 * words to a word are its other forms), and each was read from the index on its own. A phrase's
 * key names what FTS5 searches for, so that what is kept of one phrase (`PhraseScores`, counts)
 * answers for the other, and the pruned top k counts them as one phrase given twice, as FTS5's
 * `bm25()` does.
 *
 * The stemmer is FTS5's own (`fts5PorterCb` in SQLite's `fts5_tokenize.c`, public domain), its
 * generated rule tables written out as data: `phrase-key.test.ts` checks it against FTS5 itself
 * on every word of the default model's vocabulary and of the test corpora. Only a phrase of one
 * word of lower-case ASCII letters and digits gets a stem key (`unicode61` passes such a word to
 * `porter` unchanged; a digit is a consonant to it); any other phrase is its own key.
 */

/** A rule's condition on the stem left before the suffix (Porter's m > 0, m > 1, *v*…). */
type Condition = (word: string, stem: number) => boolean;

/** FTS5's vowel test: `y` is a vowel after a consonant. */
function isVowel(c: string, yIsVowel: boolean): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || (yIsVowel && c === 'y');
}

/**
 * From `at`, past one run of vowels and then of consonants: the index after that consonant, or
 * 0 where there is none (`fts5PorterGobbleVC`).
 */
function gobbleVC(word: string, at: number, end: number, prevConsonant: boolean): number {
  let consonant = prevConsonant;
  let i = at;
  for (; i < end; i++) {
    consonant = !isVowel(word[i]!, consonant);
    if (!consonant) break;
  }
  for (i++; i < end; i++) {
    consonant = !isVowel(word[i]!, consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** m > 0. */
const mGt0: Condition = (w, n) => gobbleVC(w, 0, n, false) !== 0;
/** m > 1. */
const mGt1: Condition = (w, n) => {
  const at = gobbleVC(w, 0, n, false);
  return at !== 0 && gobbleVC(w, at, n, true) !== 0;
};
/** m = 1. */
const mEq1: Condition = (w, n) => {
  const at = gobbleVC(w, 0, n, false);
  return at !== 0 && gobbleVC(w, at, n, true) === 0;
};
/** *o: the stem ends consonant, vowel, consonant, the last not w, x or y. */
const oStar: Condition = (w, n) => {
  const last = w[n - 1];
  if (last === 'w' || last === 'x' || last === 'y') return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(w[i]!, consonant);
    mask = ((mask << 1) + (consonant ? 1 : 0)) & 0x7;
  }
  return mask === 0x5;
};
/** m > 1 and the stem ends in s or t. */
const mGt1SorT: Condition = (w, n) => (w[n - 1] === 's' || w[n - 1] === 't') && mGt1(w, n);
/** *v*: the stem holds a vowel (`y` after the first letter counts). */
const vowel: Condition = (w, n) => {
  for (let i = 0; i < n; i++) if (isVowel(w[i]!, i > 0)) return true;
  return false;
};

/** A rule: suffix, its replacement, the condition on the stem, and whether it reports a change. */
type Rule = readonly [
  suffix: string,
  replacement: string,
  condition: Condition | null,
  reports?: true,
];

// FTS5's generated steps, in its order: the first rule whose suffix ends the word (with at least
// one letter before it) decides, whether or not its condition holds.
const STEP_1B: readonly Rule[] = [
  ['eed', 'ee', mGt0],
  ['ed', '', vowel, true],
  ['ing', '', vowel, true],
];
const STEP_1B2: readonly Rule[] = [
  ['at', 'ate', null, true],
  ['bl', 'ble', null, true],
  ['iz', 'ize', null, true],
];
const STEP_2: readonly Rule[] = [
  ['ational', 'ate', mGt0],
  ['tional', 'tion', mGt0],
  ['enci', 'ence', mGt0],
  ['anci', 'ance', mGt0],
  ['izer', 'ize', mGt0],
  ['logi', 'log', mGt0],
  ['bli', 'ble', mGt0],
  ['alli', 'al', mGt0],
  ['entli', 'ent', mGt0],
  ['eli', 'e', mGt0],
  ['ousli', 'ous', mGt0],
  ['ization', 'ize', mGt0],
  ['ation', 'ate', mGt0],
  ['ator', 'ate', mGt0],
  ['alism', 'al', mGt0],
  ['iveness', 'ive', mGt0],
  ['fulness', 'ful', mGt0],
  ['ousness', 'ous', mGt0],
  ['aliti', 'al', mGt0],
  ['iviti', 'ive', mGt0],
  ['biliti', 'ble', mGt0],
];
const STEP_3: readonly Rule[] = [
  ['ical', 'ic', mGt0],
  ['ness', '', mGt0],
  ['icate', 'ic', mGt0],
  ['iciti', 'ic', mGt0],
  ['ful', '', mGt0],
  ['ative', '', mGt0],
  ['alize', 'al', mGt0],
];
const STEP_4: readonly Rule[] = [
  ['al', '', mGt1],
  ['ance', '', mGt1],
  ['ence', '', mGt1],
  ['er', '', mGt1],
  ['ic', '', mGt1],
  ['able', '', mGt1],
  ['ible', '', mGt1],
  ['ant', '', mGt1],
  ['ement', '', mGt1],
  ['ment', '', mGt1],
  ['ent', '', mGt1],
  ['ion', '', mGt1SorT],
  ['ou', '', mGt1],
  ['ism', '', mGt1],
  ['ate', '', mGt1],
  ['iti', '', mGt1],
  ['ous', '', mGt1],
  ['ive', '', mGt1],
  ['ize', '', mGt1],
];

/** Applies the first rule whose suffix ends `word`: the word after it, and whether it reported a change. */
function step(word: string, rules: readonly Rule[]): [string, boolean] {
  for (const [suffix, replacement, condition, reports] of rules) {
    if (word.length <= suffix.length || !word.endsWith(suffix)) continue;
    const stem = word.length - suffix.length;
    if (condition && !condition(word, stem)) return [word, false];
    return [word.slice(0, stem) + replacement, reports === true];
  }
  return [word, false];
}

/** Longest token FTS5's porter stems; longer ones (and those under 3 letters) pass unchanged. */
const MAX_TOKEN = 64;

/** FTS5's `porter` stem of one word of lower-case ASCII letters and digits. */
export function porterStem(token: string): string {
  if (token.length > MAX_TOKEN || token.length < 3) return token;
  let w = token;
  // Step 1a.
  if (w.endsWith('s')) {
    const n = w.length;
    if (w[n - 2] === 'e')
      w =
        (n > 4 && w[n - 4] === 's' && w[n - 3] === 's') || (n > 3 && w[n - 3] === 'i')
          ? w.slice(0, n - 2)
          : w.slice(0, n - 1);
    else if (w[n - 2] !== 's') w = w.slice(0, n - 1);
  }
  // Step 1b.
  let changed: boolean;
  [w, changed] = step(w, STEP_1B);
  if (changed) {
    [w, changed] = step(w, STEP_1B2);
    if (!changed) {
      const n = w.length;
      const c = w[n - 1]!;
      if (!isVowel(c, false) && c !== 'l' && c !== 's' && c !== 'z' && c === w[n - 2])
        w = w.slice(0, n - 1);
      else if (mEq1(w, n) && oStar(w, n)) w += 'e';
    }
  }
  // Step 1c.
  if (w.endsWith('y') && vowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  // Steps 2 to 4.
  [w] = step(w, STEP_2);
  [w] = step(w, STEP_3);
  [w] = step(w, STEP_4);
  // Step 5a.
  const n = w.length;
  if (w[n - 1] === 'e' && (mGt1(w, n - 1) || (mEq1(w, n - 1) && !oStar(w, n - 1))))
    w = w.slice(0, n - 1);
  // Step 5b.
  const m = w.length;
  if (m > 1 && w[m - 1] === 'l' && w[m - 2] === 'l' && mGt1(w, m - 1)) w = w.slice(0, m - 1);
  return w;
}

/**
 * A phrase of one word of lower-case ASCII letters and digits, as the query's phrases are written
 * (`"word"`, `"2024"`).
 */
const ONE_WORD = /^"([a-z0-9]+)"$/;

/**
 * What FTS5 searches for when given `phrase`: for a phrase of one word of lower-case ASCII letters
 * and digits, its stem (marked, so that it equals no phrase); any other phrase as it is.
 */
export function phraseKey(phrase: string): string {
  const token = phraseToken(phrase);
  return token === undefined ? phrase : `\u0001${token}`;
}

/**
 * The one token FTS5's `porter unicode61` tokenizer makes of `phrase`, for a phrase of one
 * word of lower-case ASCII letters and digits (`"officials"`: `offici`); undefined for any other
 * phrase.
 */
export function phraseToken(phrase: string): string | undefined {
  const word = ONE_WORD.exec(phrase)?.[1];
  return word === undefined ? undefined : porterStem(word);
}
