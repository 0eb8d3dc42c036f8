/**
 * The in-worker side of `pnpm bench:speed`: a dedicated module worker (started by `main.ts`) that
 * times every system on the same side of the worker boundary, with the same queries, warm-up and
 * sample size, and the query's embedding inside every timing:
 *
 * - anamnesis: the engine itself (`createEngine` on the store the page ingested, the default model
 *   as the client loads it), `recall` with profile `default` and `noCache`: warm (distinct queries
 *   after the warm-up; what recalls keep between calls is kept) and cold (each a query never asked
 *   before, after a change to the store, which empties what the engine keeps, see {@link recallCold});
 * - Orama 3 hybrid search on the engine's own vectors (exported), at Orama's default similarity
 *   floor (0.8) and at `similarity: -1` (no floor, the most work), the query embedded by the same
 *   embedder first;
 * - a plain JS scan of dot products over the same vectors, the query embedded first.
 *
 * Apart, for `pnpm bench:embed -- --browser`: `embedCost`, the cost of one model on the wasm path
 * (single queries and batches of memories), in a worker of its own.
 *
 * Messages: `{ id, call, args }` in, `{ id, value }` or `{ id, error }` out.
 */
import {
  createEngine,
  createModelEmbedder,
  unitVector,
  type Embedder,
  type Engine,
} from '@anamnesis/engine';
import { MODEL_ID } from '@anamnesis/model-default';
import { mulberry32 } from '@anamnesis/ranking';
import type { AnyOrama } from '@orama/orama';

import { oramaIndex, oramaSearch, type OramaSimilarity } from '../src/orama-index.ts';
import { timeEach } from './time-each.ts';

let engine: Engine | undefined;
let embedder: Embedder | undefined;
let orama: AnyOrama | undefined;
let matrix: Float32Array | undefined;
let dims = 0;

/** The query sets, the same for every system. */
export interface QuerySets {
  /** Asked first by every system, never timed. */
  warmup: string[];
  /** Timed, each asked once. */
  samples: string[];
  /** anamnesis cold recalls: asked nowhere else. */
  cold: string[];
}

/**
 * Counts and times every OPFS call made until `stop()`: the file-system handles' methods and the
 * sync access handles' (an async call is timed until it settles; calls in parallel overlap, so
 * their sum can exceed the wall time). What the store's open spends in the browser's storage.
 */
function traceOpfs() {
  const g = globalThis as unknown as Record<
    string,
    { prototype: Record<string, unknown> } | undefined
  >;
  const spent: Record<string, { calls: number; ms: number }> = {};
  const undo: (() => void)[] = [];
  const wrap = (type: string, method: string) => {
    const proto = g[type]?.prototype;
    const original = proto?.[method];
    if (!proto || typeof original !== 'function') return;
    const key = `${type.replace(/^FileSystem|Handle$/g, '')}.${method}`;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      const add = () => {
        const s = (spent[key] ??= { calls: 0, ms: 0 });
        s.calls++;
        s.ms += performance.now() - start;
      };
      const out = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (out instanceof Promise) out.then(add, add);
      else add();
      return out;
    };
    undo.push(() => (proto[method] = original));
  };
  wrap('StorageManager', 'getDirectory');
  for (const m of ['getDirectoryHandle', 'getFileHandle', 'removeEntry'])
    wrap('FileSystemDirectoryHandle', m);
  wrap('FileSystemFileHandle', 'createSyncAccessHandle');
  for (const m of ['read', 'write', 'truncate', 'flush', 'getSize', 'close'])
    wrap('FileSystemSyncAccessHandle', m);
  return {
    stop() {
      for (const u of undo) u();
      return Object.fromEntries(
        Object.entries(spent).map(([k, v]) => [
          k,
          { calls: v.calls, ms: Math.round(v.ms * 10) / 10 },
        ]),
      );
    },
  };
}

const decode = (base64: string) =>
  new Float32Array(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer);

