/**
 * The page of `pnpm bench:speed` (driven by `src/bench-speed.ts` through Playwright). It exposes
 * `window.bench`: build the synthetic corpus and its query sets, ingest it through `openMemory`
 * (the real worker and OPFS store), time recalls through the client (a round trip page → worker →
 * page), then close the client and time every system inside one dedicated worker
 * (`engine-worker.ts`): the engine itself, Orama 3 at two similarity floors and a plain JS scan, on
 * the same vectors and queries. With `?cold=<store>&q=<query>` (and `&pass=<passphrase>` for an
 * encrypted store) it opens that store at script start
 * and records in `window.cold` the time to the first recall answered, from navigation start and
 * from the start of the worker (`openMemory`), and what memory the engine and the page hold then.
 * With `?empty=model|tfidf` it opens an empty in-memory store on the default model or on TF-IDF (no
 * ONNX Runtime), for the renderer's memory before any memory is stored. With `?early=<store>&q=`
 * it opens with `connectMemory` and recalls at once: answered from the lexical legs when the model
 * is not ready yet (`partial`); the store then opens before the model starts loading, so its open
 * steps are the store's alone. For `pnpm bench:embed -- --browser`, `bench.embedCost` times one
 * model's embedding in a dedicated worker of its own (`engine-worker.ts`'s `embedCost`).
 */
import {
  connectMemory,
  openMemory,
  type MemoryClient,
  type RecallStageTimes,
} from '@anamnesis/client';
import { MODEL_ID } from '@anamnesis/model-default';
import { contentWords, makeCorpus, makeNamedQueries, noteFacts, ZipfWords } from '../src/corpus.ts';
import type { EngineWorkerCalls, QuerySets } from './engine-worker.ts';
import { timeEach } from './time-each.ts';

const TOKENIZER_URL = `/models/${MODEL_ID}/tokenizer.json`;
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
  /** Opens that found the store's files still held by the previous page's worker. */
  lockRetries: number;
  heapMb: number | null;
  /** The engine's own figures (`stats().memory`), in MB. */
  sqliteWasmMb: number;
  vectorsMb: number | null;
  /** The first recall's engine time per stage (`stats().recallStages`: it is the only recall). */
  firstStages: RecallStageTimes;
}

/** Chromium's `performance.memory` (precise with `--enable-precise-memory-info`). */
function heapMb(): number | null {
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? memory.usedJSHeapSize / 1e6 : null;
}

/** The dedicated bench worker, one call at a time. */
function engineWorker() {
  const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' });
  let next = 0;
  const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  worker.addEventListener(
    'message',
    (e: MessageEvent<{ id: number; value?: unknown; error?: string }>) => {
      const w = waiting.get(e.data.id)!;
      waiting.delete(e.data.id);
      if (e.data.error !== undefined) w.fail(new Error(e.data.error));
      else w.ok(e.data.value);
    },
  );
  worker.addEventListener('error', (e) => {
    for (const w of waiting.values()) w.fail(new Error(`engine worker: ${e.message}`));
    waiting.clear();
  });
  const call = <K extends keyof EngineWorkerCalls>(
    name: K,
    ...args: Parameters<EngineWorkerCalls[K]>
  ) =>
    new Promise<Awaited<ReturnType<EngineWorkerCalls[K]>>>((ok, fail) => {
      const id = next++;
      waiting.set(id, { ok: ok as (v: unknown) => void, fail });
      worker.postMessage({ id, call: name, args });
    });
  return { call, terminate: () => worker.terminate() };
}

let texts: string[] = [];
let sets: QuerySets = { warmup: [], samples: [], cold: [] };
let memory: MemoryClient | undefined;

