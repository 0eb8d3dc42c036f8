/**
 * `pnpm bench:speed -- [--n 1000,10000,100000] [--repeat 3] [--peers-max 100000] [--json] [--quick] [--html FILE] [--md FILE] [--docs]`:
 * anamnesis's speed in headless Chromium (the system `/usr/bin/chromium`, the e2e flags, a
 * persistent profile per run so OPFS and the HTTP cache persist across pages), on the
 * deterministic synthetic corpus of `corpus.ts` (each note with a date over two years and a
 * speaker; queries that name people, months and days, so the date leg and the speaker signal run).
 * Each N is run `--repeat` times (default 3) in this process, each run on a fresh profile; every
 * figure is the median of the runs, with their minimum and maximum. For each run:
 *
 * - ingest: `rememberMany` through `openMemory` (the real worker and OPFS store) in batches of
 *   2,500, memories/s;
 * - through the client (round trips page → worker → page; `performance.now()` is coarsened to
 *   0.1 ms in a page), query embedding included: warm recall p50/p95 (profile `default`,
 *   `noCache`, distinct queries after the same warm-up), cold recall (a query never asked before,
 *   after a call that empties the engine's per-memory memo: see `engine-worker.ts`), cached p50
 *   (one query repeated), and where the warm recalls spent their time in the engine, stage by
 *   stage (`stats().recallStages` read before and after);
 * - every system in one dedicated worker, the same warm-up and timed queries for each, the query's
 *   embedding inside every timing: the engine's recall (warm and cold), Orama 3 hybrid search on
 *   the engine's own vectors at Orama's default similarity floor (0.8) and at -1 (no floor), and
 *   a plain JS scan of dot products (above `--peers-max` memories, default 100,000, no Orama, and
 *   the scan over random unit vectors of the same size: Orama's index of a million documents does
 *   not fit a worker);
 * - cold open: a new page (new renderer, new worker) on the persisted store, from navigation start
 *   to the first recall answered, median of a few loads; first recall: the same loads, from the
 *   worker's start (`openMemory`) to the first recall answered, with the worker's open step by
 *   step; early recall: the same with `connectMemory` and a recall at once, answered from the
 *   lexical legs while the model loads (the store's open steps then without the model beside it);
 * - memory: RSS of that page's renderer process after the cold open (page + worker JS heaps, the
 *   wasm memories of SQLite and ONNX Runtime, Blink, and the pages of Chromium's binary it shares
 *   with every other process), and its private footprint (`RssAnon + VmSwap`: what Chromium's task
 *   manager reports, nothing shared), from /proc; apart: the page's JS heap, and the engine's own
 *   figures (SQLite-WASM's memory, the vector index); once per invocation, the renderer of a page
 *   holding an empty in-memory store on TF-IDF and on the default model.
 *
 * It prints where it ran: CPU, cores, Chromium's version, the filesystem the profile (and so OPFS)
 * lives on, and the load average before and after (the machine may be shared). With `--json` the
 * last line printed is one JSON object (`runs`, `empty`, `machine`); `--html FILE` also writes the
 * charts as one self-contained HTML file, `--md FILE` the tables as markdown. Exits non-zero on
 * any error; targets are only reported.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';

import type { Page } from '@playwright/test';
import type { RecallStage } from '@anamnesis/engine';

import { launchProfile } from '../../../e2e/chromium.ts';
import type { BenchWindow } from '../browser/main.ts';
import { openPage, serve } from './bench-page.ts';
import { logSlope, writeReport, type ChartSpec } from './html-report.ts';
import { ORAMA_DEFAULT_SIMILARITY } from './orama-index.ts';
import { commandLine, writeMeasurements } from './measurements.ts';
import { stageCosts } from './stage-breakdown.ts';
import { rendererMemory, rendererPids, type RendererMemory } from './renderer-memory.ts';

/** In `page.evaluate` callbacks: the benchmark page's window. */
declare const window: BenchWindow;

const TARGETS = { cachedP50Ms: 0.5, recallP50Ms: 10, recallP95Ms: 25, atN: 100_000 };
const BATCH = 2500;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string' },
    json: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    html: { type: 'string' },
    md: { type: 'string' },
    docs: { type: 'boolean', default: false },
    repeat: { type: 'string' },
    'peers-max': { type: 'string' },
  },
});
const sizes = (values.n ?? (values.quick ? '1000' : '1000,10000')).split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error('--n: integers ≥ 10');
const repeats = Number(values.repeat ?? 3);
/** Above this many memories Orama is not run, and the JS scan runs over random vectors (see `randomMatrix`). */
const peersMax = Number(values['peers-max'] ?? 100_000);
if (!Number.isInteger(peersMax) || peersMax < 0) throw new Error('--peers-max: an integer ≥ 0');
if (!Number.isInteger(repeats) || repeats < 1) throw new Error('--repeat: an integer ≥ 1');
const plan = values.quick
  ? { queries: 50, warm: 5, cold: 10, cachedReps: 200, loads: 2 }
  : { queries: 300, warm: 20, cold: 50, cachedReps: 1000, loads: 3 };

