/**
 * A read-only walker over the raw pages of an SQLite file image: finds the rows of table b-tree
 * leaf pages without trusting the header, the schema or the interior pages. The recovery path
 * uses it for rows that SQL cannot reach any more (a damaged interior page hides every leaf below
 * it). Only the file format is assumed (https://sqlite.org/fileformat2.html).
 */

/** One row found on a table b-tree leaf page: its rowid and decoded column values. */
export interface RawRow {
  page: number;
  rowid: number;
  values: (number | string | Uint8Array | null)[];
}

const MAGIC = 'SQLite format 3\u0000';
const PAGE_SIZES = [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512];

/** What the first bytes of a store file say it is. */
export type FileHeader = 'empty' | 'plain' | 'encrypted' | 'unknown';

/**
 * Reads a store file's first 24 bytes: `'plain'` (SQLite's magic string), `'encrypted'` (not the
 * magic, and SQLite3MC's page-1 layout: bytes 16–23 left in plain text with 32 reserved bytes per
 * page for the nonce and tag and SQLite's fixed payload fractions 64, 32, 32), `'empty'`, or
 * `'unknown'` (neither: a damaged or foreign file).
 */
export function fileHeader(head: Uint8Array): FileHeader {
  if (head.length === 0) return 'empty';
  if (head.length < 24) return 'unknown';
  let magic = '';
  for (let i = 0; i < 16; i++) magic += String.fromCharCode(head[i]!);
  if (magic === MAGIC) return 'plain';
  if (head[20] === 32 && head[21] === 64 && head[22] === 32 && head[23] === 32) return 'encrypted';
  return 'unknown';
}

/** The page size a header declares, or `undefined` when the header is unreadable. */
export function headerPageSize(bytes: Uint8Array): number | undefined {
  if (bytes.length < 100) return undefined;
  for (let i = 0; i < 16; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return undefined;
  const raw = (bytes[16]! << 8) | bytes[17]!;
  const size = raw === 1 ? 65536 : raw;
  return PAGE_SIZES.includes(size) ? size : undefined;
}

/**
 * The page size of an image: the header's, or else the size at which the most pages look like
 * b-tree pages (a damaged header).
 */
export function guessPageSize(bytes: Uint8Array): number {
  const declared = headerPageSize(bytes);
  if (declared !== undefined) return declared;
  let best = 4096;
  let bestScore = -1;
  for (const size of PAGE_SIZES) {
    if (bytes.length % size !== 0) continue;
    let score = 0;
    for (let p = 1; p < bytes.length / size; p++) {
      if ([2, 5, 10, 13].includes(bytes[p * size]!)) score++;
    }
    score /= bytes.length / size;
    if (score > bestScore) [best, bestScore] = [size, score];
  }
  return best;
}

/** Page numbers (1-based) on the freelist, read from an intact header; empty otherwise. */
export function freelistPages(bytes: Uint8Array, pageSize: number): Set<number> {
  const out = new Set<number>();
  if (headerPageSize(bytes) === undefined) return out;
  const pages = Math.floor(bytes.length / pageSize);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let trunk = view.getUint32(32);
  while (trunk >= 1 && trunk <= pages && !out.has(trunk)) {
    out.add(trunk);
    const base = (trunk - 1) * pageSize;
    const count = view.getUint32(base + 4);
    for (let i = 0; i < count && 8 + 4 * i + 4 <= pageSize; i++) {
      const leaf = view.getUint32(base + 8 + 4 * i);
      if (leaf >= 1 && leaf <= pages) out.add(leaf);
    }
    trunk = view.getUint32(base);
  }
  return out;
}

/** Reads a varint at `at`; returns value and length, or undefined past `end`. */
function varint(b: Uint8Array, at: number, end: number): [number, number] | undefined {
  let v = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) return undefined;
    const byte = b[at + i]!;
    if (i === 8) return [v * 256 + byte, 9];
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) return [v, i + 1];
  }
  return undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes a record (header of serial types, then values); undefined when malformed. */
function decodeRecord(p: Uint8Array): RawRow['values'] | undefined {
  const h = varint(p, 0, p.length);
  if (!h || h[0] > p.length || h[0] < h[1]) return undefined;
  const types: number[] = [];
  for (let at = h[1]; at < h[0];) {
    const t = varint(p, at, h[0]);
    if (!t) return undefined;
    types.push(t[0]);
    at += t[1];
  }
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const values: RawRow['values'] = [];
  let at = h[0];
  const INT_SIZES = [0, 1, 2, 3, 4, 6, 8];
  for (const t of types) {
    if (t === 0) values.push(null);
    else if (t >= 1 && t <= 6) {
      const n = INT_SIZES[t]!;
      if (at + n > p.length) return undefined;
      let v = 0;
      for (let i = 0; i < n; i++) v = v * 256 + p[at + i]!;
      if (p[at]! & 0x80) v -= 2 ** (8 * n); // two's complement
      values.push(t === 6 ? Number(view.getBigInt64(at)) : v);
      at += n;
    } else if (t === 7) {
      if (at + 8 > p.length) return undefined;
      values.push(view.getFloat64(at));
      at += 8;
    } else if (t === 8 || t === 9) values.push(t - 8);
    else if (t >= 12) {
      const n = (t - (t % 2 === 0 ? 12 : 13)) / 2;
      if (at + n > p.length) return undefined;
      const slice = p.subarray(at, at + n);
      if (t % 2 === 0) values.push(slice.slice());
      else {
        try {
          values.push(decoder.decode(slice));
        } catch {
          return undefined;
        }
      }
      at += n;
    } else return undefined;
  }
  return at === p.length ? values : undefined;
}

