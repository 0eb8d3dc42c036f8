/**
 * WordPiece over the words of `bert-text.ts`, as `@huggingface/tokenizers` runs it (longest match
 * first, `##` continuations, a word with any unmatched rest or over `maxChars` code points is
 * `[UNK]`), with each word's pieces cached: the trainer tokenises a few hundred thousand
 * descriptions with it. `checkAgainstLibrary` compares its ids with the library's on a sample, so a
 * difference fails the build instead of training rows the runtime never looks up.
 */
import { Tokenizer } from '@huggingface/tokenizers';

import { bertWords } from './bert-text.ts';

/** Token ids of texts, without [CLS] and [SEP] (whose rows are zero). */
export class WordPiece {
  readonly #ids: Map<string, number>;
  readonly #unk: number;
  readonly #maxChars: number;
  readonly #cache = new Map<string, readonly number[]>();

  constructor(vocab: readonly string[], maxChars = 100) {
    this.#ids = new Map(vocab.map((t, i) => [t, i]));
    this.#unk = this.#ids.get('[UNK]')!;
    this.#maxChars = maxChars;
  }

  /** The pieces of one normalised word. */
  word(word: string): readonly number[] {
    const kept = this.#cache.get(word);
    if (kept) return kept;
    const chars = Array.from(word);
    let out: number[] = [];
    if (chars.length > this.#maxChars) out = [this.#unk];
    else {
      for (let start = 0; start < chars.length;) {
        let end = chars.length;
        let id: number | undefined;
        for (; end > start; end--) {
          const piece = chars.slice(start, end).join('');
          id = this.#ids.get(start > 0 ? `##${piece}` : piece);
          if (id !== undefined) break;
        }
        if (id === undefined) {
          out = [this.#unk];
          break;
        }
        out.push(id);
        start = end;
      }
    }
    if (this.#cache.size > 1 << 20) this.#cache.clear();
    this.#cache.set(word, out);
    return out;
  }

  /** The ids of a text (no [CLS] and [SEP]). */
  encode(text: string): number[] {
    const ids: number[] = [];
    for (const w of bertWords(text)) for (const id of this.word(w)) ids.push(id);
    return ids;
  }
}

/**
 * Throws unless `@huggingface/tokenizers`, loading `tokenizerJson` and `tokenizerConfig` as the
 * runtime does, gives the same ids as {@link WordPiece} (between [CLS] and [SEP], before
 * truncation) for every text of `sample`.
 */
export function checkAgainstLibrary(
  wordPiece: WordPiece,
  tokenizerJson: string,
  tokenizerConfig: Record<string, unknown>,
  sample: readonly string[],
): void {
  const tokenizer = new Tokenizer(JSON.parse(tokenizerJson) as object, tokenizerConfig);
  for (const text of sample) {
    const ours = wordPiece.encode(text);
    const theirs = tokenizer.encode(text).ids;
    const inner = theirs.slice(1, -1);
    const same = inner.length === ours.length && inner.every((id, i) => id === ours[i]);
    if (!same) {
      throw new Error(
        `tokenizer mismatch on ${JSON.stringify(text.slice(0, 120))}: ours ${ours.slice(0, 20).join(',')}, library ${inner.slice(0, 20).join(',')}`,
      );
    }
  }
}
