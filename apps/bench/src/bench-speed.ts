/**
 * `pnpm bench:speed -- [--n 1000,10000,100000] [--json] [--quick] [--html FILE]`: anamnesis's speed in headless
 * Chromium (the system `/usr/bin/chromium`, the e2e flags, a persistent profile per N so OPFS and
 * the HTTP cache persist across pages), through `openMemory` (the real worker and OPFS store), on
 * the deterministic synthetic corpus of `corpus.ts`. For each N:
 *
 * - ingest: `rememberMany` in batches of 2,500, memories/s;
 * - recall p50/p95: profile `default`, `noCache`, distinct queries; cached p50: one query repeated
 *   (round trip page → worker → page; `performance.now()` is coarsened to 0.1 ms in a page);
 * - cold open: a new page (new renderer, new worker) on the persisted store, from navigation start
 *   to the first recall answered, median of a few loads; first recall: the same loads, from the
 *   worker's start (`openMemory`) to the first recall answered; early recall: the same with
 *   `connectMemory` and a recall at once, answered from the lexical legs while the model loads;
 * - memory: RSS of that page's renderer process after the cold open (page + worker JS heaps, the
 *   wasm memories of SQLite and ONNX Runtime, Blink, and the pages of Chromium's binary it shares
 *   with every other process), and its private footprint (`RssAnon + VmSwap`: what Chromium's task
 *   manager reports, nothing shared), from /proc; apart: the page's JS heap, and
 *   the engine's own figures (SQLite-WASM's memory, the vector index); once per run, the renderer
 *   of a page holding an empty in-memory store on TF-IDF and on the default model (their
 *   difference is the model and its runtime: ONNX Runtime for an ONNX model, the JS tables for the
 *   static default);
 * - in the same page on the worker's own vectors (exported): Orama 3 insert/s and hybrid search
 *   p50/p95, and `scan_ms`, one plain JS pass of dot products over the N vectors (median).
 *
 * With `--json` the last line printed is one JSON object; `--html FILE` also writes the charts as
 * one self-contained HTML file. Exits non-zero on any error; targets are only reported.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { anamnesis } from '@anamnesis/client/vite';
import type { BrowserContext, Page } from '@playwright/test';
import { build, preview, type InlineConfig } from 'vite';

import { launchProfile } from '../../../e2e/chromium.ts';
import type { BenchWindow } from '../browser/main.ts';
import { logSlope, writeReport, type ChartSpec } from './html-report.ts';
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
  },
});
const sizes = (values.n ?? (values.quick ? '1000' : '1000,10000')).split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error('--n: integers ≥ 10');
const plan = values.quick
  ? { queries: 50, warm: 5, cachedReps: 200, searches: 50, loads: 2 }
  : { queries: 300, warm: 20, cachedReps: 1000, searches: 100, loads: 3 };

const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Builds `browser/` with the client's Vite plugin and serves it on a free port. */
async function serve() {
  const root = fileURLToPath(new URL('../browser/', import.meta.url));
  const config: InlineConfig = {
    root,
    configFile: false,
    appType: 'mpa',
    logLevel: 'error',
    plugins: [anamnesis()],
    worker: { format: 'es' },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      chunkSizeWarningLimit: 8192,
    },
  };
  await build(config);
  const server = await preview({ ...config, preview: { port: 0, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the preview server has no local URL');
  return { server, url };
}

async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(path);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 600_000 });
  return page;
}

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
    await page.evaluate(() => window.bench.clearOpfs());
    const made = await page.evaluate(([n, q]) => window.bench.corpus(n, q), [
      n,
      plan.queries,
    ] as const);
    const ingest = await page.evaluate((b) => window.bench.ingest('bench', b), BATCH);
    if (ingest.backend !== 'opfs') throw new Error(`the store is on ${ingest.backend}, not OPFS`);
    if (ingest.memories !== n) throw new Error(`stored ${ingest.memories} of ${n} memories`);
    const uncached = await page.evaluate((w) => window.bench.recallUncached(w), plan.warm);
    const sqliteAfterRecallsMb = await page.evaluate(() => window.bench.sqliteMb());
    const cached = await page.evaluate((r) => window.bench.recallCached(r), plan.cachedReps);
    const base = await page.evaluate((s) => window.bench.baselines(s), plan.searches);
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
    const early: { firstRecallMs: number; partial: boolean }[] = [];
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
      queries: made.queries,
      early,
      device: ingest.device,
      backend: ingest.backend,
      ingestMs: ingest.ms,
      uncached,
      sqliteAfterRecallsMb,
      cached,
      base,
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

