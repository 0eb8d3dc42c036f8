import type { NeighbourTable } from '@anamnesis/model-default';
import { Int8Rows } from '../vectors/int8-rows.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Nearest words returned per query word. */
export const NEIGHBOURS_PER_WORD = 2;

/** A neighbour's least cosine with the query word (the rows of the model's table). */
export const NEIGHBOUR_MIN_COSINE = 0.7;

/** Rows prepared per slice by `prepareInBackground` (about a millisecond's work each). */
const PREPARE_ROWS = 4096;

/** Query words whose neighbours are kept, least recently used dropped first. */
const CACHE_WORDS = 1024;

/** A token a neighbour can be: lower-case letters only (no punctuation, digits or word pieces). */
const PLAIN_WORD = /^\p{Ll}+$/u;

/**
 * The nearest words of a static model's vocabulary (the model's table of int8 rows, one per
 * token): for query expansion, so that "accident" also finds "crash". A word's neighbours are the
 * {@link NEIGHBOURS_PER_WORD} plain words whose rows have the greatest cosine with its row, at
 * least {@link NEIGHBOUR_MIN_COSINE}, greatest first (ties by token id). The cosines are exact
 * (integer dot products of the int8 rows); the SIMD kernel of {@link Int8Rows} only picks which
 * rows to compute exactly, so every platform gets the same words. The table is copied into the
 * kernel's memory (about as large as the table) once, in the background or at the first query;
 * then each word costs one pass over it; answers are cached per word. A model built with a
 * neighbour table ({@link NeighbourTable}, computed by {@link WordNeighbours.everyWord} at build
 * time) answers from it instead, without the search or the kernel's copy.
 */
export class WordNeighbours {
  readonly #vocab: Vocabulary;
  /** Row id → its token where that is a plain word; built when searching (see {@link #plainWords}). */
  #words: readonly (string | undefined)[] | undefined;
  readonly #table: Int8Array;
  readonly #scales: Float32Array;
  readonly #dims: number;
  readonly #count: number;
  /** Each row's Euclidean norm (of its int8 values; 0 for a row of scale 0), from row 0 on. */
  readonly #norms: Float64Array;
  /** Rows whose norm is computed and (with the kernel) copied into the kernel's memory. */
  #prepared = 0;
  /** The SIMD kernel holding the table, rows scaled to unit length; null without SIMD. */
  readonly #rows: Int8Rows | null;
  #preparing = false;
  readonly #cache = new Map<string, readonly string[]>();
  /** The build's answers, row id → neighbour row ids, when the model ships them. */
  readonly #shipped: NeighbourTable['neighbours'] | undefined;

  /**
   * @param vocab the tokenizer's vocabulary (token ↔ row)
   * @param table the model's int8 rows, `dims` values each, row `id` at `id · dims`
   * @param scales each row's dequantisation scale (a row of scale 0 is a zero vector)
   * @param shipped the model's neighbour table, if it has one computed from these rows under
   *   {@link NEIGHBOURS_PER_WORD} and {@link NEIGHBOUR_MIN_COSINE} (see {@link tableFits})
   */
  constructor(
    vocab: Vocabulary,
    table: Int8Array,
    scales: Float32Array,
    dims: number,
    shipped?: NeighbourTable,
  ) {
    this.#table = table;
    this.#scales = scales;
    this.#dims = dims;
    this.#count = Math.floor(table.length / dims);
    this.#vocab = vocab;
    this.#shipped = shipped?.neighbours;
    this.#norms = new Float64Array(shipped ? 0 : this.#count);
    this.#rows = shipped ? null : (Int8Rows.create(dims, this.#count) ?? null);
  }

