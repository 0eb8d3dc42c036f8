/**
 * `pnpm bench:speed -- [--n 1000,10000,100000] [--json] [--quick]`: anamnesis's speed in headless
 * Chromium (the system `/usr/bin/chromium`, the e2e flags, a persistent profile per N so OPFS and
 * the HTTP cache persist across pages), through `openMemory` (the real worker and OPFS store), on
 * the deterministic synthetic corpus of `corpus.ts`. For each N:
 *
 * - ingest: `rememberMany` in batches of 2,500, memories/s;
 * - recall p50/p95: profile `default`, `noCache`, distinct queries; cached p50: one query repeated
 *   (round trip page → worker → page; `performance.now()` is coarsened to 0.1 ms in a page);
 * - cold open: a new page (new renderer, new worker) on the persisted store, from navigation start
 *   to the first recall answered, median of a few loads;
 * - memory: RSS of that page's renderer process after the cold open (page + worker JS heaps, the
 *   wasm memories of SQLite and ONNX Runtime, Blink), from /proc; the page's JS heap apart;
 * - in the same page on the worker's own vectors (exported): Orama 3 insert/s and hybrid search
 *   p50/p95, and `scan_ms`, one plain JS pass of dot products over the N vectors (median).
 *
 * With `--json` the last line printed is one JSON object. Exits non-zero on any error; targets are
 * only reported.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { anamnesis } from '@anamnesis/client/vite';
import type { BrowserContext, Page } from '@playwright/test';
import { build, preview, type InlineConfig } from 'vite';

import { launchProfile } from '../../../e2e/chromium.ts';
import type { BenchWindow } from '../browser/main.ts';
import { rendererPids, rendererRssMb } from './renderer-memory.ts';

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
    const cached = await page.evaluate((r) => window.bench.recallCached(r), plan.cachedReps);
    const base = await page.evaluate((s) => window.bench.baselines(s), plan.searches);
    await closePage(page, profile.dir);

    const loads: { firstRecallMs: number; openMs: number; heapMb: number | null }[] = [];
    let rssMb: number | null = null;
    for (let i = 0; i < plan.loads; i++) {
      page = await openPage(context, `/?cold=bench&q=${encodeURIComponent(`cold open ${i}`)}`);
      await page.waitForFunction(() => window.cold !== undefined, null, { timeout: 300_000 });
      const cold = (await page.evaluate(() => window.cold))!;
      if ('error' in cold) throw new Error(`cold open: ${cold.error}`);
      loads.push(cold);
      rssMb = rendererRssMb(profile.dir);
      await closePage(page, profile.dir);
    }
    return {
      n,
      queries: made.queries,
      device: ingest.device,
      backend: ingest.backend,
      ingestMs: ingest.ms,
      uncached,
      cached,
      base,
      loads,
      rssMb,
    };
  } finally {
    await profile.close();
  }
}

type Measured = Awaited<ReturnType<typeof run>>;

function summarize(m: Measured) {
  const coldOpen = quantile(
    m.loads.map((l) => l.firstRecallMs),
    0.5,
  );
  return {
    n: m.n,
    ingest_per_s: Math.round(m.n / (m.ingestMs / 1000)),
    recall_p50_ms: round(quantile(m.uncached, 0.5)),
    recall_p95_ms: round(quantile(m.uncached, 0.95)),
    cached_p50_ms: round(quantile(m.cached, 0.5)),
    cold_open_ms: Math.round(coldOpen),
    memory_mb: m.rssMb === null ? null : Math.round(m.rssMb),
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
  try {
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
    'renderer MB',
    'page heap MB',
    'orama ins/s',
    'orama p50',
    'orama p95',
    'scan',
  ];
  const rows = runs.map((r, i) => [
    String(r.n),
    String(r.ingest_per_s),
    `${r.recall_p50_ms} ms`,
    `${r.recall_p95_ms} ms`,
    `${r.cached_p50_ms} ms`,
    `${r.cold_open_ms} ms`,
    String(r.memory_mb ?? 'n/a'),
    String(round(measured[i]!.loads.at(-1)!.heapMb ?? NaN, 1)),
    String(r.orama.insert_per_s),
    `${r.orama.search_p50_ms} ms`,
    `${r.orama.search_p95_ms} ms`,
    `${r.limit.scan_ms} ms`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
  console.log(
    'memory: renderer RSS (page + worker heaps + wasm) and page JS heap after a cold open and one recall',
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
  if (values.json) console.log(JSON.stringify({ runs }));
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