const bench = {
  /**
   * Builds the corpus and distinct queries naming people, months and days (deterministic), split
   * into the warm-up, the samples and the cold queries (no query in two sets).
   */
  async corpus(n: number, plan: { warm: number; queries: number; cold: number }) {
    const tokenizer = (await (await fetch(TOKENIZER_URL)).json()) as {
      model: { vocab: Record<string, number> };
    };
    const words = new ZipfWords(contentWords(tokenizer.model.vocab));
    texts = makeCorpus(n, words);
    const all = makeNamedQueries(texts, words, plan.warm + plan.queries + plan.cold);
    sets = {
      warmup: all.slice(0, plan.warm),
      samples: all.slice(plan.warm, plan.warm + plan.queries),
      cold: all.slice(plan.warm + plan.queries),
    };
    return {
      texts: texts.length,
      warmup: sets.warmup.length,
      samples: sets.samples.length,
      cold: sets.cold.length,
    };
  },

  /** Deletes everything in the origin's OPFS. */
  async clearOpfs(): Promise<void> {
    const root = await navigator.storage.getDirectory();
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys())
      await root.removeEntry(name, { recursive: true });
  },

  /**
   * Opens store `name` (encrypted under `passphrase` when given) and remembers the corpus in
   * batches (each note with its date and speaker, see `noteFacts`); returns the time of the
   * batches and the store's size.
   */
  async ingest(name: string, batch: number, passphrase?: string) {
    memory = await openMemory({
      name,
      ...OPEN,
      ...(passphrase === undefined ? {} : { encryption: { passphrase } }),
    });
    const start = performance.now();
    for (let i = 0; i < texts.length; i += batch) {
      await memory.rememberMany(
        texts.slice(i, i + batch).map((text, j) => ({
          text,
          session: `s${(i + j) % 500}`,
          allowDuplicate: true,
          ...noteFacts(text, i + j, texts.length),
        })),
      );
    }
    const ms = performance.now() - start;
    const stats = await memory.stats();
    return {
      ms,
      memories: stats.memories,
      device: memory.info.device,
      backend: memory.info.backend,
      encrypted: stats.encrypted,
      bytes: stats.bytes,
    };
  },

  /**
   * Waits until the store opened by `ingest` is at rest: the work the engine does behind the
   * writes once quiet (the lexical indexes' merge, `stats().lexicalMerge`) done, as for a store
   * filled earlier and searched now. Each check is a call, which the merge waits two quiet
   * seconds after: checked every three. Returns the ms waited.
   */
  async atRest(): Promise<number> {
    const start = performance.now();
    while ((await memory!.stats()).lexicalMerge.due) await new Promise((r) => setTimeout(r, 3000));
    return performance.now() - start;
  },

  /** Closes the store opened by `ingest`. */
  async close(): Promise<void> {
    await memory?.close();
    memory = undefined;
  },

  /** The engine's time per recall stage since open (`stats().recallStages`). */
  async stages(): Promise<RecallStageTimes> {
    return (await memory!.stats()).recallStages;
  },

  /** Client round trips, warm: recalls (`default`, `noCache`) of the warm-up, then the samples timed. */
  async recallWarm(): Promise<number[]> {
    const m = memory!;
    const recall = (q: string) => m.recall(q, { profile: 'default', noCache: true });
    await timeEach(sets.warmup, recall);
    return timeEach(sets.samples, recall);
  },

  /**
   * Client round trips, cold: as the engine worker's `recallCold` (untimed, a memory remembered
   * and forgotten first: a change to the store, after which the engine keeps nothing of what
   * recalls read).
   */
  async recallCold(): Promise<number[]> {
    const m = memory!;
    const times: number[] = [];
    for (const q of sets.cold) {
      await m.forget(await m.remember({ text: `a change before cold recall ${q}` }));
      const start = performance.now();
      await m.recall(q, { profile: 'default', noCache: true });
      times.push(performance.now() - start);
    }
    return times;
  },

  /** SQLite-WASM's memory in MB now (its page cache grows with what recalls have read). */
  async sqliteMb(): Promise<number> {
    return (await memory!.stats()).memory.sqliteWasm / 1e6;
  },

  /** One query recalled `reps` times (the first answer is cached, the rest are cache hits). */
  async recallCached(reps: number): Promise<number[]> {
    const m = memory!;
    const q = sets.samples[0]!;
    await m.recall(q, { profile: 'default' });
    return timeEach(
      Array.from({ length: reps }, () => q),
      (x) => m.recall(x, { profile: 'default' }),
    );
  },

  /**
   * Closes the client, then times every system in one dedicated worker on store `name` (see
   * `engine-worker.ts`): the same queries, warm-up and samples; the query's embedding in every
   * timing. Without `peers`, Orama is not run and the JS scan runs over random vectors of the
   * same size (`randomMatrix`).
   */
  async inWorker(name: string, peers = true) {
    await memory?.close();
    memory = undefined;
    const w = engineWorker();
    try {
      const opened = await w.call('open', name);
      const warm = await w.call('recallWarm', sets);
      const cold = await w.call('recallCold', sets);
      const skipped = { times: [] as number[], error: 'not run (above --peers-max)' };
      const index = peers ? await w.call('index') : await w.call('randomMatrix', opened.memories);
      const oramaDefault = peers ? await w.call('orama', sets, 'default') : skipped;
      const oramaAll = peers ? await w.call('orama', sets, -1) : skipped;
      const scan = await w.call('scan', sets);
      await w.call('close');
      return { opened, warm, cold, index, oramaDefault, oramaAll, scan };
    } finally {
      w.terminate();
    }
  },

  /** One model's embedding cost on the wasm path, in a fresh dedicated worker (see `embedCost`). */
  async embedCost(job: Parameters<EngineWorkerCalls['embedCost']>[0]) {
    const w = engineWorker();
    try {
      return await w.call('embedCost', job);
    } finally {
      w.terminate();
    }
  },

  heapMb,
};

/** What the page exposes, for the runner's `page.evaluate` callbacks. */
export type BenchWindow = Window & {
  bench: typeof bench;
  cold?: Cold | { error: string };
  /** `?early=`: `connectMemory`, then a recall at once: its time from the worker's start, and whether the model was still loading. */
  early?:
    | { firstRecallMs: number; partial: boolean; timings: MemoryClient['info']['timings'] }
    | { error: string };
  empty?: { heapMb: number | null } | { error: string };
};
const w = window as unknown as BenchWindow;
w.bench = bench;

const params = new URLSearchParams(location.search);
const coldStore = params.get('cold');
if (coldStore) {
  try {
    const start = performance.now();
    const passphrase = params.get('pass');
    const m = await openMemory({
      name: coldStore,
      ...OPEN,
      ...(passphrase === null ? {} : { encryption: { passphrase } }),
    });
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
      lockRetries: m.info.lockRetries,
      heapMb: heapMb(),
      sqliteWasmMb: stats.memory.sqliteWasm / 1e6,
      vectorsMb: stats.memory.vectors === undefined ? null : stats.memory.vectors / 1e6,
      firstStages: stats.recallStages,
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
    await m.ready;
    w.early = { firstRecallMs: answered - start, partial, timings: m.info.timings };
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
