/**
 * The page of `pnpm bench:speed` (driven by `src/bench-speed.ts` through Playwright). It exposes
 * `window.bench`: build the synthetic corpus, ingest it through `openMemory` (the real worker and
 * OPFS store), time recalls, then Orama 3 and a plain JS scan on the same vectors, exported from
 * the worker. With `?cold=<store>&q=<query>` it opens that store at script start and records in
 * `window.cold` the time to the first recall answered, from navigation start and from the start of
 * the worker (`openMemory`), and what memory the engine and the page hold then. With
 * `?empty=model|tfidf` it opens an empty in-memory store on the default model or on TF-IDF (no
 * ONNX Runtime), for the renderer's memory before any memory is stored. With `?early=<store>&q=` it
 * opens with `connectMemory` and recalls at once: answered from the lexical legs when the model is
 * not ready yet (`partial`).
 */
import { connectMemory, openMemory, type MemoryClient } from '@anamnesis/client';
import { contentWords, makeCorpus, makeQueries, ZipfWords } from '../src/corpus.ts';
import { oramaIndex, oramaSearch } from '../src/orama-index.ts';

const TOKENIZER_URL = '/models/anamnesis/glove-100d-sif/tokenizer.json';
const OPEN = { timeoutMs: 600_000, openTimeoutMs: 300_000 } as const;

/** What the cold page measured (`?cold=`). */
interface Cold {
  /** From navigation start to the first recall's answer. */
  coldOpenMs: number;
  /** From `openMemory` (the worker's start) to the first recall's answer. */
  firstRecallMs: number;
  openMs: number;
  /** Memories in the store it opened. */
  memories: number;
  /** The worker's open, step by step (`info.timings`). */
  timings: MemoryClient['info']['timings'];
  heapMb: number | null;
  /** The engine's own figures (`stats().memory`), in MB. */
  sqliteWasmMb: number;
  vectorsMb: number | null;
}

/** Chromium's `performance.memory` (precise with `--enable-precise-memory-info`). */
function heapMb(): number | null {
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? memory.usedJSHeapSize / 1e6 : null;
}

/** Decodes the base64 float32 vector of an export line. */
function decodeVector(base64: string): Float32Array {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}

/** Text → vector of every memory of a store, as the worker stored them (unit length). */
async function exportVectors(memory: MemoryClient): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const line of (await memory.export({ vectors: true })).split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line) as { type: string; text: string; vector?: string };
    if (row.type !== 'memory') continue;
    if (!row.vector) throw new Error('the export has no vectors');
    out.set(row.text, decodeVector(row.vector));
  }
  return out;
}

async function timeEach(items: readonly string[], fn: (q: string) => Promise<unknown>) {
  const times: number[] = [];
  for (const q of items) {
    const start = performance.now();
    await fn(q);
    times.push(performance.now() - start);
  }
  return times;
}

let texts: string[] = [];
let queries: string[] = [];
let memory: MemoryClient | undefined;