const calls = {
  /**
   * Opens the store as the client's worker does (the default model on wasm, OPFS), the model
   * first: the store's open then has the thread to itself, and its OPFS calls are traced.
   */
  async open(name: string) {
    const start = performance.now();
    embedder = await createModelEmbedder({
      model: MODEL_ID,
      localModelPath: new URL('/models/', location.origin).href,
      device: 'wasm',
    });
    const modelMs = performance.now() - start;
    const trace = traceOpfs();
    const storeStart = performance.now();
    let opfs: ReturnType<typeof trace.stop>;
    try {
      engine = await createEngine({ name, storage: 'opfs', embedder });
    } finally {
      opfs = trace.stop();
    }
    const storeMs = performance.now() - storeStart;
    const stats = await engine.stats();
    return {
      backend: stats.backend,
      memories: stats.memories,
      modelMs,
      storeMs,
      openMs: performance.now() - start,
      timings: engine.openTimings,
      opfs,
    };
  },

  /** Exports the engine's vectors into Orama (timed: the insert) and into a plain matrix. */
  async index() {
    const docs: { id: string; text: string; embedding: Float32Array }[] = [];
    for (const line of (await engine!.export({ vectors: true })).split('\n')) {
      if (!line) continue;
      const row = JSON.parse(line) as { type: string; id: string; text: string; vector?: string };
      if (row.type !== 'memory') continue;
      if (!row.vector) throw new Error('the export has no vectors');
      docs.push({ id: row.id, text: row.text, embedding: decode(row.vector) });
    }
    dims = docs[0]!.embedding.length;
    const start = performance.now();
    orama = await oramaIndex(dims, docs);
    const insertMs = performance.now() - start;
    matrix = new Float32Array(docs.length * dims);
    docs.forEach((d, i) => matrix!.set(d.embedding, i * dims));
    return { insertMs, docs: docs.length, dims };
  },

  /**
   * Above the bench's `--peers-max`: no Orama (its index of a million documents does not fit a
   * worker, and the export it is built from passes V8's longest string), and the JS scan over a
   * matrix of the same size of seeded random unit vectors (a scan's time does not depend on the
   * values).
   */
  async randomMatrix(n: number) {
    dims = embedder!.dims;
    matrix = new Float32Array(n * dims);
    const random = mulberry32(0x9e3779b9);
    for (let off = 0; off < matrix.length; off += dims) {
      const row = new Float32Array(dims);
      for (let k = 0; k < dims; k++) row[k] = random() - 0.5;
      matrix.set(unitVector(row), off);
    }
    return { insertMs: null, docs: n, dims };
  },

  /** anamnesis warm: the warm-up, then each sample once. */
  async recallWarm(sets: QuerySets) {
    const recall = (q: string) => engine!.recall(q, { profile: 'default', noCache: true });
    await timeEach(sets.warmup, recall);
    return timeEach(sets.samples, recall);
  },

  /**
   * anamnesis cold: each query never asked before (so no cached result and no cached query
   * vector), `noCache`, and before each, untimed, a memory remembered and forgotten: a change to the
   * store, after which the engine keeps nothing of what recalls read before (rows, speakers,
   * session neighbours, the lexical legs' counts and phrase matches; the tests in
   * `recall-memo.test.ts` hold it to that), the store itself as it was. SQLite's page cache stays
   * as warm as the recalls before left it.
   */
  async recallCold(sets: QuerySets) {
    const times: number[] = [];
    for (const q of sets.cold) {
      await engine!.forget(await engine!.remember({ text: `a change before cold recall ${q}` }));
      const start = performance.now();
      await engine!.recall(q, { profile: 'default', noCache: true });
      times.push(performance.now() - start);
    }
    return times;
  },

  /**
   * Orama hybrid search at a similarity floor, the query embedded first (inside the timing). A
   * search that throws is reported, not timed: Orama 3's hybrid search at similarity -1 over 100k
   * documents overflows a dedicated worker's stack (`RangeError: Maximum call stack size
   * exceeded`; a page's main thread has a larger one).
   */
  async orama(
    sets: QuerySets,
    similarity: OramaSimilarity,
  ): Promise<{ times: number[]; error?: string }> {
    const search = async (q: string) => {
      const [v] = await embedder!.embed([q]);
      return oramaSearch(orama!, 'hybrid', q, v!, 10, similarity);
    };
    try {
      await timeEach(sets.warmup, search);
      return { times: await timeEach(sets.samples, search) };
    } catch (e) {
      return { times: [], error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
  },

  /** The floor of any exact vector search: embed, then one pass of dot products over N vectors. */
  async scan(sets: QuerySets) {
    const m = matrix!;
    const n = m.length / dims;
    const scores = new Float32Array(n);
    const scan = async (q: string) => {
      const [v] = await embedder!.embed([q]);
      for (let i = 0, off = 0; i < n; i++, off += dims) {
        let s = 0;
        for (let k = 0; k < dims; k++) s += m[off + k]! * v![k]!;
        scores[i] = s;
      }
    };
    await timeEach(sets.warmup, scan);
    return timeEach(sets.samples, scan);
  },

  /**
   * The cost of model `model` (under the URL path `models`, which serves `<model id>/…`) as an app's
   * worker runs it on `'wasm'`: `createModelEmbedder` with the client's settings for a page that is
   * not cross-origin isolated (the plain ONNX Runtime build from `/ort/`, one thread; a static
   * model runs in plain JavaScript and loads neither). Times `embed([q])` for each of `queries`
   * after `warmup` (ms per call), then, after one untimed batch, `memories` embedded in batches of
   * `batch`, `runs` times (ms per run). Disposes the embedder.
   */
  async embedCost(job: {
    model: string;
    models: string;
    warmup: string[];
    queries: string[];
    memories: string[];
    batch: number;
    runs: number;
  }) {
    const ort = new URL('/ort/', location.origin).href;
    const start = performance.now();
    const e = await createModelEmbedder({
      model: job.model,
      localModelPath: new URL(job.models, location.origin).href,
      device: 'wasm',
      wasmPaths: {
        mjs: `${ort}ort-wasm-simd-threaded.mjs`,
        wasm: `${ort}ort-wasm-simd-threaded.wasm`,
      },
      threads: 1,
    });
    const loadMs = performance.now() - start;
    try {
      const one = (q: string) => e.embed([q]);
      await timeEach(job.warmup, one);
      const perQuery = await timeEach(job.queries, one);
      await e.embed(job.memories.slice(0, job.batch));
      const perRun: number[] = [];
      for (let r = 0; r < job.runs; r++) {
        const runStart = performance.now();
        for (let i = 0; i < job.memories.length; i += job.batch)
          await e.embed(job.memories.slice(i, i + job.batch));
        perRun.push(performance.now() - runStart);
      }
      return {
        id: e.id,
        dims: e.dims,
        device: e.device,
        runtime: e.runtime ?? null,
        selection: e.selection ?? null,
        loadMs,
        perQuery,
        perRun,
        crossOriginIsolated,
      };
    } finally {
      await e.dispose?.();
    }
  },

  async close() {
    await engine?.close();
    await embedder?.dispose?.();
    engine = undefined;
    orama = undefined;
    matrix = undefined;
  },
};

/** What the page may ask the worker. */
export type EngineWorkerCalls = typeof calls;

addEventListener(
  'message',
  (event: MessageEvent<{ id: number; call: string; args: unknown[] }>) => {
    const { id, call, args } = event.data;
    const fn = (calls as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[call];
    Promise.resolve()
      .then(() => {
        if (!fn || !Object.hasOwn(calls, call)) throw new Error(`no call ${call}`);
        return fn(...args);
      })
      .then(
        (value) => postMessage({ id, value }),
        (e: unknown) => postMessage({ id, error: e instanceof Error ? e.message : String(e) }),
      );
  },
);