/**
 * Every row of every table b-tree leaf page (type 13) outside `skip`, decoded; cells that do not
 * parse (damaged pages, broken overflow chains) are counted in `damaged` and skipped.
 */
export function scanTableLeaves(
  bytes: Uint8Array,
  pageSize: number,
  skip: ReadonlySet<number> = new Set(),
): { rows: RawRow[]; damaged: number } {
  const pages = Math.floor(bytes.length / pageSize);
  const usable = pageSize - (headerPageSize(bytes) !== undefined ? bytes[20]! : 0);
  const rows: RawRow[] = [];
  let damaged = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const overflow = new Set<number>();
  for (let page = 1; page <= pages; page++) {
    if (skip.has(page)) continue;
    const base = (page - 1) * pageSize;
    const head = base + (page === 1 ? 100 : 0);
    if (bytes[head] !== 13) continue;
    const cells = view.getUint16(head + 3);
    for (let c = 0; c < cells; c++) {
      const ptrAt = head + 8 + 2 * c;
      if (ptrAt + 2 > base + pageSize) break;
      const cell = base + view.getUint16(ptrAt);
      const end = base + pageSize;
      const size = varint(bytes, cell, end);
      const rowid = size && varint(bytes, cell + size[1], end);
      if (!size || !rowid || cell < head) {
        damaged++;
        continue;
      }
      const total = size[0];
      const start = cell + size[1] + rowid[1];
      const x = usable - 35;
      let local = total;
      if (total > x) {
        const m = Math.floor(((usable - 12) * 32) / 255) - 23;
        const k = m + ((total - m) % (usable - 4));
        local = k <= x ? k : m;
      }
      if (start + local + (local < total ? 4 : 0) > end || total > bytes.length) {
        damaged++;
        continue;
      }
      // The overflow chain is walked before anything is copied, and a page is one cell's only
      // (as in SQLite): over all cells the walks visit each page once, so a crafted file cannot
      // make the scan quadratic, and no buffer is allocated for a chain that falls short.
      const chain: number[] = [];
      let reach = local;
      let next = local < total ? view.getUint32(start + local) : 0;
      while (reach < total && next >= 1 && next <= pages && !overflow.has(next)) {
        overflow.add(next);
        chain.push(next);
        reach += Math.min(usable - 4, total - reach);
        next = view.getUint32((next - 1) * pageSize);
      }
      let values: RawRow['values'] | undefined;
      if (reach === total) {
        const payload = new Uint8Array(total);
        payload.set(bytes.subarray(start, start + local));
        let filled = local;
        for (const page of chain) {
          const o = (page - 1) * pageSize;
          const n = Math.min(usable - 4, total - filled);
          payload.set(bytes.subarray(o + 4, o + 4 + n), filled);
          filled += n;
        }
        values = decodeRecord(payload);
      }
      if (!values) {
        damaged++;
        continue;
      }
      rows.push({ page, rowid: rowid[0], values });
    }
  }
  return { rows, damaged };
}

/**
 * A copy of `bytes` with a fresh 100-byte header when the original's is unreadable, so SQLite
 * can open what remains (page 1's schema table starts after the header and often survives).
 */
export function withRepairedHeader(bytes: Uint8Array, pageSize: number): Uint8Array {
  if (headerPageSize(bytes) !== undefined) return bytes;
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) out[i] = MAGIC.charCodeAt(i);
  view.setUint16(16, pageSize === 65536 ? 1 : pageSize);
  out[18] = 1; // legacy write version
  out[19] = 1; // legacy read version
  out[20] = 0; // reserved bytes per page
  out[21] = 64;
  out[22] = 32;
  out[23] = 32;
  view.setUint32(24, 1); // change counter
  view.setUint32(28, Math.floor(out.length / pageSize)); // pages
  view.setUint32(32, 0); // no freelist (it cannot be trusted)
  view.setUint32(36, 0);
  view.setUint32(40, 1); // schema cookie
  view.setUint32(44, 4); // schema format
  view.setUint32(48, 0);
  view.setUint32(52, 0); // no auto-vacuum
  view.setUint32(56, 1); // UTF-8
  view.setUint32(60, 0);
  view.setUint32(64, 0);
  view.setUint32(68, 0);
  for (let i = 72; i < 92; i++) out[i] = 0;
  view.setUint32(92, 1); // version-valid-for = change counter
  view.setUint32(96, 3054001);
  return out;
}
