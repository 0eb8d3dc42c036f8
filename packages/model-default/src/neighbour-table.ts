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
  neighbours: Map<number, readonly number[]>;
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
  const get = (at: number) => (width === 2 ? view.getUint16(at, true) : view.getUint32(at, true));
  const neighbours = new Map<number, readonly number[]>();
  let ids = HEADER_BYTES;
  let near = HEADER_BYTES + listed * width;
  for (let i = 0; i < listed; i++, ids += width) {
    const id = get(ids);
    const list: number[] = [];
    for (let j = 0; j < perWord; j++, near += width) {
      const n = get(near);
      if (n !== none) {
        if (n >= rows) fail(`row ${n} outside the table`);
        list.push(n);
      }
    }
    if (id >= rows || list.length === 0) fail(`bad entry for row ${id}`);
    neighbours.set(id, list);
  }
  return { rows, dims, fingerprint, perWord, minCosine: view.getFloat32(24, true), neighbours };
}
