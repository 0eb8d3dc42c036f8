/**
 * `pnpm bench:encryption -- [--n 10000,100000] [--repeats 3] [--browser] [--json]`: what
 * encryption at rest costs.
 *
 * Without `--browser`, a Node file store: the same corpus and queries on a plain store (better-sqlite3) and on an encrypted
 * one (better-sqlite3-multiple-ciphers, ChaCha20-Poly1305, scrypt key): ingest (rememberMany in
 * batches of 5,000), one `remember` at a time on the full store, open of the saved store (with the
 * key derivation), uncached recall (medians and p95 over 300 queries), file size. The plain and
 * encrypted runs alternate (`--repeats` times each, after a warm-up run of each at 2,000) so that
 * the machine's load falls on both alike; each figure is the median over the repeats. `uptime`'s
 * load is printed before, after each size, and after. The default model, as `bench:engine`.
 *
 * With `--browser`, an OPFS store in headless Chromium through `openMemory` (the bench page of
 * `bench:speed`, its corpus, queries and batches of 2,500): plain, and encrypted (SQLite3 Multiple
 * Ciphers' SQLite WASM, the key derived in the worker by `@noble/hashes`' scrypt). Each run is a
 * fresh browser profile: ingest, then 300 warm client recalls (`noCache`, after 20 untimed), the
 * store's size, then a new page that opens the saved store and recalls once (the open includes
 * the key derivation: `key_ms`). Plain and encrypted alternate as in Node.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';

import { launchProfile } from '../../../e2e/chromium.ts';
import type { BenchWindow } from '../browser/main.ts';
import { openPage, serve } from './bench-page.ts';
import { makeCorpus, makeQueries } from './corpus.ts';
import { nodeWords } from './node-corpus.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '10000' },
    repeats: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    browser: { type: 'boolean', default: false },
  },
});
const sizes = values.n.split(',').map(Number);
const embedder = values.browser
  ? undefined
  : await createModelEmbedder(await defaultEmbedderOptions());
const median = (xs: number[]) => quantile(xs, 0.5);
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** One run: a new store of `texts`, then the measures. */
async function run(texts: string[], queries: string[], passphrase: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-bench-crypt-'));
  const path = join(dir, 'bench.db');
  const options = {
    storage: 'file' as const,
    path,
    embedder,
    ...(passphrase === undefined ? {} : { encryption: { passphrase } }),
  };
  try {
    let engine = await createEngine(options);
    const t0 = performance.now();
    for (let i = 0; i < texts.length; i += 5000)
      await engine.rememberMany(
        texts
          .slice(i, i + 5000)
          .map((text, j) => ({ text, session: `s${(i + j) % 500}`, allowDuplicate: true })),
      );
    const ingestS = (performance.now() - t0) / 1000;
    await engine.close();
    const o0 = performance.now();
    engine = await createEngine(options);
    const openMs = performance.now() - o0;
    for (const q of queries.slice(0, 20)) await engine.recall(q, { noCache: true }); // warm-up
    const recall: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await engine.recall(q, { noCache: true });
      recall.push(performance.now() - s);
    }
    const single: number[] = [];
    for (let i = 0; i < 40; i++) {
      const s = performance.now();
      await engine.remember({ text: `${texts[i]} (single write ${i})`, session: 'one' });
      single.push(performance.now() - s);
    }
    await engine.close();
    return {
      ingest_s: round(ingestS),
      ingest_per_s: Math.round(texts.length / ingestS),
      open_ms: round(openMs, 0),
      recall_p50_ms: round(median(recall)),
      recall_p95_ms: round(quantile(recall, 0.95)),
      remember_one_p50_ms: round(median(single)),
      file_mb: round(statSync(path).size / 2 ** 20, 1),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In `page.evaluate` callbacks: the benchmark page's window. */
declare const window: BenchWindow;

/** One run in Chromium: a new profile, the corpus ingested into a new OPFS store, the measures. */
async function runBrowser(baseURL: string, n: number, passphrase: string | undefined) {
  const profile = await launchProfile('anamnesis-bench-crypt-', { baseURL });
  try {
    let page = await openPage(profile.context, '/');
    await page.evaluate(() => window.bench.clearOpfs());
    await page.evaluate(
      (size) => window.bench.corpus(size, { warm: 20, queries: 300, cold: 0 }),
      n,
    );
    const ingest = await page.evaluate(([p]) => window.bench.ingest('bench', 2500, p), [
      passphrase,
    ] as const);
    if (ingest.memories !== n || ingest.backend !== 'opfs' || ingest.encrypted !== !!passphrase)
      throw new Error(`the store came out wrong: ${JSON.stringify(ingest)}`);
    const recall = await page.evaluate(() => window.bench.recallWarm());
    await page.evaluate(() => window.bench.close());
    await page.close();
    const pass = passphrase === undefined ? '' : `&pass=${encodeURIComponent(passphrase)}`;
    page = await openPage(profile.context, `/?cold=bench&q=dinner${pass}`);
    await page.waitForFunction(() => window.cold !== undefined, null, { timeout: 300_000 });
    const cold = (await page.evaluate(() => window.cold))!;
    if ('error' in cold) throw new Error(`cold open: ${cold.error}`);
    return {
      ingest_s: round(ingest.ms / 1000),
      ingest_per_s: Math.round(n / (ingest.ms / 1000)),
      open_ms: round(cold.openMs, 0),
      key_ms: round(cold.timings.storageSteps?.keyMs ?? 0, 0),
      first_recall_ms: round(cold.firstRecallMs, 0),
      recall_p50_ms: round(median(recall)),
      recall_p95_ms: round(quantile(recall, 0.95)),
      store_mb: round(ingest.bytes / 2 ** 20, 1),
    };
  } finally {
    await profile.close();
  }
}

const page = values.browser ? await serve() : undefined;
const words = await nodeWords();
const repeats = Number(values.repeats);
type Run = Awaited<ReturnType<typeof run>> | Awaited<ReturnType<typeof runBrowser>>;
/** One run of the chosen kind. */
const runOne = (texts: string[], queries: string[], passphrase: string | undefined) =>
  page ? runBrowser(page.url, texts.length, passphrase) : run(texts, queries, passphrase);
/** Each figure's median over the runs. */
const medians = (runs: Run[]) =>
  Object.fromEntries(
    Object.keys(runs[0]!).map((k) => [
      k,
      median(runs.map((r) => (r as Record<string, number>)[k]!)),
    ]),
  );
const results: Record<string, unknown>[] = [];
const loadBefore = uptime();
{
  const texts = makeCorpus(2000, words);
  const queries = makeQueries(texts, words, 50);
  await runOne(texts, queries, undefined);
  await runOne(texts, queries, 'warm-up');
}
for (const n of sizes) {
  const texts = makeCorpus(n, words);
  const queries = makeQueries(texts, words, 300);
  const plain: Run[] = [];
  const encrypted: Run[] = [];
  for (let r = 0; r < repeats; r++) {
    plain.push(await runOne(texts, queries, undefined));
    encrypted.push(await runOne(texts, queries, 'correct horse battery staple'));
  }
  results.push({
    n,
    repeats,
    plain: medians(plain),
    encrypted: medians(encrypted),
    load: uptime(),
  });
  if (!values.json) console.log(JSON.stringify(results.at(-1)));
}
const out = {
  load_before: loadBefore,
  load_after: uptime(),
  node: process.version,
  where: page ? 'chromium (OPFS)' : 'node (file store)',
  results,
};
console.log(JSON.stringify(out));
await page?.server.close();
