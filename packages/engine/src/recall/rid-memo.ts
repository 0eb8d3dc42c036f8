import type { Reader } from '../store/reader.ts';
import { candidateRows, type CandidateRow } from '../store/store.ts';
import { windowRids } from './date-leg.ts';
import { matchMemo, type MatchMemo } from './match.ts';

/** Values kept at most by one memo; past it the memo starts again empty. */
const DEFAULT_CAPACITY = 16_384;

/**
 * Values recall derives from one memory (its candidate row, its speaker, its session neighbours),
 * kept by rid until the store next changes. Consecutive recalls share most of their candidates (a
 * search typed letter by letter, a small store), and reading them again through SQLite-WASM and
 * decoding their strings cost more than the rest of their ranking. The engine clears every memo in
 * the same synchronous step as any change to the rows (a committed write), and the candidate rows
 * when retrieval counts are written, so a recall never sees a value other than the one it would
 * read.
 */
export class RidMemo<T> {
  readonly #values = new Map<number, T>();
  readonly #capacity: number;

  /** @param capacity values kept; default 16,384 */
  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /**
   * The values of these rids, in ascending rid order (so what follows does not depend on what was
   * kept): kept ones from memory, the others from `read(missing)`, then kept. A rid that `read`
   * does not answer is absent (and asked again next time).
   */
  get(
    rids: readonly number[],
    read: (missing: number[]) => Iterable<readonly [number, T]>,
  ): Map<number, T> {
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const rid of rids) {
      const value = this.#values.get(rid);
      if (value !== undefined || this.#values.has(rid)) found.set(rid, value as T);
      else missing.push(rid);
    }
    if (missing.length > 0) {
      const fresh = [...read(missing)];
      if (this.#values.size + fresh.length > this.#capacity) this.#values.clear();
      for (const [rid, value] of fresh) {
        this.#values.set(rid, value);
        found.set(rid, value);
      }
    }
    const out = new Map<number, T>();
    for (const rid of [...found.keys()].sort((a, b) => a - b)) out.set(rid, found.get(rid)!);
    return out;
  }

  /** Forgets every value. */
  clear(): void {
    this.#values.clear();
  }
}

/** The memory that replaced a memory: directly (`by`, when it was made), and the newest of the chain. */
export interface Succession {
  /** The successor's rid, and when it was made. */
  by: number;
  at: number;
  /** Whether the app set or confirmed it (`supersede`), rather than the engine finding it. */
  confirmed: boolean;
  /** The newest memory of the chain (the current fact). */
  current: number;
}

/** What recall keeps between calls (see {@link RidMemo}); all cleared together. */
export class RecallMemo {
  /** Candidate rows (`candidateRows`). */
  readonly rows = new RidMemo<Readonly<CandidateRow>>();
  /** A memory's app-given speaker (`meta.speaker`, normalised), or null. */
  readonly speakers = new RidMemo<string | null>();
  /** Session neighbours of a memory, unfiltered: rids before (nearest first) and after. */
  readonly neighbours = new RidMemo<readonly [string | null, string | null]>();
  /** The memory that superseded a memory, and the newest of its chain, or null (`supersession-signal.ts`). */
  readonly successors = new RidMemo<Succession | null>();
  /**
   * The store's size, its cosine sample, each query slot's document count, each phrase's matches
   * with their `bm25()` and the store's words by prefix (`match.ts`).
   */
  match: MatchMemo = matchMemo();
  /**
   * The memories with any `selected` or `used` event (in `usage`, `usage_folded` or
   * `usage_devices`), read at the first recall that weighs usage: a candidate outside it has no
   * usage score, so most recalls read no usage at all. Recording `retrieved` events (and folding
   * old ones) leaves it as it is; any write clears it.
   */
  feedback: ReadonlySet<number> | undefined;
  /** The memories of each date window the date leg read (`date-leg.ts`). */
  windows = windowRids();
  /**
   * The pinned memories (the `pins` table), read at the first recall after a change: any write
   * (a `pin` among them) clears it.
   */
  pinned: ReadonlySet<number> | undefined;

  /**
   * Forgets what depends on access counts and usage (the candidate rows): recalls' retrieval
   * counts were written. Words, speakers and sessions did not change, so what the lexical legs
   * counted and read stays (a search typed after a pause reads none of it again).
   */
  usageChanged(): void {
    this.rows.clear();
  }

  /** Forgets every kept value: the store changed. */
  clear(): void {
    this.rows.clear();
    this.speakers.clear();
    this.neighbours.clear();
    this.successors.clear();
    this.match = matchMemo(this.match.lengths);
    this.feedback = undefined;
    this.windows = windowRids();
    this.pinned = undefined;
  }
}

/** The recall path's reads, and what it keeps of them. */
export interface RecallReads {
  /** The store's reads, through kept prepared statements. */
  readonly read: Reader;
  /** What recall keeps between calls until the store changes. */
  readonly memo: RecallMemo;
}

/** {@link candidateRows} of these rids, the kept ones from `memo.rows` (ascending by rid). */
export function keptCandidateRows(
  { read, memo }: RecallReads,
  rids: readonly number[],
): Map<number, CandidateRow> {
  return memo.rows.get(rids, (missing) => candidateRows(read, missing));
}
