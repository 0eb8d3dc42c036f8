import type { Reader } from '../../store/reader.ts';

/** Words of the store as `memories_vocab` lists them: the word and the memories holding it. */
export interface VocabWord {
  term: string;
  doc: number;
}

/** Words kept at most over all prefixes, by default. */
const KEPT_WORDS = 200_000;

/** The highest code point: `term < prefix + MAX_CHAR` bounds the words beginning with prefix. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * The store's words by the prefix they were asked for, most common first, kept until the store
 * changes (in the recall memo): `memories_vocab` counts each word's memories by reading all of
 * them, so a slice of the vocabulary costs milliseconds at 100k memories (a correction reads the
 * words of two first letters: ~30 ms), and a search typed letter by letter asks for the same.
 */
export class WordsMemo {
  readonly #byPrefix = new Map<string, readonly VocabWord[]>();
  /** Whether the store holds a word as written, by word (see {@link holds}). */
  readonly #held = new Map<string, boolean>();
  readonly #capacity: number;
  /** Words kept over all prefixes. */
  #size = 0;

  /** @param capacity words kept at most over all prefixes (past it the memo starts again empty); default 200,000 */
  constructor(capacity = KEPT_WORDS) {
    this.#capacity = capacity;
  }

  /**
   * The store's words beginning with `prefix`, most common first (then by word): kept, from a
   * kept shorter prefix's words, or read.
   */
  beginning(read: Reader, prefix: string): readonly VocabWord[] {
    const known = this.#byPrefix.get(prefix);
    if (known) return known;
    let words: readonly VocabWord[] | undefined;
    for (let n = prefix.length - 1; n >= 1 && !words; n--) {
      const shorter = this.#byPrefix.get(prefix.slice(0, n));
      if (shorter) words = shorter.filter((w) => w.term.startsWith(prefix));
    }
    words ??= read
      .all(
        'SELECT term, doc FROM memories_vocab WHERE term >= ? AND term < ?',
        [prefix, prefix + MAX_CHAR],
        (c) => ({ term: c.text(0)!, doc: c.num(1) }),
      )
      .sort((a, b) => b.doc - a.doc || (a.term < b.term ? -1 : 1));
    if (words.length > this.#capacity) return words;
    if (this.#size + words.length > this.#capacity) {
      this.#byPrefix.clear();
      this.#size = 0;
    }
    this.#byPrefix.set(prefix, words);
    this.#size += words.length;
    return words;
  }

  /**
   * Whether a memory holds `word` as written (`memories_vocab`): kept, or looked up. Two words
   * typed apart are asked for joined ("note book" → "notebook") at every recall of a query, and
   * a search typed letter by letter asks for the same pairs again.
   */
  holds(read: Reader, word: string): boolean {
    let held = this.#held.get(word);
    if (held === undefined) {
      held =
        read.all('SELECT 1 FROM memories_vocab WHERE term = ?', [word], (c) => c.num(0)).length > 0;
      if (this.#held.size >= this.#capacity) this.#held.clear();
      this.#held.set(word, held);
    }
    return held;
  }
}