function summarize(m: Measured) {
  const median = (pick: (l: Measured['loads'][number]) => number) =>
    quantile(m.loads.map(pick), 0.5);
  const last = m.loads.at(-1)!;
  const mb = (x: number | null) => (x === null ? null : round(x, 1));
  return {
    n: m.n,
    ingest_per_s: Math.round(m.n / (m.ingestMs / 1000)),
    recall_p50_ms: round(quantile(m.uncached, 0.5)),
    recall_p95_ms: round(quantile(m.uncached, 0.95)),
    cached_p50_ms: round(quantile(m.cached, 0.5)),
    cold_open_ms: Math.round(median((l) => l.coldOpenMs)),
    first_recall_ms: Math.round(median((l) => l.firstRecallMs)),
    early_recall_ms: Math.round(
      quantile(
        m.early.map((e) => e.firstRecallMs),
        0.5,
      ),
    ),
    early_partial: m.early.filter((e) => e.partial).length,
    // The worker's open step by step (`info.timings`), medians of the loads.
    open_steps_ms: {
      open: Math.round(median((l) => l.openMs)),
      sqlite: Math.round(median((l) => l.timings.sqliteMs)),
      storage: Math.round(median((l) => l.timings.storageMs)),
      schema: Math.round(median((l) => l.timings.schemaMs)),
      dedup: Math.round(median((l) => l.timings.loadMs)),
      vectors: Math.round(median((l) => l.timings.vectorsMs ?? 0)),
    },
    memory_mb: m.renderer ? Math.round(m.renderer.rssMb) : null,
    memory: {
      renderer_mb: mb(m.renderer?.rssMb ?? null),
      private_mb: mb(m.renderer?.privateMb ?? null),
      page_heap_mb: mb(last.heapMb),
      sqlite_wasm_mb: mb(last.sqliteWasmMb),
      sqlite_after_recalls_mb: mb(m.sqliteAfterRecallsMb),
      vectors_mb: mb(last.vectorsMb),
    },
    orama: {
      insert_per_s: Math.round(m.n / (m.base.insertMs / 1000)),
      search_p50_ms: round(quantile(m.base.search, 0.5)),
      search_p95_ms: round(quantile(m.base.search, 0.95)),
    },
    limit: { scan_ms: round(quantile(m.base.scan, 0.5)) },
  };
}

