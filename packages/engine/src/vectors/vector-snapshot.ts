import { int8Stride, quantize } from './int8-rows.ts';
import type { Reader } from '../store/reader.ts';
import type { Database } from '../store/database.ts';
import type { RowSource, VectorIndex } from './vector-index.ts';

/**
 * The stored vectors of one model, also kept as a few large parts (`vector_snapshot`), so an open
 * reads about forty blobs at 100k memories instead of 100k rows (and 100k quantizations).
 *
 * A part holds the vectors of consecutive rids in ascending order (`last_rid` the greatest):
 * `rids` float64, `quantized` their int8 copy as {@link quantize} computes it (the scales, the L1
 * norms, then the int8 rows, each padded to {@link int8Stride} bytes as the scan reads them), then
 * `vectors` the float32 bytes exactly as stored in `embeddings` (last in the record, so an open
 * that reads only the int8 copy never reads their pages).
 * Together the parts hold exactly the model's stored vectors of every rid up to the greatest
 * `last_rid`. Triggers keep that true in every transaction: a stored vector deleted or changed, or
 * one added at or below that rid, deletes every part. New memories get greater rids, so adding
 * memories leaves the parts valid; their vectors are read row by row until a part holds them.
 */

/** Bytes of float32 vectors per part: about 1 MB, so a part read allocates little in SQLite's heap. */
const PART_BYTES = 1 << 20;
/** Layout version of `quantized`: a part of another format is rebuilt. */
const SNAPSHOT_FORMAT = 1;

/** Vectors per part for `dims`-dimensional vectors. */
export function partRows(dims: number): number {
  return Math.max(1, Math.floor(PART_BYTES / (dims * 4)));
}

/** The parts' state: the greatest rid they cover (0: none) and whether they are all of `model`. */
export function snapshotCoverage(
  db: Database,
  model: string,
): { covered: number; usable: boolean; lastRows: number; before: number } {
  const [parts, foreign, covered] = db.selectArray(
    'SELECT count(*), coalesce(sum(model <> ? OR format <> ?), 0), coalesce(max(last_rid), 0) FROM vector_snapshot',
    [model, SNAPSHOT_FORMAT],
  ) as [number, number, number];
  if (parts === 0 || foreign > 0)
    return { covered: 0, usable: parts === 0, lastRows: 0, before: 0 };
  const [lastRows, before] = db.selectArray(
    'SELECT n_rows, coalesce((SELECT max(last_rid) FROM vector_snapshot WHERE last_rid < ?1), 0) FROM vector_snapshot WHERE last_rid = ?1',
    [covered],
  ) as [number, number];
  return { covered, usable: true, lastRows, before };
}

/**
 * Appends every part to `index` (which must be empty). With `source`, where the index keeps an
 * int8 copy, only the parts' int8 rows are read (a quarter of the bytes) and the float32 rows stay
 * on disk, read through `source` as the index needs them (`VectorIndex.appendQuantized`).
 * Returns the greatest rid covered, or `undefined` when a part does not read back as written (its
 * rows are then not trusted: the caller starts over from the rows).
 */
export function readSnapshot(
  read: Reader,
  index: VectorIndex,
  model: string,
  source?: RowSource,
): number | undefined {
  const dims = index.dims;
  const stride = int8Stride(dims);
  const lazy = source !== undefined && index.quantized;
  let covered = 0;
  let ok = true;
  read.each(
    // lazily, only the float rows' length (SQLite reads it from the record, not the blob's pages)
    lazy
      ? 'SELECT last_rid, n_rows, rids, length(vectors), quantized FROM vector_snapshot WHERE model = ? AND format = ? ORDER BY last_rid'
      : 'SELECT last_rid, n_rows, rids, vectors, quantized FROM vector_snapshot WHERE model = ? AND format = ? ORDER BY last_rid',
    [model, SNAPSHOT_FORMAT],
    (c) => {
      if (!ok) return;
      const lastRid = c.num(0);
      const n = c.num(1);
      const ridBytes = c.blob(2);
      const vectors = lazy ? undefined : c.blob(3);
      const quantized = c.blob(4);
      if (
        ridBytes.byteLength !== n * 8 ||
        (vectors ? vectors.byteLength : c.num(3)) !== n * dims * 4 ||
        quantized.byteLength !== n * (8 + stride)
      ) {
        ok = false;
        return;
      }
      const rids = new Float64Array(ridBytes.slice().buffer);
      if (rids[n - 1] !== lastRid || !(rids[0]! > covered)) {
        ok = false;
        return;
      }
      // The scales and norms copied out (a float view needs an aligned offset); the int8 rows,
      // most of the bytes, viewed where the read left them: the index copies them at once.
      const head = quantized.slice(0, n * 8);
      const rows = {
        scales: new Float32Array(head.buffer, 0, n),
        l1: new Float32Array(head.buffer, n * 4, n),
        rows: new Int8Array(quantized.buffer, quantized.byteOffset + n * 8, n * stride),
      };
      if (vectors) index.appendRows(rids, vectors, rows);
      else index.appendQuantized(rids, rows, source!);
      covered = lastRid;
    },
  );
  return ok ? covered : undefined;
}

