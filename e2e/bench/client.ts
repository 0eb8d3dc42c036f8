/**
 * Speed of `@anamnesis/client` in headless Chromium (a persistent profile, so files are cached
 * as for a returning user):
 *
 *   pnpm --filter @anamnesis/e2e bench:client [-- --n 10000] [--trips 3000] [--json]
 *
 * - round trip of a cached `recall` through Comlink (page → worker → page), p50/p90/p99, on a
 *   store of 1,000 memories (target p50 ≤ 0.5 ms);
 * - page load to first recall on a store of `--n` memories (default 10,000; built once, then
 *   the page is loaded again and again): from navigation start to the first `recall` resolved,
 *   with worker start, model load and store open in between (target ≤ 1 s), median of 5 loads.
 *
 * With `--json` the last line printed is one JSON object. Not a test: it only reports.
 */
import { parseArgs } from 'node:util';

import type { Page } from '@playwright/test';

import type { AutoRecall, ClientPageApi, Outcome } from '../harness/src/client-page.ts';
import { isForeign } from '../fixtures.ts';
import { median, quantile, rng, startHarness } from './common.ts';
import { launchProfile } from '../chromium.ts';
import { PROBES } from '../tests/probes.ts';

const TARGET_ROUND_TRIP_P50_MS = 0.5;
const TARGET_LOAD_TO_RECALL_MS = 1000;
const LOADS = 5;

/** `n` distinct short texts of 6–20 words from the probe set's vocabulary. */
function texts(n: number, seed: number): { text: string }[] {
  const words = [...new Set(PROBES.join(' ').split(' '))];
  const random = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const len = 6 + Math.floor(random() * 15);
    const body = Array.from({ length: len }, () => words[Math.floor(random() * words.length)]);
    return { text: `${body.join(' ')} (${i})` };
  });
}

type W = { client: ClientPageApi; autoRecall?: AutoRecall };

function call<K extends keyof ClientPageApi>(
  page: Page,
  method: K,
  ...args: Parameters<ClientPageApi[K]>
): Promise<Awaited<ReturnType<ClientPageApi[K]>>> {
  return page.evaluate(
    ([m, a]) =>
      ((window as unknown as W).client as unknown as Record<string, (...x: unknown[]) => unknown>)[
        m as string
      ]!(...(a as unknown[])),
    [method, args] as const,
  ) as Promise<Awaited<ReturnType<ClientPageApi[K]>>>;
}

function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