const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Closes a page and waits (≤ 10 s) for its renderer to exit, so the next one is measured alone. */
async function closePage(page: Page, profile: string): Promise<void> {
  const before = new Set(rendererPids(profile));
  await page.close();
  for (let i = 0; i < 100; i++) {
    const now = rendererPids(profile);
    if (now.filter((p) => before.has(p)).length < before.size) break;
    await sleep(100);
  }
}

async function run(baseURL: string, n: number) {
  // The e2e suite's Chromium, plus precise `performance.memory`.
  const profile = await launchProfile('anamnesis-bench-speed-', {
    baseURL,
    args: ['--enable-precise-memory-info'],
  });
  const { context } = profile;
  try {
    let page = await openPage(context, '/');
    // The full version (the user agent's is reduced to 156.0.0.0).
    const cdp = await context.newCDPSession(page);
    const { product } = (await cdp.send('Browser.getVersion')) as { product: string };
    await cdp.detach();
    await page.evaluate(() => window.bench.clearOpfs());
    const made = await page.evaluate(([n, p]) => window.bench.corpus(n, p), [n, plan] as const);
    if (made.samples !== plan.queries || made.cold !== plan.cold || made.warmup !== plan.warm)
      throw new Error(`the query sets came out short: ${JSON.stringify(made)}`);
    const ingest = await page.evaluate((b) => window.bench.ingest('bench', b), BATCH);
    if (ingest.backend !== 'opfs') throw new Error(`the store is on ${ingest.backend}, not OPFS`);
    if (ingest.memories !== n) throw new Error(`stored ${ingest.memories} of ${n} memories`);
    // timed at rest: the engine's work behind the writes (the lexical merge) done first
    const restMs = await page.evaluate(() => window.bench.atRest());
    const stagesBefore = await page.evaluate(() => window.bench.stages());
    const uncached = await page.evaluate(() => window.bench.recallWarm());
    const stages = stageCosts(stagesBefore, await page.evaluate(() => window.bench.stages()));
    const coldRecalls = await page.evaluate(() => window.bench.recallCold());
    const sqliteAfterRecallsMb = await page.evaluate(() => window.bench.sqliteMb());
    const cached = await page.evaluate((r) => window.bench.recallCached(r), plan.cachedReps);
    const worker = await page.evaluate(
      (peers) => window.bench.inWorker('bench', peers),
      n <= peersMax,
    );
    if (worker.opened.memories !== n)
      throw new Error(`the engine worker saw ${worker.opened.memories}`);
    await closePage(page, profile.dir);

    const loads: Extract<NonNullable<BenchWindow['cold']>, { coldOpenMs: number }>[] = [];
    let renderer: RendererMemory | null = null;
    for (let i = 0; i < plan.loads; i++) {
      page = await openPage(context, `/?cold=bench&q=${encodeURIComponent(`cold open ${i}`)}`);
      await page.waitForFunction(() => window.cold !== undefined, null, { timeout: 300_000 });
      const cold = (await page.evaluate(() => window.cold))!;
      if ('error' in cold) throw new Error(`cold open: ${cold.error}`);
      loads.push(cold);
      renderer = rendererMemory(profile.dir);
      await closePage(page, profile.dir);
    }
    // `connectMemory` and a recall at once: answered before the model is ready where it can be.
    const early: Extract<NonNullable<BenchWindow['early']>, { firstRecallMs: number }>[] = [];
    for (let i = 0; i < plan.loads; i++) {
      page = await openPage(context, `/?early=bench&q=${encodeURIComponent(`early open ${i}`)}`);
      await page.waitForFunction(() => window.early !== undefined, null, { timeout: 300_000 });
      const answer = (await page.evaluate(() => window.early))!;
      if ('error' in answer) throw new Error(`early open: ${answer.error}`);
      early.push(answer);
      await closePage(page, profile.dir);
    }
    return {
      n,
      browser: product,
      early,
      device: ingest.device,
      backend: ingest.backend,
      ingestMs: ingest.ms,
      restMs,
      uncached,
      stages,
      coldRecalls,
      sqliteAfterRecallsMb,
      cached,
      worker,
      loads,
      renderer,
    };
  } finally {
    await profile.close();
  }
}

/**
 * Renderer RSS (MB) of a page with no store, and of pages holding an empty in-memory store on
 * TF-IDF and on the default model: the floor a notes app or an extension pays before it stores
 * anything, and ONNX Runtime's share (model minus TF-IDF).
 */
async function measureEmpty(baseURL: string) {
  const profile = await launchProfile('anamnesis-bench-empty-', { baseURL });
  try {
    const rss: Record<string, RendererMemory | null> = {};
    for (const kind of ['blank', 'tfidf', 'model'] as const) {
      const page = await openPage(profile.context, kind === 'blank' ? '/' : `/?empty=${kind}`);
      if (kind !== 'blank') {
        await page.waitForFunction(() => window.empty !== undefined, null, { timeout: 300_000 });
        const empty = (await page.evaluate(() => window.empty))!;
        if ('error' in empty) throw new Error(`empty store (${kind}): ${empty.error}`);
      }
      await sleep(500);
      rss[kind] = rendererMemory(profile.dir);
      await closePage(page, profile.dir);
    }
    const mb = (r: RendererMemory | null | undefined) => (r ? Math.round(r.rssMb) : null);
    const own = (r: RendererMemory | null | undefined) => (r ? Math.round(r.privateMb) : null);
    return {
      blank_mb: mb(rss.blank),
      tfidf_mb: mb(rss.tfidf),
      model_mb: mb(rss.model),
      model_share_mb: rss.model && rss.tfidf ? Math.round(rss.model.rssMb - rss.tfidf.rssMb) : null,
      blank_private_mb: own(rss.blank),
      tfidf_private_mb: own(rss.tfidf),
      model_private_mb: own(rss.model),
    };
  } finally {
    await profile.close();
  }
}

