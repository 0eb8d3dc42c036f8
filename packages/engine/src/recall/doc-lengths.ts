import type { Reader } from '../store/reader.ts';

/**
 * What FTS5's `bm25()` reads of the lexical index besides a phrase's matches, kept in memory:
 * every memory's length in tokens (the index's `docsize` table, all columns together) and the
 * index's totals (its `averages` record: rows and tokens). `bm25()` looks each matched memory's
 * length up in `docsize`, half of what it costs a row; with the lengths here a phrase's scores
 * are computed from its instances alone (`phrase-instances.ts`).
 *
 * FTS5 writes each row's `docsize` with an `origin`: the number of the index segment it will
 * flush next, a counter that only grows, and every commit flushes. So once read, the lengths are
 * brought up to date by reading only the rows whose origin is the greatest read or greater: the
 * memories written or rewritten since (a deleted memory's length stays, unread: no phrase matches
 * it). That read still scans `docsize` (its origins have no index), and the first reads it whole,
 * so each is made only once the phrases scored without the lengths have cost more than it would
 * (a share of the store's size in scored matches): a store written between every search, or a
 * first search, never pays for it.
 */

/**
 * Matches scored by `bm25()` for want of the lengths, as a share of the store's memories, that
 * pay for reading every length (about a quarter of what scoring a match with `bm25()` costs a
 * memory, in SQLite-WASM and native SQLite alike, 2026-11-30).
 */
const FIRST_READ_SHARE = 1 / 4;
/** The same for reading the memories written since (a scan of `docsize` that reads few rows). */
const CATCH_UP_SHARE = 1 / 16;

/** The lexical index's totals and each memory's length, as `bm25()` reads them. */
export interface IndexLengths {
  /** Rows in the index (FTS5's `xRowCount`). */
  readonly rows: number;
  /** Tokens a row, on average over the index, all columns together (`bm25()`'s avgdl). */
  readonly mean: number;
  /** Each memory's tokens, all columns together, by rid (0 for one not read). */
  readonly tokens: Uint32Array;
}

/** Every memory's length in the lexical index, read once and then caught up (see the module). */
export class DocLengths {
  #tokens = new Uint32Array(0);
  /** The greatest origin read, −1 before the first read. */
  #origin = -1;
  /** The store generation the lengths are current for, and its totals. */
  #generation: object | undefined;
  #current: IndexLengths | undefined;
  /** Matches scored by `bm25()` since the lengths were last current. */
  #owed = 0;

  /**
   * The lengths, current for the store generation `generation` (an object that a change of the
   * store replaces), or undefined while reading them would cost more than the matches scored
   * without them so far ({@link owe}); `storeSize`: the store's memories.
   */
  current(read: Reader, generation: object, storeSize: number): IndexLengths | undefined {
    if (this.#generation === generation) return this.#current;
    const share = this.#origin < 0 ? FIRST_READ_SHARE : CATCH_UP_SHARE;
    if (this.#owed < storeSize * share) return undefined;
    this.#catchUp(read);
    // the averages record: the rows, then each column's tokens (a copy: a blob read is a view
    // of SQLite's memory while its row is read)
    const record =
      read.all('SELECT block FROM memories_fts_data WHERE id = 1', [], (c) =>
        c.blob(0).slice(),
      )[0] ?? new Uint8Array(0);
    const cursor = { at: 0 };
    const rows = varint(record, record.length, cursor);
    let tokens = 0;
    while (cursor.at < record.length) tokens += varint(record, record.length, cursor);
    this.#generation = generation;
    this.#owed = 0;
    this.#current = { rows, mean: tokens / rows, tokens: this.#tokens };
    return this.#current;
  }

  /** Notes that `matches` matches were scored by `bm25()` because the lengths were not current. */
  owe(matches: number): void {
    this.#owed += matches;
  }

  /** Reads the length of every row of `docsize` from the greatest origin read on. */
  #catchUp(read: Reader): void {
    const [[list, origin]] = read.all(
      `SELECT group_concat(id || ' ' || hex(sz), ' '), max(origin) FROM memories_fts_docsize
       WHERE origin >= ?`,
      [Math.max(this.#origin, 0)],
      (c) => [c.text(0) ?? '', c.num(1)] as const,
    ) as [readonly [string, number]];
    this.#origin = Math.max(this.#origin, origin);
    // "rid HEX rid HEX …": each HEX the columns' token counts as SQLite varints
    let bytes: Uint8Array = new Uint8Array(16);
    const cursor = { at: 0 };
    for (let at = 0; at < list.length;) {
      let rid = 0;
      for (let c = list.charCodeAt(at); c !== 32; c = list.charCodeAt(++at))
        rid = rid * 10 + c - 48;
      let length = 0;
      for (at++; at < list.length && list.charCodeAt(at) !== 32; at += 2) {
        if (length === bytes.length) bytes = grow(bytes);
        bytes[length++] = (nibble(list.charCodeAt(at)) << 4) | nibble(list.charCodeAt(at + 1));
      }
      at++;
      let sum = 0;
      for (cursor.at = 0; cursor.at < length;) sum += varint(bytes, length, cursor);
      this.#set(rid, sum);
    }
  }

  #set(rid: number, tokens: number): void {
    if (rid >= this.#tokens.length) {
      const grown = new Uint32Array(Math.max(1024, 2 * this.#tokens.length, rid + 1));
      grown.set(this.#tokens);
      this.#tokens = grown;
    }
    this.#tokens[rid] = tokens;
  }
}

/** A hexadecimal digit's value (SQLite's `hex()` writes upper case). */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 55;
}

/** A copy of `bytes` twice as long. */
function grow(bytes: Uint8Array): Uint8Array {
  const grown = new Uint8Array(bytes.length * 2);
  grown.set(bytes);
  return grown;
}

/**
 * The SQLite varint at `cursor.at` of the first `length` bytes of `bytes`, moving `cursor.at`
 * past it (FTS5's records are written with them: 7 bits a byte, the high bit set while more
 * follow, a ninth byte whole).
 */
function varint(bytes: Uint8Array, length: number, cursor: { at: number }): number {
  let value = 0;
  for (let i = 0; ; i++) {
    const byte = cursor.at < length ? bytes[cursor.at++]! : 0;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 127);
    if (byte < 128) return value;
  }
}
