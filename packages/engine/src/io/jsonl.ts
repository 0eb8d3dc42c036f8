import { AnamnesisError } from '@anamnesis/errors';
import { norm } from '@anamnesis/ranking';
import { sha256Hex } from '../store/content-hash.ts';
import type { ProgressEvent } from '../embedding/embedder.ts';
import { dedupKey, insertMemories, ridsByIds, rowsByRid, toMemory } from '../store/store.ts';
import type { Database } from '../store/database.ts';
import type { Memory } from '../types.ts';
import { MAX_TIME, validateLinks, validateRemember, validateTime } from '../input/validate.ts';
import { unitVector } from '../vectors/vector-index.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import type { WritePlan } from '../writes/write-path.ts';
import { foldEvents, type FoldedUsage } from '@anamnesis/ranking';
import {
  IMPORTED_EVENTS_PER_MEMORY,
  writeFolded,
  type UsageEventRow,
} from '../store/usage-fold.ts';

/** Options of `export`. */
export interface ExportOptions {
  /** Include each memory's vector (base64 float32). Default false. */
  vectors?: boolean;
  /** Only these memories (ids not in the store are left out). Default: every memory. */
  ids?: readonly string[];
}

/**
 * Options of `import`. Whatever they say, one id on two lines of the same import is
 * `INVALID_INPUT` and nothing is imported (`details.id`, `details.lines`: the two lines): which of
 * the two memories is meant cannot be told, and keeping one would drop the other unsaid.
 */
export interface ImportOptions {
  /**
   * An id that already exists in the store: `'error'` (`INVALID_INPUT`, nothing imported) or
   * `'skip'` (that line is left out, the store's memory kept). Default `'error'`.
   */
  onConflict?: 'error' | 'skip';
  /** Progress while embedding. */
  onProgress?: (event: ProgressEvent) => void;
}

/** The first line of an export. */
interface Header {
  type: 'anamnesis';
  version: 1;
  model: string;
  dims: number;
  vectors: boolean;
}

/** One memory line of an export (`pinned` absent in an export of a version without pinning). */
interface MemoryLine extends Omit<Memory, 'pinned'> {
  pinned?: boolean;
  type: 'memory';
  links: { to: string; kind: string; weight: number }[];
  /** Usage events not folded yet (those of the last week, `USAGE_EVENT_WINDOW_MS`), oldest first. */
  usage: { event: string; at: number }[];
  /** Older usage events, folded: per kind, how many and their decayed sum (absent: none). */
  usageFolded?: FoldedUsage[];
  vector?: string;
}