type Measured = Awaited<ReturnType<typeof run>>;

const p50 = (xs: readonly number[]) => round(quantile(xs, 0.5));
const p95 = (xs: readonly number[]) => round(quantile(xs, 0.95));
/** p50 / p95 of a system that may have failed (null then). */
const p50Of = (r: { times: number[] }) => (r.times.length ? p50(r.times) : null);
const p95Of = (r: { times: number[] }) => (r.times.length ? p95(r.times) : null);

/** One run's figures (the JSON's keys: those of earlier versions kept, new ones added). */
function summarize(m: Measured) {
  const median = (pick: (l: Measured['loads'][number]) => number) =>
    quantile(m.loads.map(pick), 0.5);
  const earlyMedian = (pick: (l: Measured['early'][number]) => number) =>
    quantile(m.early.map(pick), 0.5);
  const last = m.loads.at(-1)!;
  const mb = (x: number | null) => (x === null ? null : round(x, 1));
  const w = m.worker;
  return {
    n: m.n,
    ingest_per_s: Math.round(m.n / (m.ingestMs / 1000)),
    // after the ingest, until the engine's work behind the writes was done (checked every 3 s)
    at_rest_ms: Math.round(m.restMs),
    // Client round trips (page → worker → page), query embedding included.
    recall_p50_ms: p50(m.uncached),
    recall_p95_ms: p95(m.uncached),
    // the engine's time per stage in those recalls (warm-up and timed), ms per recall
    stages_ms: Object.fromEntries(m.stages.map((c) => [c.stage, round(c.ms, 3)])),
    recall_cold_p50_ms: p50(m.coldRecalls),
    recall_cold_p95_ms: p95(m.coldRecalls),
    cached_p50_ms: p50(m.cached),
    cold_open_ms: Math.round(median((l) => l.coldOpenMs)),
    first_recall_ms: Math.round(median((l) => l.firstRecallMs)),
    early_recall_ms: Math.round(earlyMedian((e) => e.firstRecallMs)),
    early_partial: m.early.filter((e) => e.partial).length,
    // the first recall's own engine time per stage (the only recall of its worker), medians of the loads
    first_recall_stages_ms: Object.fromEntries(
      Object.keys(last.firstStages.ms).map((stage) => [
        stage,
        round(
          median((l) => l.firstStages.ms[stage as RecallStage]),
          1,
        ),
      ]),
    ),
    // The worker's open step by step (`info.timings`), medians of the loads.
    open_steps_ms: {
      open: Math.round(median((l) => l.openMs)),
      sqlite: Math.round(median((l) => l.timings.sqliteMs)),
      storage: Math.round(median((l) => l.timings.storageMs)),
      storage_pool: Math.round(median((l) => l.timings.storageSteps?.poolMs ?? 0)),
      storage_db: Math.round(median((l) => l.timings.storageSteps?.dbMs ?? 0)),
      schema: Math.round(median((l) => l.timings.schemaMs)),
      dedup: Math.round(median((l) => l.timings.loadMs)),
      vectors: Math.round(median((l) => l.timings.vectorsMs ?? 0)),
      model: Math.round(median((l) => l.timings.modelMs)),
    },
    // The same steps with `connectMemory`: the store opens before the model starts loading.
    early_open_steps_ms: {
      sqlite: Math.round(earlyMedian((e) => e.timings.sqliteMs)),
      storage: Math.round(earlyMedian((e) => e.timings.storageMs)),
      storage_pool: Math.round(earlyMedian((e) => e.timings.storageSteps?.poolMs ?? 0)),
      storage_db: Math.round(earlyMedian((e) => e.timings.storageSteps?.dbMs ?? 0)),
      schema: Math.round(earlyMedian((e) => e.timings.schemaMs)),
      dedup: Math.round(earlyMedian((e) => e.timings.loadMs)),
    },
    pool_files: last.timings.storageSteps?.poolFiles ?? null,
    lock_retries: m.loads.reduce((a, l) => a + l.lockRetries, 0),
    memory_mb: m.renderer ? Math.round(m.renderer.rssMb) : null,
    memory: {
      renderer_mb: mb(m.renderer?.rssMb ?? null),
      private_mb: mb(m.renderer?.privateMb ?? null),
      page_heap_mb: mb(last.heapMb),
      sqlite_wasm_mb: mb(last.sqliteWasmMb),
      sqlite_after_recalls_mb: mb(m.sqliteAfterRecallsMb),
      vectors_mb: mb(last.vectorsMb),
    },
    // In the bench worker, query embedding included: Orama at similarity -1 (as before).
    orama: {
      insert_per_s: w.index.insertMs === null ? null : Math.round(m.n / (w.index.insertMs / 1000)),
      search_p50_ms: p50Of(w.oramaAll),
      search_p95_ms: p95Of(w.oramaAll),
      ...(w.oramaAll.error ? { error: w.oramaAll.error } : {}),
    },
    orama_default: {
      similarity: ORAMA_DEFAULT_SIMILARITY,
      search_p50_ms: p50Of(w.oramaDefault),
      search_p95_ms: p95Of(w.oramaDefault),
      ...(w.oramaDefault.error ? { error: w.oramaDefault.error } : {}),
    },
    limit: { scan_ms: p50(w.scan) },
    /** Every system in one dedicated worker, the same queries, warm-up and samples; embedding included. */
    worker: {
      recall_p50_ms: p50(w.warm),
      recall_p95_ms: p95(w.warm),
      recall_cold_p50_ms: p50(w.cold),
      recall_cold_p95_ms: p95(w.cold),
      orama_default_p50_ms: p50Of(w.oramaDefault),
      orama_default_p95_ms: p95Of(w.oramaDefault),
      orama_all_p50_ms: p50Of(w.oramaAll),
      orama_all_p95_ms: p95Of(w.oramaAll),
      scan_p50_ms: p50(w.scan),
      open_ms: Math.round(w.opened.openMs),
    },
    /**
     * The bench worker's open of the same store, the model loaded first (so the store's steps
     * have the thread to themselves), and the OPFS calls it made: count and summed ms by method.
     */
    worker_open: {
      model_ms: round(w.opened.modelMs, 1),
      store_ms: round(w.opened.storeMs, 1),
      sqlite_ms: round(w.opened.timings.sqliteMs, 1),
      storage_ms: round(w.opened.timings.storageMs, 1),
      storage_pool_ms: round(w.opened.timings.storageSteps?.poolMs ?? 0, 1),
      storage_db_ms: round(w.opened.timings.storageSteps?.dbMs ?? 0, 1),
      schema_ms: round(w.opened.timings.schemaMs, 1),
      load_ms: round(w.opened.timings.loadMs, 1),
      opfs: w.opened.opfs,
    },
  };
}

