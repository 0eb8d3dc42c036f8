/**
 * A BERT WordPiece tokenizer for plain ASCII text, read straight from `tokenizer.json`, with the
 * ids `@huggingface/tokenizers` gives. Building that library's tokenizer copies the 50,000-entry
 * vocabulary into a Map (tens of milliseconds at every start), and most of `Tokenizer.encode`'s
 * time goes to its general Unicode work (cleaning, Chinese characters, accents, a Unicode regular
 * expression to split words) and to WordPiece run afresh on every word. On printable ASCII that
 * work reduces to: lower-case, split at whitespace, make each punctuation character a word of its
 * own, and WordPiece of each word (longest match first, looked up in the parsed vocabulary object);
 * a word's pieces depend on the word alone, so they are kept. Anything else (a non-ASCII or control
 * character, or the text of an added token such as `[CLS]` anywhere in the text) answers
 * `undefined`: the caller runs the full tokenizer. What it reads of the tokenizer can be kept packed
 * ({@link packWordPiece}), so that a later start reads neither `tokenizer.json` nor its vocabulary.
 */
import {
  objectVocabulary,
  packVocabulary,
  unpackVocabulary,
  type Vocabulary,
} from './vocabulary.ts';

/** Words whose pieces are kept, at most; the cache starts afresh beyond that. */
const MAX_CACHED_WORDS = 1 << 17;
/** Longer words are not kept (WordPiece makes one `[UNK]` of a word over its limit anyway). */
const MAX_CACHED_LENGTH = 64;

/** A piece of a post-processor's template: a special token (see `special_tokens`) or the text. */
interface TemplatePiece {
  SpecialToken?: { id?: unknown };
  Sequence?: unknown;
}

/** The parts of `tokenizer.json` the shortcut reads, or that decide whether it holds. */
interface TokenizerJson {
  normalizer?: { type?: unknown; clean_text?: unknown; lowercase?: unknown } | null;
  pre_tokenizer?: { type?: unknown } | null;
  model?: {
    type?: unknown;
    vocab?: unknown;
    unk_token?: unknown;
    continuing_subword_prefix?: unknown;
    max_input_chars_per_word?: unknown;
  } | null;
  post_processor?: {
    type?: unknown;
    single?: unknown;
    special_tokens?: Record<string, { ids?: unknown } | undefined>;
    cls?: unknown;
    sep?: unknown;
  } | null;
  added_tokens?: { content?: unknown; normalized?: unknown }[];
}

/** Whether `x` is a list of token ids. */
function isIds(x: unknown): x is number[] {
  return Array.isArray(x) && x.every((id) => Number.isInteger(id));
}

/**
 * The ids the post-processor puts before and after a single sequence, or `undefined` when its
 * shape is not one this reads (a `TemplateProcessing` with one sequence and special tokens it
 * names, or a `BertProcessing` with its `[token, id]` pairs).
 */
function specialIds(
  post: NonNullable<TokenizerJson['post_processor']>,
): { prefix: number[]; suffix: number[] } | undefined {
  if (post.type === 'BertProcessing') {
    const cls = (post.cls as unknown[] | undefined)?.[1];
    const sep = (post.sep as unknown[] | undefined)?.[1];
    return Number.isInteger(cls) && Number.isInteger(sep)
      ? { prefix: [cls as number], suffix: [sep as number] }
      : undefined;
  }
  if (post.type !== 'TemplateProcessing' || !Array.isArray(post.single)) return undefined;
  const prefix: number[] = [];
  const suffix: number[] = [];
  let sequences = 0;
  for (const piece of post.single as TemplatePiece[]) {
    if (piece.Sequence !== undefined) {
      sequences++;
      continue;
    }
    const name = piece.SpecialToken?.id;
    const ids = typeof name === 'string' ? post.special_tokens?.[name]?.ids : undefined;
    if (!isIds(ids)) return undefined;
    (sequences === 0 ? prefix : suffix).push(...ids);
  }
  return sequences === 1 ? { prefix, suffix } : undefined;
}

/** What the shortcut reads of a WordPiece tokenizer, besides its vocabulary. */
export interface WordPieceShortcut {
  /** The ids the post-processor puts before a sequence (`[CLS]`). */
  prefix: number[];
  /** The ids it puts after one (`[SEP]`). */
  suffix: number[];
  /** The unknown token's id. */
  unk: number;
  /** What a word's pieces after its first start with (`##`). */
  continuing: string;
  /** Longer words are one unknown token. */
  maxChars: number;
  /** The added tokens' texts: a text holding one is the full tokenizer's. */
  addedTexts: string[];
}

/** A WordPiece tokenizer as the shortcut reads it. */
export interface PreparedWordPiece {
  shortcut: WordPieceShortcut;
  vocabulary: Vocabulary;
}

/** Whether `tokenizer_config.json` leaves the shortcut to hold (it asks for no other text handling). */
export function wordPieceConfigFits(tokenizerConfig: Record<string, unknown>): boolean {
  return (
    tokenizerConfig.remove_space !== true && tokenizerConfig.do_lowercase_and_remove_accent !== true
  );
}

