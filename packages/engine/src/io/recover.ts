import { AnamnesisError } from '@anamnesis/errors';
import { sha256Hex } from '../store/content-hash.ts';
import { exportJsonl } from './jsonl.ts';
import {
  fileHeader,
  freelistPages,
  guessPageSize,
  headerPageSize,
  scanTableLeaves,
  withRepairedHeader,
} from './page-scan.ts';
import { migrate } from '../store/schema.ts';
import { asDatabase, importDatabase, loadSqlite, type WasmDatabase } from '../store/sqlite.ts';
import {
  insertMemories,
  STORED_MEMORY_COLUMNS,
  toMemory,
  toMemoryRow,
  type MemoryRow,
} from '../store/store.ts';
import { validateLinks, validateRemember } from '../input/validate.ts';

/** What {@link recoverStore} salvaged from a damaged store. */
export interface RecoverResult {
  /**
   * The salvaged memories in the engine's JSON Lines export format (no vectors), with the links
   * and usage events whose ends were both salvaged: `engine.import(jsonl)` restores them.
   */
  jsonl: string;
  /** Memories salvaged. */
  recovered: number;
  /** Memories known to exist (listed by an index, or seen on a damaged page) that were lost. */
  unreadable: number;
  /** What was wrong and what was skipped, for the user. */
  problems: string[];
}

const EVENTS = new Set(['retrieved', 'selected', 'used', 'discarded']);

/**
 * The fewest bytes a memory row takes in a store file: its 64-character content hash alone. A file
 * of `n` bytes holds at most `n / MIN_ROW_BYTES` memories, whatever its b-tree claims.
 */
const MIN_ROW_BYTES = 64;

/** Keys that SQL could not read, and ranges given up on when the failure budget ran out. */
interface RangeFailures {
  keys: number[];
  ranges: [number, number][];
}

/**
 * Reads `sql` (with `?1`, `?2` bounds) over [lo, hi], halving ranges that fail, down to one key.
 * A failing range for which `wanted(a, b)` is false is not split (no row there is worth a probe);
 * after `budget` failed queries the remaining failing ranges are given up whole, so a file that
 * claims keys up to 2^53 costs no more probes than its size allows.
 */
function readRanges(
  db: WasmDatabase,
  sql: string,
  lo: number,
  hi: number,
  onRow: (row: unknown[]) => void,
  budget: number,
  wanted: (a: number, b: number) => boolean = () => true,
): RangeFailures {
  const failures: RangeFailures = { keys: [], ranges: [] };
  let left = budget;
  const read = (a: number, b: number) => {
    try {
      for (const row of db.selectArrays(sql, [a, b])) onRow(row);
    } catch {
      if (!wanted(a, b)) return;
      if (a === b) return void failures.keys.push(a);
      if (--left < 0) return void failures.ranges.push([a, b]);
      const mid = Math.floor(a / 2 + b / 2);
      read(a, mid);
      read(mid + 1, b);
    }
  };
  if (hi >= lo) read(lo, hi);
  return failures;
}

/** How many of the sorted `keys` lie in [a, b]. */
function countIn(keys: readonly number[], a: number, b: number): number {
  const first = (x: number) => {
    let l = 0;
    let h = keys.length;
    while (l < h) {
      const m = (l + h) >> 1;
      if (keys[m]! < x) l = m + 1;
      else h = m;
    }
    return l;
  };
  return first(b + 1) - first(a);
}

/** The first query of `queries` that answers, or undefined. */
function firstAnswer<T>(queries: (() => T)[]): T | undefined {
  for (const q of queries) {
    try {
      return q();
    } catch {
      // try the next access path
    }
  }
  return undefined;
}

/** Whether `import` accepts a link of this kind and weight. */
function validLink(kind: unknown, weight: unknown): boolean {
  try {
    validateLinks([{ to: 'x', kind: kind as string, weight: weight as number }]);
    return true;
  } catch {
    return false;
  }
}

/** A memory row that is whole: JSON fields parse and the text matches its content hash. */
function checkedRow(values: unknown[]): MemoryRow | undefined {
  try {
    const row = toMemoryRow(values);
    if (typeof row.id !== 'string' || row.id === '' || typeof row.text !== 'string') return;
    if (typeof row.kind !== 'string' || !Array.isArray(row.tags)) return;
    if (row.meta === null || typeof row.meta !== 'object' || Array.isArray(row.meta)) return;
    for (const n of [row.importance, row.createdAt, row.updatedAt, row.accessCount])
      if (typeof n !== 'number' || !Number.isFinite(n)) return;
    if (sha256Hex(row.text) !== row.contentHash) return;
    // what `import` would refuse (a damaged meta key, an out-of-range number) is not salvage
    validateRemember({ ...toMemory(row), links: [] }, 0, Number.MAX_SAFE_INTEGER);
    return row;
  } catch {
    return undefined;
  }
}