type Summary = ReturnType<typeof summarize>;

/**
 * The runs of one N as one summary: each number the median over the runs, and `spread` its
 * minimum and maximum (by dotted key, numbers that vary only).
 */
function aggregate(runs: Summary[]): Summary & {
  repeats: number;
  spread: Record<string, [number, number]>;
} {
  const spread: Record<string, [number, number]> = {};
  const merge = (values: unknown[], path: string): unknown => {
    const first = values.find((v) => v !== null && v !== undefined) ?? values[0];
    if (typeof first === 'number') {
      const xs = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
      const h = xs.length >> 1;
      const mid = xs.length % 2 === 1 ? xs[h]! : round((xs[h - 1]! + xs[h]!) / 2);
      const lo = Math.min(...xs);
      const hi = Math.max(...xs);
      if (lo !== hi) spread[path] = [lo, hi];
      return mid;
    }
    if (first !== null && typeof first === 'object') {
      return Object.fromEntries(
        Object.keys(first).map((k) => [
          k,
          merge(
            values.map((v) => (v as Record<string, unknown>)[k]),
            path ? `${path}.${k}` : k,
          ),
        ]),
      );
    }
    return first;
  };
  const merged = merge(runs, '') as Summary;
  return { ...merged, repeats: runs.length, spread };
}

type Aggregated = ReturnType<typeof aggregate>;

/** What the numbers ran on: CPU, cores, memory, Chromium, where the profile lives. */
function machineInfo(browser: string) {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory_gb: round(os.totalmem() / 2 ** 30, 1),
    kernel: `${os.type()} ${os.release()}`,
    chromium: /Chrome\/([\d.]+)/.exec(browser)?.[1] ?? browser,
    profile_storage: profileStorage(tmpdir()),
    node: process.version,
  };
}

/**
 * The filesystem a folder is on (the browser profiles, hence OPFS, live under the temporary
 * folder): its mount point, type and device, and whether the device says it is rotational.
 */
function profileStorage(dir: string): string {
  let mounts: string[][];
  try {
    mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '));
  } catch {
    return `${dir} (filesystem unknown off Linux)`;
  }
  const path = realpathSync(dir);
  const mount = mounts
    .filter((m) => m[1] && (path === m[1] || path.startsWith(m[1] === '/' ? '/' : `${m[1]}/`)))
    .sort((a, b) => b[1]!.length - a[1]!.length)[0];
  if (!mount) return path;
  const [device, point, type] = mount;
  const block = /^\/dev\/([a-z]+)/.exec(device ?? '')?.[1];
  let disk = '';
  try {
    if (block) {
      const rotational = readFileSync(`/sys/block/${block}/queue/rotational`, 'utf8').trim();
      disk = rotational === '1' ? ', rotational' : ', not rotational';
    }
  } catch {
    // no such block device (a partition, an overlay)
  }
  return `${path} on ${point} (${type}, ${device}${disk})`;
}