async function main(): Promise<void> {
  const { server, url } = await serve();
  const measured: Measured[] = [];
  let empty: Awaited<ReturnType<typeof measureEmpty>>;
  try {
    if (!values.json) console.error('measuring empty stores…');
    empty = await measureEmpty(url);
    for (const n of sizes) {
      if (!values.json) console.error(`measuring n=${n}…`);
      measured.push(await run(url, n));
    }
  } finally {
    await server.close();
  }
  const runs = measured.map(summarize);
  const first = measured[0]!;
  console.log(
    `anamnesis in headless Chromium (${first.device}, ${first.backend}), ${plan.queries} queries` +
      `${values.quick ? ' (--quick)' : ''}; Orama 3.1.18 and the scan on the worker's vectors`,
  );
  const header = [
    'N',
    'ingest/s',
    'recall p50',
    'recall p95',
    'cached p50',
    'cold open',
    'first recall',
    'renderer MB',
    'private MB',
    'page heap MB',
    'sqlite MB',
    'vectors MB',
    'orama ins/s',
    'orama p50',
    'orama p95',
    'scan',
  ];
  const rows = runs.map((r) => [
    String(r.n),
    String(r.ingest_per_s),
    `${r.recall_p50_ms} ms`,
    `${r.recall_p95_ms} ms`,
    `${r.cached_p50_ms} ms`,
    `${r.cold_open_ms} ms`,
    `${r.first_recall_ms} ms`,
    String(r.memory_mb ?? 'n/a'),
    String(r.memory.private_mb ?? 'n/a'),
    String(r.memory.page_heap_mb ?? 'n/a'),
    String(r.memory.sqlite_wasm_mb),
    String(r.memory.vectors_mb ?? 'n/a'),
    String(r.orama.insert_per_s),
    `${r.orama.search_p50_ms} ms`,
    `${r.orama.search_p95_ms} ms`,
    `${r.limit.scan_ms} ms`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
  console.log(
    'cold open: navigation start to the first recall answered; first recall: worker start (openMemory) to it',
  );
  for (const r of runs) {
    console.log(
      `n=${r.n}: connectMemory and a recall at once: answered in ${r.early_recall_ms} ms (median of ${plan.loads}; ` +
        `${r.early_partial} of them before the model was ready, from the lexical legs)`,
    );
    const o = r.open_steps_ms;
    console.log(
      `open at n=${r.n}, ms (median): worker open ${o.open} = SQLite-WASM ${o.sqlite}, file ${o.storage}, ` +
        `schema ${o.schema}, dedup index ${o.dedup}, vectors ${o.vectors} (after the model, loaded beside), and the wait for the model`,
    );
  }
  console.log(
    'memory after a cold open and one recall: renderer RSS (page + worker heaps + wasm, and the pages of ' +
      "Chromium's binary it shares with every process), its private footprint (RssAnon + swap, as Chromium's " +
      "task manager counts it), the page JS heap, SQLite-WASM's memory (page cache included), the vector " +
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
  const last = runs.at(-1)!;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `targets: client cached round trip p50 ≤ ${TARGETS.cachedP50Ms} ms: ` +
      runs
        .map((r) => `${r.cached_p50_ms} (n=${r.n}) ${met(r.cached_p50_ms <= TARGETS.cachedP50Ms)}`)
        .join(', '),
  );
  console.log(
    `targets: engine recall p50 ≤ ${TARGETS.recallP50Ms} ms, p95 ≤ ${TARGETS.recallP95Ms} ms at ` +
      `n=${TARGETS.atN}: ` +
      (last.n >= TARGETS.atN
        ? `p50 ${last.recall_p50_ms} ${met(last.recall_p50_ms <= TARGETS.recallP50Ms)}, ` +
          `p95 ${last.recall_p95_ms} ${met(last.recall_p95_ms <= TARGETS.recallP95Ms)}`
        : `not measured (largest n=${last.n}: p50 ${last.recall_p50_ms}, p95 ${last.recall_p95_ms})`),
  );
  if (values.html) {
    writeReport(values.html, speedReport(runs, empty, `${first.device}, ${first.backend}`));
    console.log(`wrote ${values.html}`);
  }
  if (values.json) console.log(JSON.stringify({ runs, empty }));
}

/** The charts of `--html`: latency and memory against N, log axes, with growth slopes. */
function speedReport(
  runs: ReturnType<typeof summarize>[],
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
      'Uncached recall latency against N',
      'p50 (solid) and p95 (dashed), profile default; Orama 3 hybrid search and a plain JS scan of the same vectors in the same page. Slope: growth exponent on log-log axes (1 = linear in N).',
      'ms',
      [
        series('anamnesis p50', (r) => r.recall_p50_ms, '#1f77b4'),
        series('anamnesis p95', (r) => r.recall_p95_ms, '#1f77b4', true),
        series('Orama hybrid p50', (r) => r.orama.search_p50_ms, '#ff7f0e'),
        series('Orama hybrid p95', (r) => r.orama.search_p95_ms, '#ff7f0e', true),
        series('JS scan p50', (r) => r.limit.scan_ms, '#2ca02c'),
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
  const table = [
    [
      'N',
      'ingest/s',
      'recall p50 ms',
      'p95 ms',
      'Orama p50 ms',
      'scan ms',
      'cold open ms',
      'first recall ms',
      'renderer MB',
      'private MB',
    ],
    ...runs.map((r) => [
      r.n,
      r.ingest_per_s,
      r.recall_p50_ms,
      r.recall_p95_ms,
      r.orama.search_p50_ms,
      r.limit.scan_ms,
      r.cold_open_ms,
      r.first_recall_ms,
      r.memory_mb ?? 'n/a',
      r.memory.private_mb ?? 'n/a',
    ]),
  ];
  return {
    title: 'anamnesis bench:speed',
    intro: [
      `Headless Chromium (${where}), ${plan.queries} queries${values.quick ? ' (--quick)' : ''}, N = ${ns.join(', ')}; ${new Date().toISOString()}.`,
    ],
    charts,
    tables: [{ title: 'Numbers', rows: table }],
  };
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