/**
 * Salvages what it can from the bytes of a damaged store (the SQLite file image of a `file` or
 * OPFS store) without writing to them: memories are read by SQL over rowid ranges, halving a range
 * that hits a damaged page, and rows that SQL cannot reach (under a damaged interior page, or
 * behind a damaged header) are read straight from the table's leaf pages. A row is kept only when
 * its text matches its stored content hash. Links and usage events are kept when SQL can read them
 * and both their memories were salvaged. Vectors are not exported: `import` re-embeds.
 *
 * Works on bytes, so a browser worker can run it on an OPFS file; in Node a path is read for you.
 */
export async function recoverStore(source: Uint8Array | string): Promise<RecoverResult> {
  const input =
    typeof source === 'string'
      ? new Uint8Array(await (await import('node:fs/promises')).readFile(source))
      : source;
  if (fileHeader(input.subarray(0, 24)) === 'encrypted')
    throw new AnamnesisError(
      'ENCRYPTION_MISMATCH',
      'the store is encrypted: recover reads the pages of a store that is not; open it with its passphrase (the CLI: ANAMNESIS_PASSPHRASE) and export or back it up',
      { details: { encrypted: true } },
    );
  const problems: string[] = [];
  if (input.length < 512) {
    const empty = `${JSON.stringify({ type: 'anamnesis', version: 1, model: 'unknown', dims: 0, vectors: false })}\n`;
    return {
      jsonl: empty,
      recovered: 0,
      unreadable: 0,
      problems: [`${input.length} bytes: too small to hold a store`],
    };
  }
  const pageSize = guessPageSize(input);
  if (headerPageSize(input) === undefined)
    problems.push(`the file header is damaged; read with a rebuilt header (pages of ${pageSize})`);
  let image = withRepairedHeader(input, pageSize);
  if (image.length % pageSize !== 0) {
    problems.push(`the file is truncated (${image.length} bytes, pages of ${pageSize})`);
    const padded = new Uint8Array(Math.ceil(image.length / pageSize) * pageSize);
    padded.set(image);
    image = padded;
  }
  if (image === input) image = input.slice(); // the caller's bytes are never touched
  const sqlite3 = await loadSqlite();

  let db: WasmDatabase | undefined;
  try {
    db = importDatabase(sqlite3, image);
    db.exec('PRAGMA query_only = 1');
    db.selectValue('SELECT count(*) FROM sqlite_master');
  } catch (e) {
    problems.push(`SQLite cannot read the schema: ${e instanceof Error ? e.message : String(e)}`);
    db?.close();
    db = undefined;
  }

  const rows = new Map<number, MemoryRow>();
  const links: [number, number, string, number][] = [];
  const usage: [number, string, number][] = [];
  /** The pinned memories' rids, where the store has pins and they are readable. */
  let pins: readonly number[] = [];
  let model = 'unknown';
  let dims = 0;
  let expected: Set<number> | undefined;
  let lostBySql = 0;
  let corruptRows = 0;
  try {
    if (db) {
      const d = db;
      const stored = firstAnswer([
        () => d.selectValue("SELECT value FROM meta WHERE key = 'model'"),
      ]);
      if (typeof stored === 'string') model = stored;
      dims = Number(
        firstAnswer([() => d.selectValue("SELECT value FROM meta WHERE key = 'dims'")]) ?? 0,
      );
      // Which rows exist: any index over the memories table lists their rids.
      expected = firstAnswer(
        [
          'SELECT rid FROM memories INDEXED BY memories_created',
          'SELECT rid FROM memories INDEXED BY memories_hash',
          'SELECT rid FROM memories INDEXED BY memories_session',
        ].map((sql) => () => new Set(d.selectArrays(sql).map((r) => r[0] as number))),
      );
      if (!expected) problems.push('no index of the memories table is readable');
      // Probes are bounded by what the file can hold, and, where an index lists the rows, spent
      // only on ranges holding a listed row.
      const budget = 2 * Math.ceil(image.length / MIN_ROW_BYTES);
      const listed = expected ? [...expected].sort((a, b) => a - b) : undefined;
      const wanted = listed ? (a: number, b: number) => countIn(listed, a, b) > 0 : undefined;
      const max =
        firstAnswer([() => Number(d.selectValue('SELECT max(rid) FROM memories') ?? 0)]) ??
        listed?.at(-1) ??
        0;
      const failed = readRanges(
        d,
        `SELECT ${STORED_MEMORY_COLUMNS} FROM memories m WHERE m.rid BETWEEN ?1 AND ?2`,
        1,
        max,
        (r) => {
          const row = checkedRow(r);
          if (row) rows.set(row.rid, row);
          else corruptRows++;
        },
        budget,
        wanted,
      );
      if (listed) {
        lostBySql =
          failed.keys.filter((rid) => expected!.has(rid)).length +
          failed.ranges.reduce((n, [a, b]) => n + countIn(listed, a, b), 0);
        if (lostBySql > 0) problems.push(`${lostBySql} memories sit on pages SQL cannot read`);
      } else if (failed.keys.length + failed.ranges.length > 0) {
        problems.push(
          'some memories sit on pages SQL cannot read (how many is unknown without an index)',
        );
      }
      const linkFailed = readRanges(
        d,
        'SELECT src, dst, kind, weight FROM links WHERE src BETWEEN ?1 AND ?2',
        1,
        max,
        (r) => links.push(r as [number, number, string, number]),
        budget,
        wanted,
      );
      if (linkFailed.keys.length + linkFailed.ranges.length > 0)
        problems.push('some links sit on pages SQL cannot read');
      const maxUsage =
        firstAnswer([() => Number(d.selectValue('SELECT max(rowid) FROM usage') ?? 0)]) ?? 0;
      const usageFailed = readRanges(
        d,
        'SELECT rid, event, at FROM usage WHERE rowid BETWEEN ?1 AND ?2',
        1,
        maxUsage,
        (r) => usage.push(r as [number, string, number]),
        budget,
      );
      if (usageFailed.keys.length + usageFailed.ranges.length > 0)
        problems.push('some usage events sit on unreadable pages');
      pins = firstAnswer([() => d.selectValues('SELECT rid FROM pins') as number[]]) ?? [];
    }
  } finally {
    db?.close();
  }

  // Rows SQL could not reach: straight from the leaf pages (never from freed pages, and only rids
  // an index still lists, so forgotten memories stay forgotten).
  const freed = freelistPages(input, pageSize);
  const scan = scanTableLeaves(image, pageSize, freed);
  let fromPages = 0;
  for (const raw of scan.rows) {
    const v = raw.values;
    if (v.length !== 13 || v[0] !== null || typeof v[1] !== 'string' || typeof v[2] !== 'string')
      continue;
    if (rows.has(raw.rowid) || (expected && !expected.has(raw.rowid))) continue;
    const row = checkedRow([raw.rowid, ...v.slice(1)]);
    if (!row) continue;
    rows.set(raw.rowid, row);
    fromPages++;
  }
  if (fromPages > 0) problems.push(`${fromPages} memories were read from leaf pages directly`);
  if (corruptRows > 0) problems.push(`${corruptRows} memories had damaged fields and were skipped`);

  // The salvage, written into a fresh in-memory store and exported in the engine's format.
  const out = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    migrate(asDatabase(out), 'memory');
    const ordered = [...rows.values()].sort((a, b) => a.rid - b.rid);
    const ids = new Set<string>();
    const unique = ordered.filter((r) => !ids.has(r.id) && ids.add(r.id));
    for (const rid of pins) {
      const row = rows.get(rid);
      if (row) row.pinned = true;
    }
    out.exec('BEGIN');
    const rids = insertMemories(asDatabase(out), unique);
    const map = new Map(unique.map((r, i) => [r.rid, rids[i]!]));
    let droppedLinks = 0;
    for (const [src, dst, kind, weight] of links) {
      if (!map.has(src) || !map.has(dst) || !validLink(kind, weight)) {
        droppedLinks++;
        continue;
      }
      out.exec({
        sql: 'INSERT OR IGNORE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
        bind: [map.get(src)!, map.get(dst)!, kind, weight],
      });
    }
    for (const [rid, event, at] of usage) {
      if (!map.has(rid) || !EVENTS.has(event) || !Number.isFinite(at)) continue;
      out.exec({
        sql: 'INSERT INTO usage(rid, event, at) VALUES (?,?,?)',
        bind: [map.get(rid)!, event, at],
      });
    }
    out.exec('COMMIT');
    if (droppedLinks > 0) problems.push(`${droppedLinks} links lost an end and were dropped`);
    const known = expected ? expected.size : unique.length + lostBySql + corruptRows;
    return {
      jsonl: exportJsonl(asDatabase(out), { id: model, dims }, {}),
      recovered: unique.length,
      unreadable: Math.max(0, known - unique.length),
      problems,
    };
  } finally {
    out.close();
  }
}
