/**
 * A shortcut through a BERT WordPiece tokenizer for plain ASCII text, with the ids the tokenizer
 * itself gives. Most of `Tokenizer.encode`'s time goes to its general Unicode work (cleaning,
 * Chinese characters, accents, a Unicode regular expression to split words) and to WordPiece run
 * afresh on every word. On printable ASCII that work reduces to: lower-case, split at whitespace,
 * make each punctuation character a word of its own; and a word's pieces depend on the word alone,
 * so they are looked up once and kept. Anything else (a non-ASCII or control character, or the text
 * of an added token such as `[CLS]` anywhere in the text) answers `undefined`: the caller runs the
 * full tokenizer.
 */
import type { Tokenizer } from '@huggingface/tokenizers';

/** Words whose pieces are kept, at most; the cache starts afresh beyond that. */
const MAX_CACHED_WORDS = 1 << 17;
/** Longer words are not kept (WordPiece makes one `[UNK]` of a word over its limit anyway). */
const MAX_CACHED_LENGTH = 64;

/** The parts of `tokenizer.json` and `tokenizer_config.json` that decide whether the shortcut holds. */
interface TokenizerJson {
  normalizer?: { type?: unknown; clean_text?: unknown; lowercase?: unknown } | null;
  pre_tokenizer?: { type?: unknown } | null;
  model?: { type?: unknown } | null;
  post_processor?: { type?: unknown } | null;
  added_tokens?: { content?: unknown; normalized?: unknown }[];
}

/** Whether `part` sits in `whole` at `at`. */
function sameAt(whole: readonly number[], part: readonly number[], at: number): boolean {
  return part.every((x, i) => whole[at + i] === x);
}

/**
 * The shortcut for `tokenizer` (built from `tokenizerJson` and `tokenizerConfig`), or `undefined`
 * when the tokenizer is not of the BERT kind it reproduces: a `BertNormalizer` that cleans and
 * lower-cases, the `BertPreTokenizer`, a `WordPiece` model, a template or BERT post-processor,
 * no normalised added tokens. The function returns `tokenizer.encode(text).ids` for printable
 * ASCII text (with tab, line feed and carriage return), else `undefined`.
 */
export function asciiWordPiece(
  tokenizer: Tokenizer,
  tokenizerJson: Record<string, unknown>,
  tokenizerConfig: Record<string, unknown>,
): ((text: string) => number[] | undefined) | undefined {
  const json = tokenizerJson as TokenizerJson;
  if (
    json.normalizer?.type !== 'BertNormalizer' ||
    json.normalizer.clean_text !== true ||
    json.normalizer.lowercase !== true ||
    json.pre_tokenizer?.type !== 'BertPreTokenizer' ||
    json.model?.type !== 'WordPiece' ||
    !['TemplateProcessing', 'BertProcessing'].includes(json.post_processor?.type as string) ||
    tokenizerConfig.remove_space === true ||
    tokenizerConfig.do_lowercase_and_remove_accent === true
  )
    return undefined;
  const added = json.added_tokens ?? [];
  if (added.some((t) => t.normalized !== false || typeof t.content !== 'string')) return undefined;
  const addedTexts = added.map((t) => t.content as string).filter((c) => c.length > 0);

  // The special tokens the post-processor puts around a sequence: `encode('')` is exactly them,
  // and `encode('a')` is them around the pieces of 'a'.
  const around = tokenizer.encode('').ids;
  const inner = tokenizer.encode('a', { add_special_tokens: false }).ids;
  const probe = tokenizer.encode('a').ids;
  let split = -1;
  for (let p = 0; p <= around.length && split < 0; p++) {
    if (
      probe.length === around.length + inner.length &&
      sameAt(probe, around.slice(0, p), 0) &&
      sameAt(probe, inner, p) &&
      sameAt(probe, around.slice(p), p + inner.length)
    )
      split = p;
  }
  if (split < 0) return undefined;
  const prefix = around.slice(0, split);
  const suffix = around.slice(split);

  const cache = new Map<string, readonly number[]>();
  const pieces = (word: string): readonly number[] => {
    let ids = cache.get(word);
    if (ids === undefined) {
      // A lower-case ASCII word or one punctuation character: the normaliser leaves it as it is
      // and the pre-tokenizer keeps it whole, so this is WordPiece of the word.
      ids = tokenizer.encode(word, { add_special_tokens: false }).ids;
      if (word.length <= MAX_CACHED_LENGTH) {
        if (cache.size >= MAX_CACHED_WORDS) cache.clear();
        cache.set(word, ids);
      }
    }
    return ids;
  };

  return (text) => {
    for (const t of addedTexts) if (text.includes(t)) return undefined;
    const ids = prefix.slice();
    const push = (word: string) => {
      for (const id of pieces(word)) ids.push(id);
    };
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 0x20;
      const alnum =
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
      if (alnum) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0) {
        push(text.slice(start, i).toLowerCase());
        start = -1;
      }
      // Whitespace separates; every other printable ASCII character is punctuation to BERT.
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
      if (c > 0x20 && c < 0x7f) push(text[i]!);
      else return undefined;
    }
    for (const id of suffix) ids.push(id);
    return ids;
  };
}
