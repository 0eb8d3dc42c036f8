/**
 * Orama's tokenizer for each language of the quality corpora (issue 42): the language's splitter,
 * its Snowball stemmer (`@orama/stemmers`) and stop words (`@orama/stopwords`) for English,
 * German, Spanish and Russian; `@orama/tokenizers`' Mandarin and Japanese tokenizers (words by
 * `Intl.Segmenter`, no stemming) for Chinese and Japanese. Orama's default (`language: 'english'`)
 * splits at every character outside the Latin alphabet, so it sees no word of a Russian, Chinese
 * or Japanese text. No Node imports: the browser benchmarks may use it too.
 */
import { components, type DefaultTokenizerConfig, type Tokenizer } from '@orama/orama';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { stemmer as russianStem } from '@orama/stemmers/russian';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { stopwords as englishStop } from '@orama/stopwords/english';
import { stopwords as germanStop } from '@orama/stopwords/german';
import { stopwords as russianStop } from '@orama/stopwords/russian';
import { stopwords as spanishStop } from '@orama/stopwords/spanish';
import { createTokenizer as japaneseTokenizer } from '@orama/tokenizers/japanese';
import { createTokenizer as mandarinTokenizer } from '@orama/tokenizers/mandarin';

/** The languages of the quality corpora, by Orama's names. */
export type OramaLanguage = 'english' | 'german' | 'spanish' | 'russian' | 'mandarin' | 'japanese';

const BY_CORPUS: Readonly<Record<string, OramaLanguage>> = {
  'lang-de': 'german',
  'lang-es': 'spanish',
  'lang-ru': 'russian',
  'lang-zh': 'mandarin',
  'lang-ja': 'japanese',
};

/** The language of a `bench:quality` corpus line by its name (`lang-de`, …); English otherwise. */
export function corpusLanguage(corpus: string): OramaLanguage {
  return BY_CORPUS[corpus] ?? 'english';
}

/** How each language is tokenized, in words for the reports. */
export const ORAMA_TOKENIZERS: Readonly<Record<OramaLanguage, string>> = {
  english: "`language: 'english'` with its stemmer and English stop words",
  german: "`language: 'german'` with the German Snowball stemmer and stop words",
  spanish: "`language: 'spanish'` with the Spanish Snowball stemmer and stop words",
  russian: "`language: 'russian'` with the Russian Snowball stemmer and stop words",
  mandarin: '`@orama/tokenizers/mandarin` (words by `Intl.Segmenter`, no stemmer)',
  japanese: '`@orama/tokenizers/japanese` (words by `Intl.Segmenter`, no stemmer)',
};

const SNOWBALL: Partial<
  Record<OramaLanguage, { stem: (word: string) => string; stopWords: string[] }>
> = {
  german: { stem: germanStem, stopWords: germanStop },
  spanish: { stem: spanishStem, stopWords: spanishStop },
  russian: { stem: russianStem, stopWords: russianStop },
};

/** Orama's own tokenizer's configuration for a language it splits itself. */
function configOf(
  language: Exclude<OramaLanguage, 'mandarin' | 'japanese'>,
  allowDuplicates: boolean,
): DefaultTokenizerConfig {
  if (language === 'english')
    return { language, stemming: true, stopWords: englishStop, allowDuplicates };
  const { stem, stopWords } = SNOWBALL[language]!;
  return { language, stemming: true, stemmer: stem, stopWords, allowDuplicates };
}

/** Orama's tokenizer for `language`, as `components.tokenizer` of `create` takes it. */
export function oramaTokenizer(language: OramaLanguage): Tokenizer | DefaultTokenizerConfig {
  if (language === 'mandarin') return mandarinTokenizer({ language });
  if (language === 'japanese') return japaneseTokenizer({ language });
  return configOf(language, false);
}

/**
 * The words of `text` as Orama's tokenizer for `language` reads them, every occurrence kept (for a
 * BM25's term frequencies): Orama's own tokenizer for English, German, Spanish and Russian; for
 * Chinese and Japanese the same `Intl.Segmenter` words as `@orama/tokenizers` (which keeps each word
 * only once), lower-cased.
 */
export function wordsOf(language: OramaLanguage): (text: string) => string[] {
  if (language === 'mandarin' || language === 'japanese') {
    const segmenter = new Intl.Segmenter(language === 'mandarin' ? 'zh-CN' : 'ja', {
      granularity: 'word',
    });
    return (text) =>
      [...segmenter.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);
  }
  const tokenizer = components.tokenizer.createTokenizer(configOf(language, true));
  return (text) => tokenizer.tokenize(text);
}