const bench = {
  /** Builds the corpus and `q` distinct queries in the page (deterministic). */
  async corpus(n: number, q: number): Promise<{ texts: number; queries: number }> {
    const tokenizer = (await (await fetch(TOKENIZER_URL)).json()) as {
      model: { vocab: Record<string, number> };
    };
    const words = new ZipfWords(contentWords(tokenizer.model.vocab));
    texts = makeCorpus(n, words);
    queries = makeQueries(texts, words, q);
    return { texts: texts.length, queries: queries.length };
  },

  /** Deletes everything in the origin's OPFS. */
  async clearOpfs(): Promise<void> {
    const root = await navigator.storage.getDirectory();
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys())
      await root.removeEntry(name, { recursive: true });
  },

  /** Opens store `name` and remembers the corpus in batches; returns the time of the batches. */
  async ingest(name: string, batch: number) {
    memory = await openMemory({ name, ...OPEN });
    const start = performance.now();
    for (let i = 0; i < texts.length; i += batch) {
      await memory.rememberMany(
        texts
          .slice(i, i + batch)
          .map((text, j) => ({ text, session: `s${(i + j) % 500}`, allowDuplicate: true })),
      );
    }
    const ms = performance.now() - start;
    const stats = await memory.stats();
    return {
      ms,
      memories: stats.memories,
      device: memory.info.device,
      backend: memory.info.backend,
    };
  },

  /** Uncached recalls (profile `default`, `noCache`) of every query, after `warm` warm-ups. */
  async recallUncached(warm: number): Promise<number[]> {
    const m = memory!;
    const recall = (q: string) => m.recall(q, { profile: 'default', noCache: true });
    await timeEach(queries.slice(0, warm), recall);
    return timeEach(queries, recall);
  },

  /** SQLite-WASM's memory in MB now (its page cache grows with what recalls have read). */
  async sqliteMb(): Promise<number> {
    return (await memory!.stats()).memory.sqliteWasm / 1e6;
  },

  /** One query recalled `reps` times (the first answer is cached, the rest are cache hits). */
  async recallCached(reps: number): Promise<number[]> {
    const m = memory!;
    const q = queries[0]!;
    await m.recall(q, { profile: 'default' });
    return timeEach(
      Array.from({ length: reps }, () => q),
      (x) => m.recall(x, { profile: 'default' }),
    );
  },

  /**
   * Orama 3 (insert of the corpus, hybrid search of `searches` queries) and a plain JS scan of the
   * same vectors: the memories' vectors exported by the worker; query vectors embedded by the same
   * worker code in a scratch store.
   */
  async baselines(searches: number) {
    const vectors = await exportVectors(memory!);
    await memory!.close();
    memory = undefined;
    const scratch = await openMemory({ name: 'bench-queries', storage: 'memory', ...OPEN });
    await scratch.rememberMany(queries.map((text) => ({ text, allowDuplicate: true })));
    const queryVectors = await exportVectors(scratch);
    await scratch.close();
    const dims = vectors.values().next().value!.length;
    const docs = texts.map((text, i) => ({ id: `m${i}`, text, embedding: vectors.get(text)! }));
    if (docs.some((d) => !d.embedding)) throw new Error('a memory has no exported vector');

    const t0 = performance.now();
    const db = await oramaIndex(dims, docs);
    const insertMs = performance.now() - t0;
    const asked = queries.slice(0, searches);
    await oramaSearch(db, 'hybrid', asked[0]!, queryVectors.get(asked[0]!)!, 10); // warm-up
    const search = await timeEach(asked, (q) =>
      oramaSearch(db, 'hybrid', q, queryVectors.get(q)!, 10),
    );

    // The floor of any exact vector search: one pass of dot products over N vectors.
    const matrix = new Float32Array(docs.length * dims);
    docs.forEach((d, i) => matrix.set(d.embedding, i * dims));
    const scores = new Float32Array(docs.length);
    const scan = async (q: string) => {
      const v = queryVectors.get(q)!;
      for (let i = 0, off = 0; i < docs.length; i++, off += dims) {
        let s = 0;
        for (let k = 0; k < dims; k++) s += matrix[off + k]! * v[k]!;
        scores[i] = s;
      }
    };
    await timeEach(asked.slice(0, 5), scan); // warm-up (JIT)
    const scanTimes = await timeEach(asked, scan);
    return { insertMs, search, scan: scanTimes, dims };
  },

  heapMb,
};

/** What the page exposes, for the runner's `page.evaluate` callbacks. */
export type BenchWindow = Window & {
  bench: typeof bench;
  cold?: Cold | { error: string };
  /** `?early=`: `connectMemory`, then a recall at once: its time from the worker's start, and whether the model was still loading. */
  early?: { firstRecallMs: number; partial: boolean } | { error: string };
  empty?: { heapMb: number | null } | { error: string };
};
const w = window as unknown as BenchWindow;
w.bench = bench;

const params = new URLSearchParams(location.search);
const coldStore = params.get('cold');
if (coldStore) {
  try {
    const start = performance.now();
    const m = await openMemory({ name: coldStore, ...OPEN });
    await m.recall(params.get('q') ?? 'dinner', { profile: 'default', noCache: true });
    const answered = performance.now(); // since navigation start
    memory = m;
    const stats = await m.stats();
    w.cold = {
      coldOpenMs: answered,
      firstRecallMs: answered - start,
      openMs: m.info.openMs,
      memories: stats.memories,
      timings: m.info.timings,
      heapMb: heapMb(),
      sqliteWasmMb: stats.memory.sqliteWasm / 1e6,
      vectorsMb: stats.memory.vectors === undefined ? null : stats.memory.vectors / 1e6,
    };
  } catch (error) {
    w.cold = { error: String(error) };
  }
}
const earlyStore = params.get('early');
if (earlyStore) {
  try {
    const start = performance.now();
    const m = connectMemory({ name: earlyStore, ...OPEN });
    await m.recall(params.get('q') ?? 'dinner', { profile: 'default', noCache: true });
    const answered = performance.now();
    const partial = !m.readiness.model;
    memory = m;
    w.early = { firstRecallMs: answered - start, partial };
  } catch (error) {
    w.early = { error: String(error) };
  }
}
const empty = params.get('empty');
if (empty) {
  try {
    memory = await openMemory({
      name: 'bench-empty',
      storage: 'memory',
      ...(empty === 'tfidf' ? { model: 'tfidf' as const } : {}),
      ...OPEN,
    });
    w.empty = { heapMb: heapMb() };
  } catch (error) {
    w.empty = { error: String(error) };
  }
}
document.body.dataset.ready = 'true';