async function measure(baseURL: string, n: number, trips: number) {
  const profile = await launchProfile('anamnesis-bench-client-', { baseURL });
  const { context } = profile;
  const foreign: string[] = [];
  context.on('request', (request) => {
    if (isForeign(request.url(), new URL(baseURL).origin)) foreign.push(request.url());
  });
  try {
    const page = await context.newPage();
    await page.goto('/client.html');
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await call(page, 'clearOpfs');

    // Round trips of a cached recall.
    ok(await call(page, 'open', 'rt', { name: 'bench-rt' }));
    ok(await call(page, 'call', 'rt', 'rememberMany', [texts(1000, 1)]));
    const times = (await call(page, 'roundTrips', 'rt', 'kitten on the sofa', trips)).sort(
      (a, b) => a - b,
    );
    ok(await call(page, 'close', 'rt'));

    // A store of n memories, built once.
    const buildStart = performance.now();
    ok(await call(page, 'open', 'big', { name: 'bench-big', timeoutMs: 300_000 }));
    const all = texts(n, 2);
    for (let i = 0; i < all.length; i += 2500) {
      ok(await call(page, 'call', 'big', 'rememberMany', [all.slice(i, i + 2500)]));
    }
    const stats = ok(await call(page, 'call', 'big', 'stats', [])) as {
      memories: number;
      bytes: number;
    };
    ok(await call(page, 'close', 'big'));
    const buildMs = performance.now() - buildStart;

    // Page loads to the first recall.
    const loads: AutoRecall[] = [];
    for (let i = 0; i < LOADS + 1; i++) {
      await page.goto(
        `/client.html?autoRecall=bench-big&q=${encodeURIComponent('dinner recipes')}`,
      );
      await page.waitForFunction(() => (window as unknown as W).autoRecall !== undefined, null, {
        timeout: 60_000,
      });
      loads.push((await page.evaluate(() => (window as unknown as W).autoRecall))!);
    }
    if (foreign.length > 0) throw new Error(`requests to other origins: ${foreign.join(', ')}`);
    return { times, stats, buildMs, loads };
  } finally {
    await profile.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      n: { type: 'string', default: '10000' },
      trips: { type: 'string', default: '3000' },
      json: { type: 'boolean', default: false },
    },
  });
  const n = Number(values.n);
  const trips = Number(values.trips);
  if (!Number.isInteger(n) || n < 1) throw new Error('--n must be a positive integer');
  if (!Number.isInteger(trips) || trips < 10) throw new Error('--trips must be an integer ≥ 10');

  const { server, url } = await startHarness();
  let m: Awaited<ReturnType<typeof measure>>;
  try {
    m = await measure(url, n, trips);
  } finally {
    await server.close();
  }
  const warm = m.loads.slice(1); // the first load after building also pays for the build's leftovers
  const p = (q: number) => quantile(m.times, q);
  const summary = {
    roundTrip: { trips, p50Ms: p(0.5), p90Ms: p(0.9), p99Ms: p(0.99), store: 1000 },
    loadToFirstRecall: {
      memories: m.stats.memories,
      storeBytes: m.stats.bytes,
      buildMs: Math.round(m.buildMs),
      firstLoadMs: Math.round(m.loads[0]!.firstRecallMs),
      medianMs: Math.round(median(warm.map((l) => l.firstRecallMs))),
      medianScriptStartMs: Math.round(median(warm.map((l) => l.scriptMs))),
      medianOpenedMs: Math.round(median(warm.map((l) => l.openedMs))),
      medianWorkerOpenMs: Math.round(median(warm.map((l) => l.info.openMs))),
      medianModelMs: Math.round(median(warm.map((l) => l.info.timings.modelMs))),
      medianStoreMs: Math.round(median(warm.map((l) => l.info.timings.storeMs))),
      loads: warm.map((l) => Math.round(l.firstRecallMs)),
      device: warm[0]!.info.device,
      backend: warm[0]!.info.backend,
    },
    targets: {
      roundTripP50Ms: {
        target: TARGET_ROUND_TRIP_P50_MS,
        value: Number(p(0.5).toFixed(3)),
        met: p(0.5) <= TARGET_ROUND_TRIP_P50_MS,
      },
      loadToFirstRecallMs: {
        target: TARGET_LOAD_TO_RECALL_MS,
        value: Math.round(median(warm.map((l) => l.firstRecallMs))),
        met: median(warm.map((l) => l.firstRecallMs)) <= TARGET_LOAD_TO_RECALL_MS,
      },
    },
  };
  const r = summary.roundTrip;
  const l = summary.loadToFirstRecall;
  console.log(`@anamnesis/client in headless Chromium (${l.device}, ${l.backend})`);
  console.log(
    `cached recall round trip through Comlink, ${trips} calls: p50 ${r.p50Ms.toFixed(3)} ms, ` +
      `p90 ${r.p90Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms`,
  );
  console.log(
    `page load to first recall, ${l.memories} memories (${(l.storeBytes / 1e6).toFixed(1)} MB, ` +
      `built in ${(l.buildMs / 1000).toFixed(1)} s): median ${l.medianMs} ms of ${l.loads.join(', ')} ` +
      `(first load ${l.firstLoadMs} ms); script start ${l.medianScriptStartMs} ms, ` +
      `openMemory resolved ${l.medianOpenedMs} ms (in the worker: model ${l.medianModelMs} ms, ` +
      `store ${l.medianStoreMs} ms)`,
  );
  const { roundTripP50Ms: t1, loadToFirstRecallMs: t2 } = summary.targets;
  console.log(
    `target round trip p50 ≤ ${t1.target} ms: ${t1.value} ${t1.met ? 'met' : 'MISSED'}; ` +
      `target load to first recall ≤ ${t2.target} ms: ${t2.value} ${t2.met ? 'met' : 'MISSED'}`,
  );
  if (values.json) console.log(JSON.stringify(summary));
}

await main();
