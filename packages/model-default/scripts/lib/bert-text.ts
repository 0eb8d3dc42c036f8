/**
 * What the model's tokenizer does to text before WordPiece, as `@huggingface/tokenizers` 0.2
 * (the library transformers.js runs) does it for `BertNormalizer` (clean text, CJK characters as
 * words of their own, lowercase, strip accents) and `BertPreTokenizer` (split at whitespace, each
 * punctuation character a word). The trainer uses it to count words when it picks the
 * vocabulary; the token ids it trains on come from the library itself (`tokenize.ts`), so any
 * difference here could only change which words are picked, never make training and runtime
 * disagree.
 */

/** transformers.js `is_chinese_char`: CJK unified ideographs (BMP and beyond) and compatibility ideographs. */
export function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

const CONTROL = /^\p{Cc}|\p{Cf}|\p{Co}|\p{Cs}$/u;
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKEN = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
const PUNCTUATION_CHAR = new RegExp(`^[${PUNCTUATION}]$`, 'u');

/** `BertNormalizer` with clean_text, handle_chinese_chars and lowercase (accents stripped). */
export function bertNormalize(text: string): string {
  let cleaned = '';
  for (const char of text) {
    const cp = char.charCodeAt(0);
    if (cp === 0 || cp === 0xfffd) continue;
    if (char !== '\t' && char !== '\n' && char !== '\r' && CONTROL.test(char)) continue;
    cleaned += /^\s$/.test(char) ? ' ' : char;
  }
  // The library walks UTF-16 code units here, so only BMP ideographs are split off.
  let spaced = '';
  for (let i = 0; i < cleaned.length; i++) {
    const c = cleaned[i]!;
    spaced += isChineseChar(c.charCodeAt(0)) ? ` ${c} ` : c;
  }
  return spaced
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

/** `BertPreTokenizer`: the words and punctuation characters of normalised text. */
export function bertPreTokenize(normalized: string): string[] {
  return normalized.trim().match(PRE_TOKEN) ?? [];
}

/** The words of `text` as the tokenizer sees them before WordPiece. */
export function bertWords(text: string): string[] {
  return bertPreTokenize(bertNormalize(text));
}

/** Whether a pre-token is one punctuation character (a word of its own to BERT). */
export function isPunctuation(token: string): boolean {
  return PUNCTUATION_CHAR.test(token);
}