/**
 * What the shortcut reads of the tokenizer `tokenizerJson` and `tokenizerConfig` describe, or
 * `undefined` when it is not of the BERT kind this reproduces: a `BertNormalizer` that cleans and
 * lower-cases, the `BertPreTokenizer`, a `WordPiece` model whose unknown token is in its
 * vocabulary, a template or BERT post-processor, no normalised added tokens.
 */
export function readWordPiece(
  tokenizerJson: Record<string, unknown>,
  tokenizerConfig: Record<string, unknown>,
): PreparedWordPiece | undefined {
  const json = tokenizerJson as TokenizerJson;
  const model = json.model;
  if (
    json.normalizer?.type !== 'BertNormalizer' ||
    json.normalizer.clean_text !== true ||
    json.normalizer.lowercase !== true ||
    json.pre_tokenizer?.type !== 'BertPreTokenizer' ||
    model?.type !== 'WordPiece' ||
    typeof model.vocab !== 'object' ||
    model.vocab === null ||
    !json.post_processor ||
    !wordPieceConfigFits(tokenizerConfig)
  )
    return undefined;
  const added = json.added_tokens ?? [];
  if (added.some((t) => t.normalized !== false || typeof t.content !== 'string')) return undefined;
  const addedTexts = added.map((t) => t.content as string).filter((c) => c.length > 0);
  const around = specialIds(json.post_processor);
  if (!around) return undefined;
  // The vocabulary as parsed: an own property per token (so `constructor` and the like are
  // tokens only when the vocabulary has them).
  const vocabulary = objectVocabulary(model.vocab as Record<string, unknown>);
  const unk = typeof model.unk_token === 'string' ? vocabulary.idOf(model.unk_token) : undefined;
  if (unk === undefined) return undefined;
  const continuing =
    typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##';
  const maxChars =
    typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100;
  return {
    shortcut: { ...around, unk, continuing, maxChars, addedTexts },
    vocabulary,
  };
}

/**
 * `prepared` as bytes: its shortcut as JSON (its UTF-8 length first, 32 bits little-endian,
 * padded to 4 bytes), then its vocabulary packed ({@link packVocabulary}). `undefined` where the
 * vocabulary cannot be packed.
 */
export function packWordPiece(prepared: PreparedWordPiece): Uint8Array | undefined {
  const vocabulary = packVocabulary(prepared.vocabulary);
  if (!vocabulary) return undefined;
  const json = new TextEncoder().encode(JSON.stringify(prepared.shortcut));
  const head = 4 + Math.ceil(json.length / 4) * 4;
  const out = new Uint8Array(head + vocabulary.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(vocabulary, head);
  return out;
}

/** The tokenizer {@link packWordPiece} packed into `bytes`, or `undefined` when they are not one. */
export function unpackWordPiece(bytes: Uint8Array): PreparedWordPiece | undefined {
  try {
    const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(0, true);
    const head = 4 + Math.ceil(length / 4) * 4;
    if (head > bytes.length) return undefined;
    const shortcut = JSON.parse(
      new TextDecoder().decode(bytes.subarray(4, 4 + length)),
    ) as WordPieceShortcut;
    if (
      !isIds(shortcut.prefix) ||
      !isIds(shortcut.suffix) ||
      !Number.isInteger(shortcut.unk) ||
      typeof shortcut.continuing !== 'string' ||
      typeof shortcut.maxChars !== 'number' ||
      !Array.isArray(shortcut.addedTexts) ||
      !shortcut.addedTexts.every((t) => typeof t === 'string')
    )
      return undefined;
    const vocabulary = unpackVocabulary(bytes.subarray(head));
    return vocabulary ? { shortcut, vocabulary } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shortcut tokenizer of `prepared` (see {@link readWordPiece}): for printable ASCII text (with
 * tab, line feed and carriage return) it returns what
 * `new Tokenizer(tokenizerJson, tokenizerConfig).encode(text).ids` gives, else `undefined`.
 */
export function asciiWordPiece({
  shortcut,
  vocabulary,
}: PreparedWordPiece): (text: string) => number[] | undefined {
  const { prefix, suffix, unk, continuing, maxChars, addedTexts } = shortcut;
  const idOf = (token: string) => vocabulary.idOf(token);

  /** WordPiece of one lower-case ASCII word or punctuation character: longest match first. */
  const wordPiece = (word: string): readonly number[] => {
    if (word.length > maxChars) return [unk];
    const ids: number[] = [];
    for (let start = 0; start < word.length;) {
      let end = word.length;
      let id: number | undefined;
      for (; end > start; end--) {
        id = idOf(start > 0 ? continuing + word.slice(start, end) : word.slice(start, end));
        if (id !== undefined) break;
      }
      if (id === undefined) return [unk];
      ids.push(id);
      start = end;
    }
    return ids;
  };

  const cache = new Map<string, readonly number[]>();
  const pieces = (word: string): readonly number[] => {
    let ids = cache.get(word);
    if (ids === undefined) {
      ids = wordPiece(word);
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
