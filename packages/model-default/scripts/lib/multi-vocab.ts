/**
 * The vocabulary of the multilingual model: one BERT WordPiece vocabulary for every language, so
 * that the tokenizer, the ONNX graph and the engine's plain-JavaScript embedder stay exactly those
 * of the English model.
 *
 * - English: the first `english` GloVe words (`selectVocabulary`, as the English model).
 * - Each other language: its most frequent words in the training descriptions that the vocabulary
 *   lacks. A word is cut where its script changes between Latin/Cyrillic/other letters, hiragana
 *   and katakana, so Japanese runs like `パッケージは` count as `パッケージ` + `##は`.
 * - Characters: every letter or digit of the vocabulary and every one seen at least `minChar`
 *   times, as a word and as a `##` piece; CJK ideographs only as words (the tokenizer's
 *   normaliser makes each one a word of its own, so `##` never follows one).
 * - Suffixes: per language, the most frequent rests of words after WordPiece's longest known first
 *   piece (`verzeichnis` + `##se`, `каталог` + `##ов`), as `##` pieces.
 *
 * Kinds: `zero` rows (special tokens, punctuation, single letters of alphabetic scripts: as the
 * English model, an unknown word adds nothing rather than noise), `glove` (English words,
 * initialised from GloVe), `new` (trained from the parallel descriptions).
 */
import { bertWords, isChineseChar, isPunctuation } from './bert-text.ts';
import type { Language } from './ddtp.ts';
import { NOT_A_WORD, normalizeWord, selectVocabulary, SPECIAL_TOKENS } from './model.ts';
import type { GloveVectors } from './source.ts';

export type TokenKind = 'zero' | 'glove' | 'new';

/** Languages other than English whose words the vocabulary adds, in id order. */
export const ADDED_LANGUAGES = ['de', 'fr', 'es', 'ru', 'ja', 'zh_CN'] as const;

export interface VocabularyOptions {
  /** English GloVe words. */
  english: number;
  /** New whole words per language. */
  words: Partial<Record<Language, number>>;
  /** New `##` suffix pieces per language. */
  suffixes: Partial<Record<Language, number>>;
  /** Least count of a character in the training text to be added (beside the vocabulary's own). */
  minChar: number;
  /**
   * Words per language from the dictionaries' translations of the most common English words
   * (`dictionaries.ts`), beside the descriptions' words: the everyday words that package
   * descriptions lack ("Kuchen", "капуста"), and the CJK characters they are written with.
   */
  dictionaryWords?: Partial<Record<Language, number>>;
}

export interface Vocabulary {
  /** Tokens; the id of a token is its position. */
  tokens: string[];
  kinds: TokenKind[];
  /** 1-based GloVe frequency rank of `glove` tokens (0 for others). */
  gloveRank: Int32Array;
  /** GloVe's spelling of each `glove` token (for its vector). */
  gloveWord: (string | undefined)[];
  /** Tokens added per language and part, for the manifest and the README. */
  added: Record<string, { words: number; suffixes: number; characters: number }>;
}

const HIRAGANA = (cp: number) => cp >= 0x3040 && cp <= 0x309f;
const KATAKANA = (cp: number) =>
  (cp >= 0x30a0 && cp <= 0x30ff) ||
  (cp >= 0x31f0 && cp <= 0x31ff) ||
  (cp >= 0xff66 && cp <= 0xff9f);

/** Whether a character is kana (hiragana or katakana). */
export function isKana(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return HIRAGANA(cp) || KATAKANA(cp);
}

function scriptOf(char: string): number {
  const cp = char.codePointAt(0)!;
  return HIRAGANA(cp) ? 1 : KATAKANA(cp) ? 2 : 0;
}

/** A word cut where its script changes (hiragana, katakana, anything else): `パッケージは` → `パッケージ`, `は`. */
export function scriptRuns(word: string): string[] {
  const runs: string[] = [];
  let current = '';
  let script = -1;
  for (const ch of word) {
    const s = scriptOf(ch);
    if (current && s !== script) {
      runs.push(current);
      current = '';
    }
    current += ch;
    script = s;
  }
  if (current) runs.push(current);
  return runs;
}

/** The kind of a token (see the module comment). */
export function kindOf(token: string, isGlove: boolean): TokenKind {
  if ((SPECIAL_TOKENS as readonly string[]).includes(token)) return 'zero';
  const base = token.startsWith('##') && token.length > 2 ? token.slice(2) : token;
  if (NOT_A_WORD.test(base) || isPunctuation(base)) return 'zero';
  const chars = Array.from(base);
  if (chars.length === 1 && !isKana(base) && !isChineseChar(base.codePointAt(0)!)) return 'zero';
  return isGlove ? 'glove' : 'new';
}

const byCount = (a: [string, number], b: [string, number]) =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * Builds the vocabulary from GloVe and the training texts of each language (`texts.get(lang)`:
 * short and long descriptions of the training split only).
 */
