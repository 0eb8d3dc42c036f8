/**
 * Each FTS5 phrase's `bm25()` on every memory it matches, kept until the store changes (in the
 * {@link MatchMemo}). A search box asks for the same words keystroke after keystroke, and the
 * common words of a large store match thousands of memories each: reading a phrase's matches
 * with their `bm25()` costs about a microsecond a memory in SQLite-WASM (FTS5 looks each
 * memory's length up in its own table), reading them from here a few nanoseconds. The values
 * are FTS5's own, so what is computed from them is the same as from a fresh read.
 */

/** Memories kept at most over all phrases (12 bytes each: 12 MiB at the default). */
const DEFAULT_CAPACITY = 1 << 20;

/** One phrase's matches: row ids and their `bm25()` (FTS5's sign: lower is better), in read order. */
export interface PhraseMatches {
  readonly rids: Int32Array;
  readonly bm25: Float64Array;
}

/** Phrases' matches by `bm25()` call and phrase, least recently used dropped first past the capacity. */
export class PhraseScores {
  readonly #lists = new Map<string, PhraseMatches>();
  readonly #capacity: number;
  #size = 0;

  /** @param capacity memories kept over all phrases; default 1,048,576 */
  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /** The kept matches of `phrase` under `bm25Call`, or those `read` gives (kept when they fit). */
  get(bm25Call: string, phrase: string, read: () => PhraseMatches): PhraseMatches {
    const key = `${bm25Call}\u0000${phrase}`;
    const kept = this.#lists.get(key);
    if (kept) {
      this.#lists.delete(key); // most recently used last
      this.#lists.set(key, kept);
      return kept;
    }
    const fresh = read();
    const n = fresh.rids.length;
    if (n > this.#capacity) return fresh;
    for (const [oldest, list] of this.#lists) {
      if (this.#size + n <= this.#capacity) break;
      this.#lists.delete(oldest);
      this.#size -= list.rids.length;
    }
    this.#lists.set(key, fresh);
    this.#size += n;
    return fresh;
  }
}
