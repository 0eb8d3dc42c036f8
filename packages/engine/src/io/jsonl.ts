import { AnamnesisError, assertInRange } from '@anamnesis/errors';
import { norm } from '@anamnesis/ranking';
import { sha256Hex } from '../store/content-hash.ts';
import type { ProgressEvent } from '../embedding/embedder.ts';
import { dedupKey, insertMemories, ridsByIds, rowsByRid, toMemory } from '../store/store.ts';
import type { Database } from '../store/sqlite.ts';
import type { Memory } from '../types.ts';
import { MAX_TIME, validateLinks, validateRemember } from '../input/validate.ts';
import { unitVector } from '../vectors/vector-index.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import type { WritePlan } from '../writes/write-path.ts';

/** Options of `export`. */
export interface ExportOptions {
  /** Include each memory's vector (base64 float32). Default false. */
  vectors?: boolean;
}

/** Options of `import`. */
export interface ImportOptions {
  /** An id that already exists: `'error'` (`INVALID_INPUT`, nothing imported) or `'skip'`. Default `'error'`. */
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

/** One memory line of an export. */
interface MemoryLine extends Memory {
  type: 'memory';
  links: { to: string; kind: string; weight: number }[];
  usage: { event: string; at: number }[];
  vector?: string;
}

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
  const links = new Map<number, MemoryLine['links']>();
  for (const [src, to, kind, weight] of db.selectArrays(
    'SELECT l.src, d.id, l.kind, l.weight FROM links l JOIN memories d ON d.rid = l.dst ORDER BY l.src, d.id, l.kind',
  )) {
    const list = links.get(src as number) ?? [];
    list.push({ to: to as string, kind: kind as string, weight: weight as number });
    links.set(src as number, list);
  }
  const usage = new Map<number, MemoryLine['usage']>();
  for (const [rid, event, at] of db.selectArrays(
    'SELECT rid, event, at FROM usage ORDER BY rid, at, rowid',
  )) {
    const list = usage.get(rid as number) ?? [];
    list.push({ event: event as string, at: at as number });
    usage.set(rid as number, list);
  }
  const rids = db.selectArrays('SELECT rid FROM memories ORDER BY rid').map((r) => r[0] as number);
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
  jsonl.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const value = parseLine(raw, i + 1) as { type?: string } | null;
    if (value?.type === 'anamnesis') header = value as Header;
    else if (value?.type === 'memory' || (value && typeof value === 'object' && 'text' in value))
      lines.push(value as MemoryLine);
    else
      throw new AnamnesisError('INVALID_INPUT', `line ${i + 1}: expected a memory object`, {
        details: { line: i + 1 },
      });
  });
  const reuseVectors = header?.model === backend.id && header.dims === backend.dims;
  const items = lines.map((l, i) => {
    try {
      const m = validateRemember({ ...l, links: [] }, now, maxTextLength);
      const updatedAt = l.updatedAt ?? m.createdAt;
      const accessCount = l.accessCount ?? 0;
      assertInRange(updatedAt, -MAX_TIME, MAX_TIME, 'updatedAt');
      if (!Number.isSafeInteger(accessCount) || accessCount < 0)
        throw new AnamnesisError('INVALID_INPUT', 'accessCount must be a non-negative integer');
      const links = validateLinks(l.links);
      if (l.usage !== undefined && !Array.isArray(l.usage))
        throw new AnamnesisError('INVALID_INPUT', 'usage must be an array');
      const usage = (l.usage ?? []).map((u) => {
        if (
          !u ||
          !['retrieved', 'selected', 'used', 'discarded'].includes(u.event) ||
          typeof u.at !== 'number' ||
          !(Math.abs(u.at) <= MAX_TIME)
        ) {
          throw new AnamnesisError('INVALID_INPUT', 'bad usage event');
        }
        return u;
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
      return { m, id: m.id ?? '', updatedAt, accessCount, links, usage, vector };
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
  let todo: typeof items = [];
  /** Skips lines whose id is taken (or repeated); `onConflict: 'error'` refuses the import. */
  const select = (): typeof items => {
    const existing = ridsByIds(
      db,
      items.map((x) => x.id),
    );
    if (existing.size > 0 && onConflict === 'error') {
      throw new AnamnesisError('INVALID_INPUT', `id already exists: ${[...existing.keys()][0]}`);
    }
    const seen = new Set<string>();
    return items.filter((x) => {
      if (existing.has(x.id) || seen.has(x.id)) return false;
      seen.add(x.id);
      return true;
    });
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
          contentHash: hashes[i]!,
        })),
      );
      const vectors = todo.map((x) => x.vector!);
      backend.store(db, inserted, vectors);
      todo.forEach((x, i) => {
        for (const u of x.usage) {
          db.exec({
            sql: 'INSERT INTO usage(rid, event, at) VALUES (?,?,?)',
            bind: [inserted[i]!, u.event, u.at],
          });
        }
      });
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
