import { Int8Rows } from './int8-rows.ts';

/** Nearest words returned per query word. */
export const NEIGHBOURS_PER_WORD = 2;

/** A neighbour's least cosine with the query word (the rows of the model's table). */
export const NEIGHBOUR_MIN_COSINE = 0.7;

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
 * kernel's memory at the first query (about as large as the table), then each word costs one pass
 * over it; answers are cached per word.
 */
export class WordNeighbours {
  readonly #ids: ReadonlyMap<string, number>;
  readonly #words: readonly string[];
  readonly #table: Int8Array;
  readonly #scales: Float32Array;
  readonly #dims: number;
  readonly #count: number;
  #norms: Float64Array | undefined;
  #rows: Int8Rows | undefined | null;
  readonly #cache = new Map<string, readonly string[]>();

  /**
   * @param vocab the tokenizer's vocabulary (token → row)
   * @param table the model's int8 rows, `dims` values each, row `id` at `id · dims`
   * @param scales each row's dequantisation scale (a row of scale 0 is a zero vector)
   */
  constructor(
    vocab: Readonly<Record<string, number>>,
    table: Int8Array,
    scales: Float32Array,
    dims: number,
  ) {
    this.#table = table;
    this.#scales = scales;
    this.#dims = dims;
    this.#count = Math.floor(table.length / dims);
    const ids = new Map<string, number>();
    const words: string[] = [];
    for (const [token, id] of Object.entries(vocab)) {
      if (!Number.isInteger(id) || id < 0 || id >= this.#count) continue;
      ids.set(token, id);
      if (PLAIN_WORD.test(token)) words[id] = token;
    }
    this.#ids = ids;
    this.#words = words;
  }

  /** The neighbours of `word` (lower-case, as the tokenizer writes it); none for an unknown word. */
  of(word: string): readonly string[] {
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

  #find(word: string): readonly string[] {
    const id = this.#ids.get(word);
    const norms = (this.#norms ??= this.#rowNorms());
    if (id === undefined || norms[id] === 0) return [];
    const candidates = this.#candidates(id);
    const scored: [number, number][] = [];
    for (const row of candidates) {
      if (row === id || this.#words[row] === undefined || norms[row] === 0) continue;
      const cosine = this.#dot(id, row) / (norms[id]! * norms[row]!);
      if (cosine >= NEIGHBOUR_MIN_COSINE) scored.push([cosine, row]);
    }
    scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return scored.slice(0, NEIGHBOURS_PER_WORD).map(([, row]) => this.#words[row]!);
  }

  /** Rows whose cosine with row `id` may reach the floor: all of them without the SIMD kernel. */
  #candidates(id: number): Iterable<number> {
    const rows = this.#kernelRows();
    if (!rows) return Array.from({ length: this.#count }, (_, i) => i);
    const d = this.#dims;
    const query = Float32Array.from(this.#table.subarray(id * d, (id + 1) * d));
    const { scores, scale } = rows.scan(query, this.#count);
    // approximate cosines (the query re-quantized); a margin far above their error keeps every
    // row that could reach the floor exactly
    const floor = (NEIGHBOUR_MIN_COSINE - 0.05) * this.#norms![id]!;
    const out: number[] = [];
    for (let row = 0; row < this.#count; row++) if (scores[row]! * scale >= floor) out.push(row);
    return out;
  }

  /** The table in the SIMD kernel's memory, each row scaled to unit length; null without SIMD. */
  #kernelRows(): Int8Rows | null {
    if (this.#rows !== undefined) return this.#rows;
    const rows = Int8Rows.create(this.#dims, this.#count) ?? null;
    rows?.setInt8(
      0,
      this.#table,
      Float32Array.from(this.#norms!, (n) => (n > 0 ? 1 / n : 0)),
    );
    this.#rows = rows;
    return rows;
  }

  #rowNorms(): Float64Array {
    const t = this.#table;
    const d = this.#dims;
    const norms = new Float64Array(this.#count);
    for (let r = 0; r < this.#count; r++) {
      if (this.#scales[r] === 0) continue;
      let sum = 0;
      for (let i = r * d, end = i + d; i < end; i++) sum += t[i]! * t[i]!;
      norms[r] = Math.sqrt(sum);
    }
    return norms;
  }

  #dot(a: number, b: number): number {
    const t = this.#table;
    const d = this.#dims;
    let sum = 0;
    for (let i = 0, x = a * d, y = b * d; i < d; i++) sum += t[x + i]! * t[y + i]!;
    return sum;
  }
}