  /** The row of `token`, when the vocabulary holds it and the table has that row. */
  #idOf(token: string): number | undefined {
    const id = this.#vocab.idOf(token);
    return id !== undefined && id < this.#count ? id : undefined;
  }

  /** The token of row `row` where that is a plain word. */
  #plainWord(row: number): string | undefined {
    const token = this.#vocab.tokenOf(row);
    return token !== undefined && PLAIN_WORD.test(token) ? token : undefined;
  }

  /** Row id → its token where that is a plain word, built once (a pass over the rows): for searching. */
  #plainWords(): readonly (string | undefined)[] {
    this.#words ??= Array.from({ length: this.#count }, (_, row) => this.#plainWord(row));
    return this.#words;
  }

  /**
   * Whether a model's neighbour table answers as this class would for its rows: the same shape,
   * the same weights (by `fingerprint`, the model's `weightsFingerprint`) and the same rules.
   */
  static tableFits(
    table: NeighbourTable,
    shape: { rows: number; dims: number; fingerprint: number },
  ): boolean {
    return (
      table.rows === shape.rows &&
      table.dims === shape.dims &&
      table.fingerprint === shape.fingerprint &&
      table.perWord === NEIGHBOURS_PER_WORD &&
      table.minCosine === Math.fround(NEIGHBOUR_MIN_COSINE)
    );
  }

  /**
   * Does the one-off work (each row's norm and the kernel's copy of the table) in slices of
   * {@link PREPARE_ROWS} rows between other tasks, so that the first expanded query does not wait
   * for all of it; a query that comes first finishes it at once. The answers are the same either way.
   */
  prepareInBackground(): void {
    if (this.#shipped || this.#preparing || this.#prepared === this.#count) return;
    this.#preparing = true;
    setTimeout(() => this.#plainWords(), 0);
    const slice = () => {
      this.#prepare(this.#prepared + PREPARE_ROWS);
      if (this.#prepared < this.#count) setTimeout(slice, 0);
    };
    setTimeout(slice, 0);
  }

  /** Computes the norms of the rows before `end` and copies them into the kernel. */
  #prepare(end: number): void {
    const first = this.#prepared;
    const last = Math.min(end, this.#count);
    if (first >= last) return;
    const t = this.#table;
    const d = this.#dims;
    const norms = this.#norms;
    for (let r = first; r < last; r++) {
      if (this.#scales[r] === 0) continue;
      let sum = 0;
      for (let i = r * d, stop = i + d; i < stop; i++) sum += t[i]! * t[i]!;
      norms[r] = Math.sqrt(sum);
    }
    this.#rows?.setInt8(
      first,
      t.subarray(first * d, last * d),
      Float32Array.from(norms.subarray(first, last), (n) => (n > 0 ? 1 / n : 0)),
    );
    this.#prepared = last;
  }

  /** Whether `word` (lower-case) is a plain word of the vocabulary. */
  knows(word: string): boolean {
    return this.#idOf(word) !== undefined && PLAIN_WORD.test(word);
  }

  /** The neighbours of `word` (lower-case, as the tokenizer writes it); none for an unknown word. */
  of(word: string): readonly string[] {
    if (this.#shipped) {
      const id = this.#idOf(word);
      const near = id === undefined ? undefined : this.#shipped.get(id);
      return near ? near.map((row) => this.#plainWord(row)!) : [];
    }
    const kept = this.#cache.get(word);
    if (kept) {
      this.#cache.delete(word);
      this.#cache.set(word, kept);
      return kept;
    }
    const found = this.#find(word);
    this.#cache.set(word, found);
    if (this.#cache.size > CACHE_WORDS) this.#cache.delete(this.#cache.keys().next().value!);
    return found;
  }

  /**
   * Every token's neighbours, computed (what a model's neighbour table holds): row id →
   * neighbour row ids, nearest first, for the tokens that have any. About 25 s for the default
   * model's 50,000 rows on one core.
   */
  everyWord(): Map<number, readonly number[]> {
    if (this.#shipped) return new Map(this.#shipped);
    const out = new Map<number, readonly number[]>();
    for (let id = 0; id < this.#count; id++) {
      const token = this.#vocab.tokenOf(id);
      if (token === undefined || this.#vocab.idOf(token) !== id) continue;
      const near = this.#nearest(id);
      if (near.length > 0) out.set(id, near);
    }
    return out;
  }

  #find(word: string): readonly string[] {
    const id = this.#idOf(word);
    if (id === undefined) return [];
    const words = this.#plainWords();
    return this.#nearest(id).map((row) => words[row]!);
  }

  /** The row ids of row `id`'s neighbours, nearest first. */
  #nearest(id: number): number[] {
    this.#prepare(this.#count);
    const norms = this.#norms;
    if (norms[id] === 0) return [];
    const candidates = this.#candidates(id);
    const words = this.#plainWords();
    const scored: [number, number][] = [];
    for (const row of candidates) {
      if (row === id || words[row] === undefined || norms[row] === 0) continue;
      const cosine = this.#dot(id, row) / (norms[id]! * norms[row]!);
      if (cosine >= NEIGHBOUR_MIN_COSINE) scored.push([cosine, row]);
    }
    scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return scored.slice(0, NEIGHBOURS_PER_WORD).map(([, row]) => row);
  }

  /** Rows whose cosine with row `id` may reach the floor: all of them without the SIMD kernel. */
  #candidates(id: number): Iterable<number> {
    const rows = this.#rows;
    if (!rows) return Array.from({ length: this.#count }, (_, i) => i);
    const d = this.#dims;
    const query = Float32Array.from(this.#table.subarray(id * d, (id + 1) * d));
    const { scores, scale } = rows.scan(query, this.#count);
    // approximate cosines (the query re-quantized); a margin far above their error keeps every
    // row that could reach the floor exactly
    const floor = (NEIGHBOUR_MIN_COSINE - 0.05) * this.#norms[id]!;
    const out: number[] = [];
    for (let row = 0; row < this.#count; row++) if (scores[row]! * scale >= floor) out.push(row);
    return out;
  }

  #dot(a: number, b: number): number {
    const t = this.#table;
    const d = this.#dims;
    let sum = 0;
    for (let i = 0, x = a * d, y = b * d; i < d; i++) sum += t[x + i]! * t[y + i]!;
    return sum;
  }
}
