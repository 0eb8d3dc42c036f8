/**
 * The word-neighbour table of a static model: for each plain word of the vocabulary, its nearest
 * words by the cosine of their int8 rows (what the engine's query expansion reads, so that
 * "accident" also finds "crash"). Computing a word's neighbours at query time is a pass over the
 * whole table (about half a millisecond a word); the build computes every word's once, with the
 * engine's own `WordNeighbours`, and ships the answers beside the model. A runtime that finds no
 * table, or one written for other weights or other rules, computes them itself: the answers are
 * the same either way.
 *
 * Layout (little-endian):
 *
 * | bytes | field |
 * | --- | --- |
 * | 4 | magic `ANBT` |
 * | 4 | format version (1) |
 * | 4 | rows of the model's table |
 * | 4 | values per row |
 * | 4 | {@link weightsFingerprint} of the weights it was computed from |
 * | 4 | neighbours per word, `k` |
 * | 4 | least cosine, float32 |
 * | 4 | words listed, `n` (those with at least one neighbour) |
 * | n · w | each listed word's row id, ascending |
 * | n · k · w | each listed word's neighbours' row ids, nearest first, {@link NO_NEIGHBOUR} padding |
 *
 * where `w` is 2 bytes for a table of at most 65,535 rows, else 4.
 */
import type { StaticWeights } from './static-weights.ts';

const MAGIC = 0x5442_4e41; // 'ANBT' read little-endian
const VERSION = 1;
const HEADER_BYTES = 32;

/** A padding id: no further neighbour (the largest id of the table's id width). */
const NO_NEIGHBOUR = { 2: 0xffff, 4: 0xffff_ffff } as const;

/** Every listed word's neighbours, and the rules and weights they were computed under. */
export interface NeighbourTable {
  /** Rows of the model's table. */
  rows: number;
  /** Values per row. */
  dims: number;
  /** {@link weightsFingerprint} of the weights the table was computed from. */
  fingerprint: number;
  /** Neighbours kept per word. */
  perWord: number;
  /** A neighbour's least cosine with its word (as float32). */
  minCosine: number;
  /** Row id of a word → its neighbours' row ids, nearest first (only words with some). */
  neighbours: ReadonlyMap<number, readonly number[]>;
}

/**
 * A fingerprint of a model's weights (FNV-1a over the scales' bytes and every 97th table byte,
 * with the shape): cheap at load (about a quarter of a millisecond for the default model, once
 * optimised), and different for any other build of the table in practice.
 */
export function weightsFingerprint(weights: StaticWeights): number {
  // One loop per source, no call per byte: at a page's first load this code runs unoptimised.
  let h = 0x811c9dc5;
  for (const n of [weights.vocabSize, weights.dims])
    for (let s = 0; s < 32; s += 8) h = Math.imul(h ^ ((n >>> s) & 0xff), 0x01000193);
  const scales = new Uint8Array(
    weights.scale.buffer,
    weights.scale.byteOffset,
    weights.scale.byteLength,
  );
  for (let i = 0; i < scales.length; i++) h = Math.imul(h ^ scales[i]!, 0x01000193);
  const table = weights.table;
  for (let i = 0; i < table.length; i += 97) h = Math.imul(h ^ (table[i]! & 0xff), 0x01000193);
  return h >>> 0;
}

/** Writes a table in the layout above. */
export function encodeNeighbourTable(table: NeighbourTable): Uint8Array {
  const width = table.rows <= 0xffff ? 2 : 4;
  const none = NO_NEIGHBOUR[width];
  const listed = [...table.neighbours.keys()].sort((a, b) => a - b);
  const bytes = new Uint8Array(HEADER_BYTES + listed.length * (1 + table.perWord) * width);
  const view = new DataView(bytes.buffer);
  [MAGIC, VERSION, table.rows, table.dims, table.fingerprint, table.perWord].forEach((v, i) =>
    view.setUint32(i * 4, v, true),
  );
  view.setFloat32(24, table.minCosine, true);
  view.setUint32(28, listed.length, true);
  const put = (at: number, id: number) =>
    width === 2 ? view.setUint16(at, id, true) : view.setUint32(at, id, true);
  let at = HEADER_BYTES;
  for (const id of listed) {
    put(at, id);
    at += width;
  }
  for (const id of listed) {
    const near = table.neighbours.get(id)!;
    for (let j = 0; j < table.perWord; j++, at += width) put(at, near[j] ?? none);
  }
  return bytes;
}