const EVENT_KINDS = ['retrieved', 'selected', 'used', 'discarded'];

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Exports the store as JSON Lines; vectors are the stored bytes, so a round trip is byte-identical. */
export function exportJsonl(
  db: Database,
  backend: Pick<SimilarityBackend, 'id' | 'dims'>,
  options: ExportOptions,
): string {
  const withVectors = options.vectors === true;
  const header: Header = {
    type: 'anamnesis',
    version: 1,
    model: backend.id,
    dims: backend.dims,
    vectors: withVectors,
  };
  const lines = [JSON.stringify(header)];
  if (options.ids !== undefined && !Array.isArray(options.ids))
    throw new AnamnesisError('INVALID_INPUT', 'export ids must be an array of ids');
  // The rows exported, and the condition that keeps each table's reads to them.
  const scope = options.ids
    ? {
        sql: 'IN (SELECT rid FROM memories WHERE id IN (SELECT value FROM json_each(?)))',
        bind: [JSON.stringify(options.ids)],
      }
    : { sql: 'IS NOT NULL', bind: [] };
  const links = new Map<number, MemoryLine['links']>();
  for (const [src, to, kind, weight] of db.selectArrays(
    `SELECT l.src, d.id, l.kind, l.weight FROM links l JOIN memories d ON d.rid = l.dst WHERE l.src ${scope.sql} ORDER BY l.src, d.id, l.kind`,
    scope.bind,
  )) {
    const list = links.get(src as number) ?? [];
    list.push({ to: to as string, kind: kind as string, weight: weight as number });
    links.set(src as number, list);
  }
  const usage = new Map<number, MemoryLine['usage']>();
  for (const [rid, event, at] of db.selectArrays(
    `SELECT rid, event, at FROM usage WHERE rid ${scope.sql} ORDER BY rid, at, rowid`,
    scope.bind,
  )) {
    const list = usage.get(rid as number) ?? [];
    list.push({ event: event as string, at: at as number });
    usage.set(rid as number, list);
  }
  const folded = new Map<number, FoldedUsage[]>();
  for (const [rid, event, count, decayed, at] of db.selectArrays(
    `SELECT rid, event, count, decayed, at FROM usage_folded WHERE rid ${scope.sql} ORDER BY rid, event`,
    scope.bind,
  )) {
    const list = folded.get(rid as number) ?? [];
    list.push({
      event: event as string,
      count: count as number,
      decayed: decayed as number,
      at: at as number,
    });
    folded.set(rid as number, list);
  }
  const rids = db
    .selectArrays(`SELECT rid FROM memories WHERE rid ${scope.sql} ORDER BY rid`, scope.bind)
    .map((r) => r[0] as number);
  for (let start = 0; start < rids.length; start += 1000) {
    const chunk = rids.slice(start, start + 1000);
    const rows = rowsByRid(db, chunk);
    const blobs = new Map<number, Uint8Array>();
    if (withVectors) {
      for (const [rid, blob] of db.selectArrays(
        'SELECT rid, vector FROM embeddings WHERE model = ? AND rid IN (SELECT value FROM json_each(?))',
        [backend.id, JSON.stringify(chunk)],
      )) {
        blobs.set(rid as number, blob as Uint8Array);
      }
    }
    for (const rid of chunk) {
      const row = rows.get(rid)!;
      const line: MemoryLine = {
        type: 'memory',
        ...toMemory(row),
        links: links.get(rid) ?? [],
        usage: usage.get(rid) ?? [],
      };
      const old = folded.get(rid);
      if (old) line.usageFolded = old;
      const blob = blobs.get(rid);
      if (blob) line.vector = toBase64(blob);
      lines.push(JSON.stringify(line));
    }
  }
  return lines.join('\n') + '\n';
}

/** What an import changed, for the engine to update its in-memory state. */
export interface ImportResult {
  added: number;
  /** Ids of the memories added, in row order. */
  ids: string[];
  /** Rows added, with their texts and vectors (for the similarity backend). */
  rids: number[];
  texts: string[];
  vectors: Float32Array[];
  dedupKeys: string[];
}

function parseLine(text: string, n: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AnamnesisError('INVALID_INPUT', `line ${n}: not JSON`, { details: { line: n } });
  }
}

/**
 * The write plan of an import (one transaction): every line is validated at once, before the plan
 * is queued (texts of at most `maxTextLength` characters, as `remember` takes); stored vectors
 * are used when the header's model and dimension match the backend,
 * otherwise texts are embedded. Id conflicts are decided in the serialised section.
 */
