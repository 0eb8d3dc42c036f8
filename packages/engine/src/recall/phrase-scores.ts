import { KeptLists } from './kept-lists.ts';
import { phraseKey } from './phrase-key.ts';

/**
 * Each FTS5 phrase's `bm25()` on every memory it matches, kept until the store changes (in the
 * {@link MatchMemo}). A search box asks for the same words keystroke after keystroke, and the
 * common words of a large store match thousands of memories each: reading a phrase's matches
 * with their `bm25()` costs about a microsecond a memory in SQLite-WASM (FTS5 looks each
 * memory's length up in its own table), reading them from here a few nanoseconds. The values
 * are FTS5's own, so what is computed from them is the same as from a fresh read. Phrases are
 * kept by {@link phraseKey}: `"official"` read once answers for `"officials"` (one stem).
 */

/** Memories kept at most over all phrases (12 bytes each: 12 MiB at the default). */
const DEFAULT_CAPACITY = 1 << 20;

/** One phrase's matches: row ids and their `bm25()` (FTS5's sign: lower is better), in read order. */
export interface PhraseMatches {
  readonly rids: Int32Array;
  readonly bm25: Float64Array;
}

/** The share of the capacity a phrase's matches may take and still be kept a while ({@link PhraseScores.lasting}). */
const LASTING_SHARE = 1 / 16;

/** Phrases whose greatest score is kept, at most (all forgotten at once past it). */
const MAXIMA_CAPACITY = 1 << 16;

/**
 * Phrases' matches by `bm25()` call and phrase, least recently used dropped first past the
 * capacity; and the greatest score of each phrase read, kept when its matches are not (a few
 * bytes a phrase): what the phrase can add to a memory's score, exactly, for the pruned top k.
 */
export class PhraseScores {
  readonly #lists: KeptLists<PhraseMatches>;
  readonly #maxima = new Map<string, number>();
  /** Each phrase's key as last read (its matches are the same memories whatever the call). */
  readonly #keyOf = new Map<string, string>();

  readonly #capacity: number;

  /** @param capacity memories kept over all phrases; default 1,048,576 */
  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
    this.#lists = new KeptLists(capacity, (m) => m.rids.length);
  }

  /**
   * Whether a phrase of `matches` matches is small enough beside the capacity
   * ({@link LASTING_SHARE}) to stay kept over the next searches, others' phrases read meanwhile.
   */
  lasting(matches: number): boolean {
    return matches <= this.#capacity * LASTING_SHARE;
  }

  /** The kept matches of `phrase` under `bm25Call`, or those `read` gives (kept when they fit). */
  get(bm25Call: string, phrase: string, read: () => PhraseMatches): PhraseMatches {
    const phraseId = phraseKey(phrase);
    const key = `${bm25Call}\u0000${phraseId}`;
    if (this.#keyOf.size >= MAXIMA_CAPACITY) this.#keyOf.clear();
    this.#keyOf.set(phraseId, key);
    return this.#lists.get(key, () => {
      const fresh = read();
      this.#keepMost(key, fresh.bm25);
      return fresh;
    });
  }

  /** Whether the matches of `phrase` under `bm25Call` are kept (reading them costs a copy, no query). */
  holds(bm25Call: string, phrase: string): boolean {
    return this.#lists.has(`${bm25Call}\u0000${phraseKey(phrase)}`);
  }

  /**
   * The memories `phrase` matches (ascending row ids), if its matches are kept under the call it
   * was last read with: who holds a phrase does not depend on the columns' weights.
   */
  rids(phrase: string): Int32Array | undefined {
    const phraseId = phraseKey(phrase);
    const key = this.#keyOf.get(phraseId);
    if (key === undefined) return undefined;
    if (!this.#lists.has(key)) {
      this.#keyOf.delete(phraseId);
      return undefined;
    }
    return this.#lists.kept(key)!.rids;
  }

  /**
   * The greatest score (`-bm25()`) `phrase` gives any memory under `bm25Call`, if its matches
   * were read since the store last changed (0 for a phrase that matches nothing).
   */
  most(bm25Call: string, phrase: string): number | undefined {
    return this.#maxima.get(`${bm25Call}\u0000${phraseKey(phrase)}`);
  }

  #keepMost(key: string, bm25: Float64Array): void {
    let most = 0;
    for (let j = 0; j < bm25.length; j++) if (-bm25[j]! > most) most = -bm25[j]!;
    if (this.#maxima.size >= MAXIMA_CAPACITY) this.#maxima.clear();
    this.#maxima.set(key, most);
  }
}