/** Reads a table written by {@link encodeNeighbourTable}; throws on any other bytes. */
export function decodeNeighbourTable(bytes: Uint8Array): NeighbourTable {
  const fail = (why: string): never => {
    throw new Error(`not a neighbour table: ${why}`);
  };
  if (bytes.length < HEADER_BYTES) fail('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (i: number) => view.getUint32(i * 4, true);
  if (u32(0) !== MAGIC) fail('bad magic');
  if (u32(1) !== VERSION) fail(`format version ${u32(1)}`);
  const [rows, dims, fingerprint, perWord, listed] = [u32(2), u32(3), u32(4), u32(5), u32(7)];
  const width = rows <= 0xffff ? 2 : 4;
  const none = NO_NEIGHBOUR[width];
  if (perWord < 1 || bytes.length !== HEADER_BYTES + listed * (1 + perWord) * width)
    fail('wrong length');
  // the ids as typed arrays (the platform's byte order: little-endian wherever this runs, as
  // WebAssembly), over an aligned copy where the bytes do not start on the width
  const body = bytes.byteOffset % width === 0 ? bytes : bytes.slice();
  const ids = (at: number, length: number) =>
    width === 2
      ? new Uint16Array(body.buffer, body.byteOffset + at, length)
      : new Uint32Array(body.buffer, body.byteOffset + at, length);
  const words = ids(HEADER_BYTES, listed);
  const lists = ids(HEADER_BYTES + listed * width, listed * perWord);
  // every entry checked now, nothing built: a word's list is read when it is asked for
  for (let i = 0; i < listed; i++) {
    const id = words[i]!;
    let some = 0;
    for (let j = i * perWord, end = j + perWord; j < end; j++) {
      const n = lists[j]!;
      if (n === none) continue;
      if (n >= rows) fail(`row ${n} outside the table`);
      some++;
    }
    // listed once each, ascending (as the encoder writes them), each with a neighbour
    if (id >= rows || (i > 0 && id <= words[i - 1]!) || some === 0) fail(`bad entry for row ${id}`);
  }
  const neighbours = new NeighbourLists(words, lists, perWord, none);
  return { rows, dims, fingerprint, perWord, minCosine: view.getFloat32(24, true), neighbours };
}

/**
 * A decoded table's lists, read from its bytes when asked for: building a map of every listed
 * word's array at a load took 14 ms and as much again in garbage collection in a cold Chromium
 * worker (the default model's 58,000 words, 2026-12-08), before the first recall.
 */
class NeighbourLists implements ReadonlyMap<number, readonly number[]> {
  readonly #words: Uint16Array | Uint32Array;
  readonly #lists: Uint16Array | Uint32Array;
  readonly #perWord: number;
  readonly #none: number;

  constructor(
    words: Uint16Array | Uint32Array,
    lists: Uint16Array | Uint32Array,
    perWord: number,
    none: number,
  ) {
    this.#words = words;
    this.#lists = lists;
    this.#perWord = perWord;
    this.#none = none;
  }

  get size(): number {
    return this.#words.length;
  }

  /** The index of `id` among the listed words (ascending), or -1. */
  #index(id: number): number {
    const words = this.#words;
    let lo = 0;
    let hi = words.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const w = words[mid]!;
      if (w === id) return mid;
      if (w < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #list(index: number): number[] {
    const out: number[] = [];
    for (let j = index * this.#perWord, end = j + this.#perWord; j < end; j++)
      if (this.#lists[j] !== this.#none) out.push(this.#lists[j]!);
    return out;
  }

  get(id: number): readonly number[] | undefined {
    const index = this.#index(id);
    return index < 0 ? undefined : this.#list(index);
  }

  has(id: number): boolean {
    return this.#index(id) >= 0;
  }

  *entries(): MapIterator<[number, readonly number[]]> {
    for (let i = 0; i < this.#words.length; i++) yield [this.#words[i]!, this.#list(i)];
  }

  *keys(): MapIterator<number> {
    for (let i = 0; i < this.#words.length; i++) yield this.#words[i]!;
  }

  *values(): MapIterator<readonly number[]> {
    for (let i = 0; i < this.#words.length; i++) yield this.#list(i);
  }

  [Symbol.iterator](): MapIterator<[number, readonly number[]]> {
    return this.entries();
  }

  forEach(
    visit: (
      value: readonly number[],
      key: number,
      map: ReadonlyMap<number, readonly number[]>,
    ) => void,
  ): void {
    for (const [key, value] of this.entries()) visit(value, key, this);
  }
}
