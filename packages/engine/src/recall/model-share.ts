/**
 * The share of a query the embedding model can read, for the model legs' weights (vector, date,
 * expansion). A model reads the scripts of the languages it was trained on (`Embedder.languages`,
 * from its `config.json`; a model that names none is taken to read English, the Latin script) and
 * no number (a number is `[UNK]` to a word model), so a query mostly in a script the model never
 * saw, or a ticket number, would otherwise be ranked there by its one other word alone.
 */

/** The Unicode scripts of a language's words, by its code (`zh_CN` as `zh`); Latin when unknown. */
const SCRIPTS: Readonly<Record<string, readonly string[]>> = {
  ru: ['Cyrillic'],
  uk: ['Cyrillic'],
  bg: ['Cyrillic'],
  sr: ['Cyrillic', 'Latin'],
  el: ['Greek'],
  ja: ['Han', 'Hiragana', 'Katakana'],
  zh: ['Han'],
  ko: ['Hangul', 'Han'],
  ar: ['Arabic'],
  he: ['Hebrew'],
  hi: ['Devanagari'],
  th: ['Thai'],
};

/** Tests of a word per set of languages, built once each. */
const readers = new Map<string, { word: RegExp; wordOrNumber: RegExp }>();

function readerOf(languages: readonly string[] | undefined): {
  word: RegExp;
  wordOrNumber: RegExp;
} {
  const key = languages?.join(',') ?? '';
  let reader = readers.get(key);
  if (!reader) {
    const scripts = new Set<string>();
    for (const language of languages?.length ? languages : ['en'])
      for (const s of SCRIPTS[language.toLowerCase().split(/[-_]/)[0]!] ?? ['Latin'])
        scripts.add(s);
    const letters = [...scripts].map((s) => `\\p{Script_Extensions=${s}}`).join('');
    // the same marks and digits inside a word as before: "naïve", "mp3"
    reader = {
      word: new RegExp(`^(?=.*[${letters}])[${letters}\\p{N}\\p{M}]+$`, 'u'),
      wordOrNumber: new RegExp(`^[${letters}\\p{N}\\p{M}]+$`, 'u'),
    };
    readers.set(key, reader);
  }
  return reader;
}

/**
 * The share of `words` (the query's lexical words) that a model trained on `languages` reads: 1 for
 * no words. `numbers`: whether a number counts as read (the date leg reads the dates a query names).
 */
export function modelShare(
  words: readonly string[],
  numbers: boolean,
  languages?: readonly string[],
): number {
  if (words.length === 0) return 1;
  const reader = readerOf(languages);
  const test = numbers ? reader.wordOrNumber : reader.word;
  let read = 0;
  for (const w of words) if (test.test(w)) read++;
  return read / words.length;
}