const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** `a (lo–hi)` of a figure of an aggregated run, with its spread where it varied. */
function withSpread(r: Aggregated, key: string, value: number | null, unit = ''): string {
  if (value === null) return r.n > peersMax && key.includes('orama') ? 'not run' : 'failed';
  const range = r.spread[key];
  const fmt = (x: number) => `${Number.isInteger(x) ? x : round(x)}`;
  return range
    ? `${fmt(value)}${unit} (${fmt(range[0])}–${fmt(range[1])})`
    : `${fmt(value)}${unit}`;
}

/** The main table as rows of cells (header first): the terminal's and the markdown file's. */
function mainTable(runs: Aggregated[]): string[][] {
  const header = [
    'N',
    'ingest/s',
    'client warm p50',
    'client warm p95',
    'client cold p50',
    'cached p50',
    'cold open',
    'first recall',
    'renderer MB',
    'private MB',
    'sqlite MB',
    'vectors MB',
  ];
  const rows = runs.map((r) => [
    String(r.n),
    withSpread(r, 'ingest_per_s', r.ingest_per_s),
    withSpread(r, 'recall_p50_ms', r.recall_p50_ms, ' ms'),
    withSpread(r, 'recall_p95_ms', r.recall_p95_ms, ' ms'),
    withSpread(r, 'recall_cold_p50_ms', r.recall_cold_p50_ms, ' ms'),
    withSpread(r, 'cached_p50_ms', r.cached_p50_ms, ' ms'),
    withSpread(r, 'cold_open_ms', r.cold_open_ms, ' ms'),
    withSpread(r, 'first_recall_ms', r.first_recall_ms, ' ms'),
    String(r.memory_mb ?? 'n/a'),
    String(r.memory.private_mb ?? 'n/a'),
    String(r.memory.sqlite_wasm_mb),
    String(r.memory.vectors_mb ?? 'n/a'),
  ]);
  return [header, ...rows];
}

/**
 * Where the client's warm recalls spent their time in the engine, per stage: ms per recall, median
 * of the runs (min–max), and the stage's share of the stages' sum.
 */
function stageTable(runs: Aggregated[]): string[][] {
  const stages = Object.keys(runs[0]!.stages_ms);
  const rows = stages
    .filter((stage) => runs.some((r) => (r.stages_ms[stage] ?? 0) > 0))
    .map((stage) => [
      stage,
      ...runs.map((r) => {
        const total = Object.values(r.stages_ms).reduce((a, b) => a + b, 0);
        const ms = r.stages_ms[stage] ?? 0;
        return `${withSpread(r, `stages_ms.${stage}`, ms, ' ms')}, ${total > 0 ? Math.round((100 * ms) / total) : 0}%`;
      }),
    ]);
  return [['stage', ...runs.map((r) => `n=${r.n}`)], ...rows];
}

/** Every system in the bench worker: p50 / p95, median of the runs (min–max of the runs). */
function workerTable(runs: Aggregated[]): string[][] {
  const header = [
    'N',
    'anamnesis warm p50',
    'warm p95',
    'anamnesis cold p50',
    'cold p95',
    `Orama sim ${ORAMA_DEFAULT_SIMILARITY} p50`,
    'p95',
    'Orama sim -1 p50',
    'p95',
    'JS scan p50',
    'Orama ins/s',
  ];
  const rows = runs.map((r) => [
    String(r.n),
    withSpread(r, 'worker.recall_p50_ms', r.worker.recall_p50_ms, ' ms'),
    withSpread(r, 'worker.recall_p95_ms', r.worker.recall_p95_ms, ' ms'),
    withSpread(r, 'worker.recall_cold_p50_ms', r.worker.recall_cold_p50_ms, ' ms'),
    withSpread(r, 'worker.recall_cold_p95_ms', r.worker.recall_cold_p95_ms, ' ms'),
    withSpread(r, 'worker.orama_default_p50_ms', r.worker.orama_default_p50_ms, ' ms'),
    withSpread(r, 'worker.orama_default_p95_ms', r.worker.orama_default_p95_ms, ' ms'),
    withSpread(r, 'worker.orama_all_p50_ms', r.worker.orama_all_p50_ms, ' ms'),
    withSpread(r, 'worker.orama_all_p95_ms', r.worker.orama_all_p95_ms, ' ms'),
    withSpread(r, 'worker.scan_p50_ms', r.worker.scan_p50_ms, ' ms'),
    withSpread(r, 'orama.insert_per_s', r.orama.insert_per_s),
  ]);
  return [header, ...rows];
}