/**
 * Inside a transaction: writes the next part, from the model's stored vectors after the parts
 * (the last part rewritten when it is not full, so parts stay large; every part deleted first
 * when `restart`). Writes nothing when fewer than a full part's vectors are waiting, unless
 * `partial`. Returns the greatest rid the parts then cover, or `undefined` when no part was
 * written.
 */
export function writeSnapshotPart(
  db: Database,
  read: Reader,
  model: string,
  dims: number,
  { partial, restart }: { partial: boolean; restart: boolean },
): number | undefined {
  const perPart = partRows(dims);
  const coverage = snapshotCoverage(db, model);
  const { usable, before } = coverage;
  let { covered, lastRows } = coverage;
  if (!usable || restart) {
    lastRows = 0;
    db.exec('DELETE FROM vector_snapshot');
    covered = 0;
  } else if (lastRows > 0 && lastRows < perPart) {
    covered = before; // the last part is re-read with what follows it
  }
  const rids: number[] = [];
  const vectors = new Uint8Array(perPart * dims * 4);
  read.each(
    'SELECT rid, vector FROM embeddings WHERE model = ? AND rid > ? ORDER BY rid LIMIT ?',
    [model, covered, perPart],
    (c) => {
      const bytes = c.blob(1);
      if (bytes.byteLength !== dims * 4) return; // a damaged row: verify() reports it
      vectors.set(bytes, rids.length * dims * 4);
      rids.push(c.num(0));
    },
  );
  const n = rids.length;
  if (
    n === 0 ||
    (n < perPart && !partial) ||
    (n === lastRows && covered === before && lastRows > 0)
  )
    return undefined;
  const f32 = new Float32Array(vectors.buffer, 0, n * dims);
  const stride = int8Stride(dims);
  const quantized = new Uint8Array(n * (8 + stride));
  const scales = new Float32Array(quantized.buffer, 0, n);
  const l1 = new Float32Array(quantized.buffer, n * 4, n);
  const rows = new Int8Array(quantized.buffer, n * 8, n * stride);
  for (let i = 0; i < n; i++) {
    const q = quantize(f32, i * dims, dims, rows, i * stride);
    scales[i] = q.scale;
    l1[i] = q.l1;
  }
  db.exec({ sql: 'DELETE FROM vector_snapshot WHERE last_rid > ?', bind: [covered] });
  db.exec({
    sql: 'INSERT INTO vector_snapshot(last_rid, model, format, n_rows, rids, vectors, quantized) VALUES (?, ?, ?, ?, ?, ?, ?)',
    bind: [
      rids[n - 1]!,
      model,
      SNAPSHOT_FORMAT,
      n,
      new Uint8Array(Float64Array.from(rids).buffer),
      vectors.subarray(0, n * dims * 4),
      quantized,
    ],
  });
  return rids[n - 1]!;
}

/** Problems found comparing every snapshot part with the stored vectors (empty: they agree). */
export function checkSnapshot(read: Reader, model: string): string[] {
  const stored = new Map<number, Uint8Array>();
  read.each('SELECT rid, vector FROM embeddings WHERE model = ?', [model], (c) =>
    stored.set(c.num(0), c.blob(1).slice()),
  );
  const problems: string[] = [];
  let covered = 0;
  let held = 0;
  read.each(
    'SELECT last_rid, n_rows, rids, vectors FROM vector_snapshot ORDER BY last_rid',
    [],
    (c) => {
      const n = c.num(1);
      const rids = new Float64Array(c.blob(2).slice().buffer);
      const vectors = c.blob(3);
      const size = n > 0 ? vectors.byteLength / n : 0;
      if (rids.length !== n || rids[n - 1] !== c.num(0)) {
        problems.push(`vector snapshot: part ${c.num(0)} does not hold the rids it names`);
        return;
      }
      rids.forEach((rid, i) => {
        const row = stored.get(rid);
        const part = vectors.subarray(i * size, (i + 1) * size);
        if (!row || row.length !== part.length || row.some((b, j) => b !== part[j]))
          problems.push(`vector snapshot: memory ${rid} differs from its stored vector`);
      });
      covered = c.num(0);
      held += n;
    },
  );
  let below = 0;
  for (const rid of stored.keys()) if (rid <= covered) below++;
  if (below !== held)
    problems.push(
      `vector snapshot: ${held} vectors in parts for ${below} stored up to rid ${covered}`,
    );
  return problems.slice(0, 10);
}