export function buildVocabulary(
  glove: GloveVectors,
  texts: ReadonlyMap<Language, readonly string[]>,
  options: VocabularyOptions,
  dictionary?: ReadonlyMap<Language, readonly string[]>,
): Vocabulary {
  const tokens: string[] = [...SPECIAL_TOKENS];
  const gloveRanks: number[] = SPECIAL_TOKENS.map(() => 0);
  const gloveWords: (string | undefined)[] = SPECIAL_TOKENS.map(() => undefined);
  const has = new Set<string>(tokens);
  const add = (token: string, rank = 0, word?: string) => {
    has.add(token);
    tokens.push(token);
    gloveRanks.push(rank);
    gloveWords.push(word);
  };
  for (const { word, rank } of selectVocabulary(glove, options.english))
    add(normalizeWord(word), rank, word);
  const added: Vocabulary['added'] = {};

  // Words of each language (cut at script changes), counted once.
  const words = new Map<Language, Map<string, number>>();
  const forms = new Map<Language, Map<string, number>>();
  const charCounts = new Map<string, number>();
  for (const [lang, list] of texts) {
    const w = new Map<string, number>();
    for (const text of list) {
      for (const word of bertWords(text)) {
        w.set(word, (w.get(word) ?? 0) + 1);
      }
    }
    words.set(lang, w);
    const f = new Map<string, number>();
    for (const [word, count] of w) {
      for (const ch of word) charCounts.set(ch, (charCounts.get(ch) ?? 0) + count);
      scriptRuns(word).forEach((run, i) => {
        const form = i === 0 ? run : `##${run}`;
        f.set(form, (f.get(form) ?? 0) + count);
      });
    }
    forms.set(lang, f);
  }

  for (const lang of ADDED_LANGUAGES) {
    added[lang] = { words: 0, suffixes: 0, characters: 0 };
    const quota = options.words[lang] ?? 0;
    const candidates = [...(forms.get(lang) ?? new Map<string, number>())]
      .filter(([form]) => {
        const base = form.startsWith('##') ? form.slice(2) : form;
        return !has.has(form) && Array.from(base).length > 1 && kindOf(form, false) === 'new';
      })
      .sort(byCount);
    for (const [form] of candidates.slice(0, quota)) {
      add(form);
      added[lang].words++;
    }
  }

  // Everyday words of the dictionaries (their translations of the most common English words, in
  // that order), with their characters.
  for (const lang of ADDED_LANGUAGES) {
    const quota = options.dictionaryWords?.[lang] ?? 0;
    let n = 0;
    for (const text of dictionary?.get(lang) ?? []) {
      if (n >= quota) break;
      for (const word of bertWords(text)) {
        for (const ch of word)
          charCounts.set(ch, Math.max(charCounts.get(ch) ?? 0, options.minChar));
        scriptRuns(word).forEach((run, i) => {
          const form = i === 0 ? run : `##${run}`;
          if (has.has(form) || Array.from(run).length < 2 || kindOf(form, false) !== 'new') return;
          if (isChineseChar(run.codePointAt(0)!)) return;
          add(form);
          added[lang]!.words++;
          n++;
        });
      }
    }
  }

  // Characters: every letter or digit of the vocabulary, and the frequent ones of the texts.
  const chars = new Set<string>();
  for (const t of tokens.slice(SPECIAL_TOKENS.length))
    for (const ch of t.startsWith('##') ? t.slice(2) : t) chars.add(ch);
  for (const [ch, count] of charCounts) if (count >= options.minChar) chars.add(ch);
  for (const ch of [...chars].sort()) {
    if (!/^[\p{L}\p{N}]$/u.test(ch)) continue;
    const isIdeograph = isChineseChar(ch.codePointAt(0)!);
    for (const token of isIdeograph ? [ch] : [ch, `##${ch}`]) {
      if (has.has(token)) continue;
      add(token);
      const lang = isIdeograph ? 'zh_CN' : isKana(ch) ? 'ja' : 'other';
      added[lang] ??= { words: 0, suffixes: 0, characters: 0 };
      added[lang].characters++;
    }
  }

  // Suffixes: the rest of each word after WordPiece's longest known first piece.
  const longestFirst = (chars: string[]): number => {
    for (let end = chars.length; end > 0; end--)
      if (has.has(chars.slice(0, end).join(''))) return end;
    return 0;
  };
  for (const lang of ADDED_LANGUAGES) {
    const quota = options.suffixes[lang] ?? 0;
    if (quota === 0) continue;
    const rests = new Map<string, number>();
    for (const [word, count] of words.get(lang) ?? []) {
      if (has.has(word)) continue;
      const chars = Array.from(word);
      const first = longestFirst(chars);
      if (first === 0 || first === chars.length) continue;
      const rest = `##${chars.slice(first).join('')}`;
      if (chars.length - first > 1 && chars.length - first <= 12 && kindOf(rest, false) === 'new')
        rests.set(rest, (rests.get(rest) ?? 0) + count);
    }
    for (const [rest] of [...rests]
      .filter(([r]) => !has.has(r))
      .sort(byCount)
      .slice(0, quota)) {
      add(rest);
      added[lang]!.suffixes++;
    }
  }

  const kinds = tokens.map((t, i) => kindOf(t, gloveRanks[i]! > 0));
  return {
    tokens,
    kinds,
    gloveRank: Int32Array.from(gloveRanks),
    gloveWord: gloveWords,
    added,
  };
}
