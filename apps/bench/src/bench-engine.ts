/**
 * `pnpm bench:engine -- [--n 100000] [--embedder default|tfidf] [--json] [--docs]`: the engine's speed in
 * Node on the default model (or the zero-model TF-IDF backend) and a deterministic synthetic corpus: ingest throughput, uncached and cached recall latency, open of
 * a saved store, memory. Medians over many queries; the machine is shared and noisy. `--docs`
 * writes the results into their section of docs/measurements.md (`measurements.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';
import { makeCorpus, makeQueries } from './corpus.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';
import { nodeWords } from './node-corpus.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '100000' },
    embedder: { type: 'string', default: 'default' },
    json: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
  },
});
if (values.embedder !== 'default' && values.embedder !== 'tfidf') {
  console.error('usage: pnpm bench:engine -- [--n 100000] [--embedder default|tfidf] [--json]');
  process.exit(2);
}
const n = Number(values.n);
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const embedder =
  values.embedder === 'tfidf'
    ? undefined
    : await createModelEmbedder(await defaultEmbedderOptions());
const spec = embedder ?? 'tfidf';
const dir = mkdtempSync(join(tmpdir(), 'anamnesis-bench-'));
const path = join(dir, 'bench.db');
try {
  const words = await nodeWords();
  const texts = makeCorpus(n, words);
  const queries = makeQueries(texts, words, 300);
  const heapBefore = process.memoryUsage();
  let engine = await createEngine({ storage: 'file', path, embedder: spec });
  const t0 = performance.now();
  const batch = 5000;
  for (let i = 0; i < n; i += batch) {
    await engine.rememberMany(
      texts
        .slice(i, i + batch)
        .map((text, j) => ({ text, session: `s${(i + j) % 500}`, allowDuplicate: true })),
    );
  }
  const ingestSeconds = (performance.now() - t0) / 1000;
  await engine.close();

  const o0 = performance.now();
  engine = await createEngine({ storage: 'file', path, embedder: spec });
  const openMs = performance.now() - o0;
  const mem = process.memoryUsage();

  const timeAll = async (qs: string[], options: Parameters<typeof engine.recall>[1]) => {
    const out: number[] = [];
    for (const q of qs) {
      const s = performance.now();
      await engine.recall(q, options);
      out.push(performance.now() - s);
    }
    return out;
  };
  await timeAll(queries.slice(0, 20), { noCache: true }); // warm-up
  const uncached = await timeAll(queries, { noCache: true });
  const explained = await timeAll(queries.slice(0, 100), { noCache: true, explain: true });
  await timeAll(queries.slice(0, 50), {});
  const cached: number[] = [];
  for (let r = 0; r < 20; r++)
    for (const q of queries.slice(0, 50)) {
      const s = performance.now();
      await engine.recall(q);
      cached.push(performance.now() - s);
    }
  // the floor: one embed of the query plus one scan of the vectors
  const scan: number[] = [];
  for (const q of embedder ? queries.slice(0, 100) : []) {
    const s = performance.now();
    await embedder!.embed([q]);
    scan.push(performance.now() - s);
  }
  await engine.close();
  const result = {
    n,
    ingest_per_s: n / ingestSeconds,
    recall_p50_ms: quantile(uncached, 0.5),
    recall_p95_ms: quantile(uncached, 0.95),
    recall_explain_p50_ms: quantile(explained, 0.5),
    cached_p50_ms: quantile(cached, 0.5),
    embed_query_p50_ms: embedder ? quantile(scan, 0.5) : 0,
    open_ms: openMs,
    rss_mb: mem.rss / 2 ** 20,
    heap_mb: (mem.heapUsed - heapBefore.heapUsed) / 2 ** 20,
    wasm_and_buffers_mb: (mem.arrayBuffers + mem.external) / 2 ** 20,
  };
  console.log(
    `engine, Node ${process.version}, ${n} synthetic memories, ${embedder ? 'default model' : 'TF-IDF backend (no model)'}`,
  );
  console.log(`  ingest            ${result.ingest_per_s.toFixed(0)} memories/s   (target ≥ 3000)`);
  console.log(
    `  recall uncached   p50 ${result.recall_p50_ms.toFixed(2)} ms  p95 ${result.recall_p95_ms.toFixed(2)} ms   (targets ≤ 10 / ≤ 25)`,
  );
  console.log(`  recall + explain  p50 ${result.recall_explain_p50_ms.toFixed(2)} ms`);
  console.log(`  recall cached     p50 ${result.cached_p50_ms.toFixed(4)} ms   (target ≤ 0.05)`);
  if (embedder) console.log(`  embed one query   p50 ${result.embed_query_p50_ms.toFixed(3)} ms`);
  console.log(`  open saved store  ${result.open_ms.toFixed(0)} ms   (target ≤ 500)`);
  console.log(
    `  memory            rss ${result.rss_mb.toFixed(0)} MB, wasm + buffers ${result.wasm_and_buffers_mb.toFixed(0)} MB   (target ≤ 200)`,
  );
  if (values.json) console.log(JSON.stringify(result));
  if (values.docs)
    writeMeasurements({
      id: embedder ? 'engine' : 'engine-tfidf',
      title: embedder ? 'Speed in Node, default model' : 'Speed in Node, TF-IDF (no model)',
      command: commandLine('bench:engine'),
      body: [
        `${n} synthetic memories (\`apps/bench/src/corpus.ts\`) in a file-backed store, ${embedder ? 'the default model' : 'the TF-IDF backend (no model)'}; 300 queries, uncached unless said.`,
        '',
        markdownTable([
          ['what', 'measured', 'target'],
          ['ingest', `${result.ingest_per_s.toFixed(0)} memories/s`, '≥ 3,000/s'],
          [
            'recall p50 / p95',
            `${result.recall_p50_ms.toFixed(2)} / ${result.recall_p95_ms.toFixed(2)} ms`,
            '≤ 10 / ≤ 25 ms',
          ],
          ['recall with explain, p50', `${result.recall_explain_p50_ms.toFixed(2)} ms`, ''],
          ['cached recall p50', `${result.cached_p50_ms.toFixed(4)} ms`, '≤ 0.05 ms'],
          ...(embedder
            ? [['embed one query p50', `${result.embed_query_p50_ms.toFixed(3)} ms`, '']]
            : []),
          ['open of the saved store', `${result.open_ms.toFixed(0)} ms`, '≤ 500 ms'],
          [
            'RSS; wasm and buffers',
            `${result.rss_mb.toFixed(0)} MB; ${result.wasm_and_buffers_mb.toFixed(0)} MB`,
            '≤ 200 MB',
          ],
        ]),
        '',
        'The file store holds the whole database in memory, hence the RSS; it checks the file (`quick_check`) at open.',
      ].join('\n'),
    });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