export function importPlan(
  db: Database,
  backend: SimilarityBackend,
  jsonl: string,
  options: ImportOptions,
  now: number,
  maxTextLength: number,
  beforeWrite: () => void = () => undefined,
): WritePlan<ImportResult> {
  if (typeof jsonl !== 'string')
    throw new AnamnesisError('INVALID_INPUT', 'import takes a JSON Lines string');
  const onConflict = options.onConflict ?? 'error';
  let header: Header | undefined;
  const lines: MemoryLine[] = [];
  /** The line number in the file of each of `lines`. */
  const lineNumbers: number[] = [];
  jsonl.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const value = parseLine(raw, i + 1) as { type?: string } | null;
    if (value?.type === 'anamnesis') header = value as Header;
    else if (value?.type === 'memory' || (value && typeof value === 'object' && 'text' in value)) {
      lines.push(value as MemoryLine);
      lineNumbers.push(i + 1);
    } else
      throw new AnamnesisError('INVALID_INPUT', `line ${i + 1}: expected a memory object`, {
        details: { line: i + 1 },
      });
  });
  const reuseVectors = header?.model === backend.id && header.dims === backend.dims;
  const items = lines.map((l, i) => {
    try {
      const m = validateRemember({ ...l, links: [] }, now, maxTextLength);
      // as `createdAt`: ms, or an ISO 8601 string
      const updatedAt =
        l.updatedAt === undefined ? m.createdAt : validateTime(l.updatedAt, 'updatedAt');
      const accessCount = l.accessCount ?? 0;
      if (!Number.isSafeInteger(accessCount) || accessCount < 0)
        throw new AnamnesisError('INVALID_INPUT', 'accessCount must be a non-negative integer');
      const links = validateLinks(l.links);
      // absent (an export of a version without pinning): not pinned
      if (l.pinned !== undefined && typeof l.pinned !== 'boolean')
        throw new AnamnesisError('INVALID_INPUT', 'pinned must be a boolean');
      const pinned = l.pinned === true;
      if (l.usage !== undefined && !Array.isArray(l.usage))
        throw new AnamnesisError('INVALID_INPUT', 'usage must be an array');
      const usage: UsageEventRow[] = [];
      for (const u of l.usage ?? []) {
        if (
          !u ||
          !EVENT_KINDS.includes(u.event) ||
          typeof u.at !== 'number' ||
          !(Math.abs(u.at) <= MAX_TIME)
        ) {
          throw new AnamnesisError('INVALID_INPUT', 'bad usage event');
        }
        usage.push({ event: u.event, at: u.at });
      }
      if (l.usageFolded !== undefined && !Array.isArray(l.usageFolded))
        throw new AnamnesisError('INVALID_INPUT', 'usageFolded must be an array');
      const usageFolded = (l.usageFolded ?? []).map((f) => {
        if (
          !f ||
          !EVENT_KINDS.includes(f.event) ||
          !Number.isSafeInteger(f.count) ||
          f.count < 1 ||
          typeof f.decayed !== 'number' ||
          !(f.decayed >= 0 && f.decayed <= f.count) ||
          typeof f.at !== 'number' ||
          !(Math.abs(f.at) <= MAX_TIME)
        )
          throw new AnamnesisError('INVALID_INPUT', 'bad folded usage');
        return { event: f.event, count: f.count, decayed: f.decayed, at: f.at };
      });
      let vector: Float32Array | undefined;
      if (reuseVectors && typeof l.vector === 'string') {
        let bytes: Uint8Array;
        try {
          bytes = fromBase64(l.vector);
        } catch (cause) {
          throw new AnamnesisError('INVALID_INPUT', 'vector is not base64', { cause });
        }
        if (bytes.length !== backend.dims * 4)
          throw new AnamnesisError(
            'DIMENSION_MISMATCH',
            `vector has ${bytes.length / 4} dimensions`,
          );
        vector = new Float32Array(bytes.buffer, bytes.byteOffset, backend.dims);
        if (!vector.every(Number.isFinite))
          throw new AnamnesisError('INVALID_INPUT', 'vector has non-finite values');
        // Stored bytes are kept verbatim (a round trip stays byte-identical) unless not unit length.
        if (Math.abs(norm(vector) - 1) > 1e-3) vector = unitVector(vector);
      }
      return {
        m,
        id: m.id ?? '',
        updatedAt,
        accessCount,
        pinned,
        links,
        usage,
        usageFolded,
        vector,
      };
    } catch (e) {
      if (e instanceof AnamnesisError)
        throw new AnamnesisError(e.code, `memory ${i + 1}: ${e.message}`, {
          cause: e,
          details: { index: i },
        });
      throw e;
    }
  });
  if (items.some((x) => x.id === ''))
    throw new AnamnesisError('INVALID_INPUT', 'every imported memory needs an id');
  assertUniqueIds(
    items.map((x) => x.id),
    lineNumbers,
  );
  let todo: typeof items = [];
  /** Skips lines whose id is taken in the store; `onConflict: 'error'` refuses the import. */
  const select = (): typeof items => {
    const existing = ridsByIds(
      db,
      items.map((x) => x.id),
    );
    if (existing.size > 0 && onConflict === 'error') {
      throw new AnamnesisError('INVALID_INPUT', `id already exists: ${[...existing.keys()][0]}`);
    }
    return items.filter((x) => !existing.has(x.id));
  };
  return {
    what: 'importing',
    kind: 'import',
    ids: (r) => r.ids,
    encode: async () => {
      todo = select();
      const missing = todo.filter((x) => !x.vector);
      for (let start = 0; start < missing.length; start += 256) {
        const batch = missing.slice(start, start + 256);
        const vectors = await backend.encode(batch.map((x) => x.m.text));
        batch.forEach((x, i) => (x.vector = vectors[i]!));
        options.onProgress?.({
          phase: 'import',
          loaded: Math.min(start + 256, missing.length),
          total: missing.length,
        });
      }
    },
    changed: (result) => result.added > 0,
    // Another process wrote since `encode` chose the lines to add: chosen again, under the lock.
    stale: () => {
      const again = select();
      return again.length !== todo.length || again.some((x, i) => x !== todo[i]);
    },
    tx: () => {
      beforeWrite();
      const hashes = todo.map((x) => sha256Hex(x.m.text));
      const inserted = insertMemories(
        db,
        todo.map((x, i) => ({
          ...x.m,
          id: x.id,
          updatedAt: x.updatedAt,
          accessCount: x.accessCount,
          pinned: x.pinned,
          contentHash: hashes[i]!,
        })),
      );
      const vectors = todo.map((x) => x.vector!);
      backend.store(db, inserted, vectors);
      todo.forEach((x, i) => writeImportedUsage(db, inserted[i]!, x.usage, x.usageFolded));
      const rids = new Map(todo.map((x, i) => [x.id, inserted[i]!]));
      const result: ImportResult = {
        added: todo.length,
        ids: todo.map((x) => x.id),
        rids: inserted,
        texts: todo.map((x) => x.m.text),
        vectors,
        dedupKeys: todo.map((x, i) => dedupKey(x.m.session, hashes[i]!)),
      };
      const targets = ridsByIds(
        db,
        todo.flatMap((x) => x.links.map((l) => l.to)),
      );
      for (const x of todo) {
        for (const l of x.links) {
          const dst = targets.get(l.to);
          if (dst === undefined)
            throw new AnamnesisError('NOT_FOUND', `link target ${l.to}`, { details: { id: l.to } });
          if (!Number.isFinite(l.weight) || l.weight <= 0)
            throw new AnamnesisError('INVALID_INPUT', 'link weight must be > 0');
          db.exec({
            sql: 'INSERT OR REPLACE INTO links(src, dst, kind, weight) VALUES (?,?,?,?)',
            bind: [rids.get(x.id)!, dst, l.kind, l.weight],
          });
        }
      }
      return result;
    },
  };
}