const printTable = (rows: string[][]) => {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  for (const row of rows) console.log(row.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
};

const markdownTable = (rows: string[][]) =>
  [
    `| ${rows[0]!.join(' | ')} |`,
    `| ${rows[0]!.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.slice(1).map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const { server, url } = await serve();
  const measured: Measured[][] = [];
  const loads: { n: number; before: string; after: string }[] = [];
  let empty: Awaited<ReturnType<typeof measureEmpty>>;
  try {
    if (!values.json) console.error(`load average ${loadBefore}; measuring empty stores…`);
    empty = await measureEmpty(url);
    for (const n of sizes) {
      const before = loadavg();
      const reps: Measured[] = [];
      for (let i = 0; i < repeats; i++) {
        if (!values.json) console.error(`measuring n=${n}, run ${i + 1} of ${repeats}…`);
        reps.push(await run(url, n));
      }
      measured.push(reps);
      loads.push({ n, before, after: loadavg() });
      // each N's figures as soon as they are in (stderr: the last line of stdout stays the JSON)
      console.error(`n=${n} done: ${JSON.stringify(aggregate(reps.map(summarize)))}`);
    }
  } finally {
    await server.close();
  }
  const loadAfter = loadavg();
  const runs = measured.map((reps) => aggregate(reps.map(summarize)));
  const first = measured[0]![0]!;
  const machine = {
    ...machineInfo(first.browser),
    load_before: loadBefore,
    load_after: loadAfter,
    load_by_n: loads,
  };
  const where =
    `${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB; Chromium ${machine.chromium} headless ` +
    `(${first.device}, ${first.backend}); profile and OPFS: ${machine.profile_storage}`;
  console.log(`machine: ${where}`);
  console.log(
    `load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}; by N: ` +
      loads.map((l) => `n=${l.n} ${l.before} → ${l.after}`).join('; ') +
      ' (a shared machine: other work ran beside this)',
  );
  console.log(
    `each N run ${repeats} times in this process (fresh browser profile each): medians of the runs, ` +
      `(min–max) where they differ; queries name people, months and days; ${plan.warm} warm-up, ` +
      `${plan.queries} timed, ${plan.cold} cold queries, no query in two sets${values.quick ? ' (--quick)' : ''}`,
  );
  console.log('\nthrough the client (page → worker → page round trip; query embedding included):');
  printTable(mainTable(runs));
  console.log(
    'warm: distinct queries, noCache, after the warm-up; cold: a query never asked before, noCache, ' +
      'after a memory remembered and forgotten (a change to the store: the engine keeps nothing of what ' +
      'recalls read before; the result cache is skipped by noCache, the query-vector cache by the new query; SQLite ' +
      'page cache kept). cold open: navigation start to the first recall answered; first recall: worker start (openMemory) to it. ' +
      'Every recall is timed on the store at rest: after the ingest the bench waits until the engine has merged the lexical indexes ' +
      `behind the writes (stats().lexicalMerge; checked every 3 s): ${runs.map((r) => `n=${r.n} ${r.at_rest_ms} ms`).join(', ')}`,
  );
  console.log(
    `\nevery system in one dedicated worker (the same ${plan.warm} warm-up and ${plan.queries} timed queries ` +
      "for each; query embedding included in every timing; Orama 3.1.18 hybrid, threshold 1, on the engine's vectors):",
  );
  printTable(workerTable(runs));
  console.log(
    "\nwhere the client's warm recalls (warm-up and timed) spent their time in the engine, per stage " +
      '(stats().recallStages; ms per recall, median of the runs, share of the stages):',
  );
  printTable(stageTable(runs));
  for (const r of runs)
    for (const [name, o] of [
      [`Orama at similarity ${ORAMA_DEFAULT_SIMILARITY}`, r.orama_default],
      ['Orama at similarity -1', r.orama],
    ] as const)
      if ('error' in o && o.error)
        console.log(
          `n=${r.n}: ${name} ${r.n > peersMax ? 'was' : 'failed in the worker:'} ${o.error}`,
        );
  for (const r of runs) {
    console.log(
      `n=${r.n}: connectMemory and a recall at once: answered in ${r.early_recall_ms} ms (median of ${plan.loads}; ` +
        `${r.early_partial} of them before the model was ready, from the lexical legs)`,
    );
    const firstStages = Object.entries(r.first_recall_stages_ms).filter(([, ms]) => ms > 0);
    const inEngine = round(
      firstStages.reduce((a, [, ms]) => a + ms, 0),
      1,
    );
    console.log(
      `n=${r.n}: the first recall after a cold open, in the engine (median of ${plan.loads}): ` +
        `${inEngine} ms of its ${r.first_recall_ms - r.open_steps_ms.open} ms after openMemory = ` +
        firstStages.map(([stage, ms]) => `${stage} ${ms}`).join(', '),
    );
    const o = r.open_steps_ms;
    const e = r.early_open_steps_ms;
    console.log(
      `open at n=${r.n}, ms (median): openMemory ${o.open} = model ${o.model} (then the store, beside it): ` +
        `SQLite-WASM ${o.sqlite}, file ${o.storage} (pool ${o.storage_pool} + database ${o.storage_db}; ` +
        `${r.pool_files ?? 'n/a'} files in the pool), schema ${o.schema}, dedup index ${o.dedup}, ` +
        `vectors ${o.vectors} (after the model); lock retries ${r.lock_retries}`,
    );
    console.log(
      `  the store alone (connectMemory: the model starts once the store is open): SQLite-WASM ${e.sqlite}, ` +
        `file ${e.storage} (pool ${e.storage_pool} + database ${e.storage_db}), schema ${e.schema}, dedup index ${e.dedup}`,
    );
    const wo = r.worker_open;
    console.log(
      `  the bench worker's open: the model alone ${wo.model_ms}, then the store ${wo.store_ms} = SQLite-WASM ${wo.sqlite_ms}, ` +
        `file ${wo.storage_ms} (pool ${wo.storage_pool_ms} + database ${wo.storage_db_ms}), schema ${wo.schema_ms}, ` +
        `dedup index and vectors ${wo.load_ms}; its OPFS calls (count, summed ms): ` +
        Object.entries(wo.opfs)
          .map(([k, v]) => `${k} ${v.calls}× ${v.ms}`)
          .join(', '),
    );
  }
  console.log(
    'memory after a cold open and one recall: renderer RSS (page + worker heaps + wasm, and the pages of ' +
      "Chromium's binary it shares with every process), its private footprint (RssAnon + swap, as Chromium's " +
      "task manager counts it), SQLite-WASM's memory (page cache included), the vector " +
      'index (float32 + int8 copy)',
  );
  console.log(
    `empty store, renderer MB: no store ${empty.blank_mb ?? 'n/a'}, TF-IDF ${empty.tfidf_mb ?? 'n/a'}, ` +
      `default model ${empty.model_mb ?? 'n/a'} (the model and its runtime: ${empty.model_share_mb ?? 'n/a'}); ` +
      `private MB: no store ${empty.blank_private_mb ?? 'n/a'}, TF-IDF ${empty.tfidf_private_mb ?? 'n/a'}, ` +
      `default model ${empty.model_private_mb ?? 'n/a'}`,
  );
  console.log(
    "SQLite-WASM's memory after the uncached recalls (its page cache, up to 64 MB, holds what they read; " +
      'a wasm memory never shrinks): ' +
      runs.map((r) => `${r.memory.sqlite_after_recalls_mb} MB (n=${r.n})`).join(', '),
  );
  // the targets are at n = TARGETS.atN: a run at another n is not held to them
  const at = runs.find((r) => r.n === TARGETS.atN);
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `targets: client cached round trip p50 ≤ ${TARGETS.cachedP50Ms} ms: ` +
      runs
        .map((r) => `${r.cached_p50_ms} (n=${r.n}) ${met(r.cached_p50_ms <= TARGETS.cachedP50Ms)}`)
        .join(', '),
  );
  console.log(
    `targets: engine recall p50 ≤ ${TARGETS.recallP50Ms} ms, p95 ≤ ${TARGETS.recallP95Ms} ms at ` +
      `n=${TARGETS.atN} (in the worker, warm): ` +
      (at
        ? `p50 ${at.worker.recall_p50_ms} ${met(at.worker.recall_p50_ms <= TARGETS.recallP50Ms)}, ` +
          `p95 ${at.worker.recall_p95_ms} ${met(at.worker.recall_p95_ms <= TARGETS.recallP95Ms)}`
        : `not measured (n=${runs.map((r) => r.n).join(', ')})`),
  );
  // the tables of --md and --docs
  const tables = [
    'Through the client (round trip, query embedding included):',
    '',
    markdownTable(mainTable(runs)),
    '',
    'Every system in one dedicated worker, the same queries, warm-up and samples, query embedding included:',
    '',
    markdownTable(workerTable(runs)),
    '',
    "Where the client's warm recalls (warm-up and timed) spent their time in the engine, per stage (`stats().recallStages`; ms per recall, median of the runs, share of the stages; a worker's clock is coarsened to 0.1 ms, so stages are sums of coarse laps):",
    '',
    markdownTable(stageTable(runs)),
  ];
  if (values.md) {
    writeFileSync(
      values.md,
      [
        `bench:speed, ${new Date().toISOString()}: ${where}.`,
        '',
        `Load average before ${loadBefore}, after ${loadAfter} (a shared machine). Each N run ${repeats} times: medians, (min–max) of the runs.`,
        '',
        ...tables,
        '',
      ].join('\n'),
    );
    console.log(`wrote ${values.md}`);
  }
  if (values.docs)
    writeMeasurements({
      id: 'speed',
      title: 'Speed in Chromium, with peers',
      command: commandLine('bench:speed'),
      browser: `Chromium ${machine.chromium} headless`,
      load: `${loadBefore} before, ${loadAfter} after`,
      body: [
        `${where}. Each N run ${repeats} times in one process: medians, (min–max) of the runs; ${plan.warm} warm-up, ${plan.queries} timed and ${plan.cold} cold queries${values.quick ? ' (--quick)' : ''}.`,
        '',
        ...tables,
      ].join('\n'),
    });
  if (values.html) {
    writeReport(values.html, speedReport(runs, empty, where));
    console.log(`wrote ${values.html}`);
  }
  if (values.json) console.log(JSON.stringify({ runs, empty, machine }));
}

