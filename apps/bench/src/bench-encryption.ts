/**
 * `pnpm bench:encryption -- [--n 10000,100000] [--repeats 3] [--json]`: what encryption at rest costs a Node
 * file store, the same corpus and queries on a plain store (better-sqlite3) and on an encrypted
 * one (better-sqlite3-multiple-ciphers, ChaCha20-Poly1305, scrypt key): ingest (rememberMany in
 * batches of 5,000), one `remember` at a time on the full store, open of the saved store (with the
 * key derivation), uncached recall (medians and p95 over 300 queries), file size. The plain and
 * encrypted runs alternate (`--repeats` times each, after a warm-up run of each at 2,000) so that
 * the machine's load falls on both alike; each figure is the median over the repeats. `uptime`'s
 * load is printed before, after each size, and after. The default model, as `bench:engine`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';
import { makeCorpus, makeQueries } from './corpus.ts';
import { nodeWords } from './node-corpus.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '10000' },
    repeats: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const sizes = values.n.split(',').map(Number);
const embedder = await createModelEmbedder(await defaultEmbedderOptions());
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

const words = await nodeWords();
const repeats = Number(values.repeats);
type Run = Awaited<ReturnType<typeof run>>;
/** Each figure's median over the runs. */
const medians = (runs: Run[]) =>
  Object.fromEntries(
    Object.keys(runs[0]!).map((k) => [k, median(runs.map((r) => r[k as keyof Run]))]),
  );
const results: Record<string, unknown>[] = [];
const loadBefore = uptime();
{
  const texts = makeCorpus(2000, words);
  const queries = makeQueries(texts, words, 50);
  await run(texts, queries, undefined);
  await run(texts, queries, 'warm-up');
}
for (const n of sizes) {
  const texts = makeCorpus(n, words);
  const queries = makeQueries(texts, words, 300);
  const plain: Run[] = [];
  const encrypted: Run[] = [];
  for (let r = 0; r < repeats; r++) {
    plain.push(await run(texts, queries, undefined));
    encrypted.push(await run(texts, queries, 'correct horse battery staple'));
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
const out = { load_before: loadBefore, load_after: uptime(), node: process.version, results };
console.log(JSON.stringify(out));