/**
 * Throws `INVALID_INPUT` when two lines give one id (`ids[i]` read from line `lines[i]` of the
 * file), naming the id and both lines (`details: { id, lines }`), before anything is written.
 */
function assertUniqueIds(ids: readonly string[], lines: readonly number[]): void {
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    const before = first.get(id);
    if (before !== undefined)
      throw new AnamnesisError(
        'INVALID_INPUT',
        `lines ${lines[before]} and ${lines[i]} both have the id ${JSON.stringify(id)}: an import holds each id once (nothing was imported)`,
        { details: { id, lines: [lines[before], lines[i]] } },
      );
    first.set(id, i);
  });
}

/**
 * Inside the import's transaction: one memory's usage. Its newest
 * {@link IMPORTED_EVENTS_PER_MEMORY} events are stored as events (one statement), the rest are
 * folded with the line's folded usage: a line with a million events costs one pass over them, and
 * the usage score is the same. Events are kept whatever their age, so an export imports back as it
 * was; those older than a week are folded at the store's next usage write (`foldOldUsage`).
 */
function writeImportedUsage(
  db: Database,
  rid: number,
  events: readonly UsageEventRow[],
  folded: readonly FoldedUsage[],
): void {
  // The newest events: those after the threshold time, and ties at it in line order up to the cap.
  let threshold = -Infinity;
  if (events.length > IMPORTED_EVENTS_PER_MEMORY) {
    const times = Float64Array.from(events, (u) => u.at).sort();
    threshold = times[events.length - IMPORTED_EVENTS_PER_MEMORY]!;
  }
  let above = 0;
  for (const u of events) if (u.at > threshold) above++;
  let ties = IMPORTED_EVENTS_PER_MEMORY - above;
  const kept: UsageEventRow[] = [];
  const old: UsageEventRow[] = [];
  for (const u of events) {
    if (u.at > threshold || (u.at === threshold && ties-- > 0)) kept.push(u);
    else old.push(u);
  }
  if (kept.length > 0)
    db.exec({
      sql: 'INSERT INTO usage(rid, event, at) SELECT ?, value->>0, value->>1 FROM json_each(?)',
      bind: [rid, JSON.stringify(kept.map((u) => [u.event, u.at]))],
    });
  writeFolded(db, rid, [...folded, ...foldEvents(new Map(), old).values()]);
}