/** The charts of `--html`: latency and memory against N, log axes, with growth slopes. */
function speedReport(
  runs: Aggregated[],
  empty: Awaited<ReturnType<typeof measureEmpty>>,
  where: string,
) {
  const ns = runs.map((r) => r.n);
  type Run = (typeof runs)[number];
  /** One line of a chart: a figure of every run against N, with its growth slope in the label. */
  const series = (label: string, y: (r: Run) => number | null, color: string, dash = false) => {
    const points = runs.map((r) => ({ n: r.n, y: y(r) ?? 0 }));
    const slope = logSlope(points);
    return {
      label: `${label}${slope === null ? '' : ` (slope ${slope.toFixed(2)})`}`,
      data: points.map((p) => ({ x: p.n, y: p.y })),
      borderColor: color,
      backgroundColor: color,
      borderDash: dash ? [6, 4] : [],
    };
  };
  /** A line chart against N, both axes logarithmic. */
  const chart = (
    title: string,
    note: string,
    unit: string,
    datasets: ReturnType<typeof series>[],
  ): ChartSpec => ({
    title,
    note,
    config: {
      type: 'line',
      data: { datasets },
      options: {
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'memories (N)' } },
          y: { type: 'logarithmic', title: { display: true, text: unit } },
        },
      },
    },
  });
  const charts: ChartSpec[] = [
    chart(
      'Search latency against N, every system in one worker',
      `p50 (solid) and p95 (dashed) in one dedicated worker, the same queries, warm-up and samples, the query's embedding inside every timing: anamnesis recall (profile default, warm and cold), Orama 3 hybrid search at its default similarity floor (${ORAMA_DEFAULT_SIMILARITY}) and at -1 (no floor), and a plain JS scan of the same vectors. Slope: growth exponent on log-log axes (1 = linear in N).`,
      'ms',
      [
        series('anamnesis warm p50', (r) => r.worker.recall_p50_ms, '#1f77b4'),
        series('anamnesis warm p95', (r) => r.worker.recall_p95_ms, '#1f77b4', true),
        series('anamnesis cold p50', (r) => r.worker.recall_cold_p50_ms, '#aec7e8'),
        series(
          `Orama similarity ${ORAMA_DEFAULT_SIMILARITY} p50`,
          (r) => r.worker.orama_default_p50_ms,
          '#ff7f0e',
        ),
        series(
          `Orama similarity ${ORAMA_DEFAULT_SIMILARITY} p95`,
          (r) => r.worker.orama_default_p95_ms,
          '#ff7f0e',
          true,
        ),
        series('Orama similarity -1 p50', (r) => r.worker.orama_all_p50_ms, '#d62728'),
        series('Orama similarity -1 p95', (r) => r.worker.orama_all_p95_ms, '#d62728', true),
        series('JS scan p50', (r) => r.worker.scan_p50_ms, '#2ca02c'),
      ],
    ),
    chart(
      'Client recall latency against N',
      'Round trips page → worker → page through the client: warm and cold p50 (solid), warm p95 (dashed), and a cached answer.',
      'ms',
      [
        series('warm p50', (r) => r.recall_p50_ms, '#1f77b4'),
        series('warm p95', (r) => r.recall_p95_ms, '#1f77b4', true),
        series('cold p50', (r) => r.recall_cold_p50_ms, '#aec7e8'),
        series('cached p50', (r) => r.cached_p50_ms, '#7f7f7f'),
      ],
    ),
    chart(
      'Memory against N',
      `Renderer RSS (with the pages of Chromium's binary shared with every process) and private footprint (RssAnon + swap, as Chromium's task manager counts it) after a cold open and one recall, and the parts the engine can measure. An empty store: ${empty.tfidf_mb ?? 'n/a'} MB RSS, ${empty.tfidf_private_mb ?? 'n/a'} MB private on TF-IDF; ${empty.model_mb ?? 'n/a'} / ${empty.model_private_mb ?? 'n/a'} MB on the default model (no store: ${empty.blank_mb ?? 'n/a'} / ${empty.blank_private_mb ?? 'n/a'} MB).`,
      'MB',
      [
        series('renderer RSS', (r) => r.memory.renderer_mb, '#d62728'),
        series('renderer private footprint', (r) => r.memory.private_mb, '#d62728', true),
        series('SQLite-WASM memory', (r) => r.memory.sqlite_wasm_mb, '#9467bd'),
        series('vector index', (r) => r.memory.vectors_mb, '#8c564b'),
        series('page JS heap', (r) => r.memory.page_heap_mb, '#7f7f7f'),
      ],
    ),
    chart(
      'Opening a store against N',
      'cold open: navigation start to the first recall answered; first recall: worker start to it (openMemory: the model loaded); early recall: connectMemory and a recall at once, lexical while the model loads (medians of the loads).',
      'ms',
      [
        series('cold open', (r) => r.cold_open_ms, '#17becf'),
        series('first recall', (r) => r.first_recall_ms, '#bcbd22'),
        series('early recall (connectMemory)', (r) => r.early_recall_ms, '#e377c2'),
      ],
    ),
  ];
  return {
    title: 'anamnesis bench:speed',
    intro: [
      `Headless Chromium on ${where}; N = ${ns.join(', ')}; each N run ${repeats} times (medians, min–max in the tables); ${plan.warm} warm-up, ${plan.queries} timed and ${plan.cold} cold queries${values.quick ? ' (--quick)' : ''}; ${new Date().toISOString()}.`,
    ],
    charts,
    tables: [
      { title: 'Through the client', rows: mainTable(runs) },
      { title: 'Every system in one worker', rows: workerTable(runs) },
    ],
  };
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
