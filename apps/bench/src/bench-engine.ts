/**
 * `pnpm bench:engine -- [--n 100000] [--embedder default|tfidf] [--json] [--docs]`: the engine's speed in
 * Node on the default model (or the zero-model TF-IDF backend) and a deterministic synthetic corpus:
 * ingest throughput, one `remember` at a time on the full store (alone, with a second process
 * writing the same store, and 100 sent at once: group commit), uncached and cached recall
 * latency (and the same recalls on a memory store of the same corpus), a recall on every keystroke
 * of queries typed a letter at a time, open of a saved store and
 * memory, in this process and in a fresh one that only opens the store and recalls (the RSS a
 * server on that store has), and where the uncached recalls spend their time, stage by stage
 * (`stats().recallStages`). The fresh process runs the packages' built files (`pnpm build` first).
 * Medians over many queries; the machine is shared and noisy. `--docs`
 * writes the results into their section of docs/measurements.md (`measurements.ts`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';
import { makeCorpus, makeQueries } from './corpus.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';
import { nodeWords } from './node-corpus.ts';
import { stageCosts, stageRows } from './stage-breakdown.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '100000' },
    embedder: { type: 'string', default: 'default' },
    json: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    /** Internal: open the store at this path and remember one memory after another until killed. */
    writer: { type: 'string' },
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

/** Recall latencies (ms) of `qs` on `engine`, one after another. */
async function timeAll(
  engine: Awaited<ReturnType<typeof createEngine>>,
  qs: string[],
  options: Parameters<Awaited<ReturnType<typeof createEngine>>['recall']>[1],
): Promise<number[]> {
  const out: number[] = [];
  for (const q of qs) {
    const s = performance.now();
    await engine.recall(q, options);
    out.push(performance.now() - s);
  }
  return out;
}

if (values.writer !== undefined) {
  // The second writing process: one `remember` after another, as another assistant's server would.
  const engine = await createEngine({ storage: 'file', path: values.writer, embedder: spec });
  console.log('writing');
  for (let i = 0; ; i++) await engine.remember({ text: `from the other process, note ${i}` });
}

/** `count` single `remember`s on `engine`, one after another: each one's latency (ms). */
async function singles(
  engine: Awaited<ReturnType<typeof createEngine>>,
  texts: string[],
  count: number,
  label: string,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = performance.now();
    await engine.remember({ text: `${texts[i % texts.length]} (${label} ${i})`, session: 'one' });
    out.push(performance.now() - s);
  }
  return out;
}

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

  await timeAll(engine, queries.slice(0, 20), { noCache: true }); // warm-up
  const stagesBefore = (await engine.stats()).recallStages;
  const uncached = await timeAll(engine, queries, { noCache: true });
  const stages = stageCosts(stagesBefore, (await engine.stats()).recallStages);
  const explained = await timeAll(engine, queries.slice(0, 100), { noCache: true, explain: true });
  // A search box: each query typed a letter at a time, a recall on every keystroke (the app's
  // options), then a pause (`stats()` writes the queued retrieval counts, as the pause would).
  const typed: number[] = [];
  for (const q of queries.slice(100, 160)) {
    const keys = Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)); // ASCII words
    typed.push(...(await timeAll(engine, keys, {})));
    await engine.stats();
  }
  await timeAll(engine, queries.slice(0, 50), {});
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
  // One memory at a time on the full store: what an assistant's `remember` costs.
  const single = await singles(engine, texts, 100, 'single write');
  // The same while a second process writes the store, one memory after another.
  const writer = spawn(
    process.execPath,
    [
      ...process.execArgv,
      fileURLToPath(import.meta.url),
      '--embedder',
      values.embedder,
      '--writer',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    writer.stdout.once('data', () => resolve());
    writer.once('exit', (code) => reject(new Error(`the writing process exited (${code})`)));
  });
  const syncsBefore = (await engine.stats()).diskSyncs ?? 0;
  const contended = await singles(engine, texts, 100, 'beside another writer');
  const contendedSyncs = ((await engine.stats()).diskSyncs ?? 0) - syncsBefore;
  writer.kill('SIGKILL');
  // 100 sent at once (an app saving a batch of notes one call each): each one's latency.
  const burstBefore = (await engine.stats()).diskSyncs ?? 0;
  const b0 = performance.now();
  const burst = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      await engine.remember({ text: `${texts[i % texts.length]} (burst ${i})`, session: 'one' });
      return performance.now() - b0;
    }),
  );
  const burstSyncs = ((await engine.stats()).diskSyncs ?? 0) - burstBefore;
  await engine.close();
  const fileBytes = statSync(path).size;

  // A fresh process on the saved store: open and RSS without this process's ingest behind them,
  // in plain Node on the built packages (fresh-process.mjs), 100 of the queries.
  const queriesPath = join(dir, 'queries.json');
  writeFileSync(
    queriesPath,
    JSON.stringify(makeQueries(makeCorpus(Math.min(n, 2000), words), words, 100)),
  );
  const fresh = JSON.parse(
    execFileSync(
      process.execPath,
      [
        fileURLToPath(new URL('./fresh-process.mjs', import.meta.url)),
        path,
        values.embedder,
        queriesPath,
      ],
      // without pnpm's `--conditions=@anamnesis/source`: the built packages, as a server runs them
      { encoding: 'utf8', maxBuffer: 1 << 20, env: { ...process.env, NODE_OPTIONS: '' } },
    )
      .trim()
      .split('\n')
      .at(-1)!,
  ) as { open_ms: number; rss_mb: number };

  // The same corpus and queries on a memory store: the floor a file store's recall is held to.
  const memory = await createEngine({ storage: 'memory', embedder: spec });
  for (let i = 0; i < n; i += batch) {
    await memory.rememberMany(
      texts
        .slice(i, i + batch)
        .map((text, j) => ({ text, session: `s${(i + j) % 500}`, allowDuplicate: true })),
    );
  }
  await timeAll(memory, queries.slice(0, 20), { noCache: true });
  const memoryRecall = await timeAll(memory, queries, { noCache: true });
  await memory.close();

  const result = {
    n,
    ingest_per_s: n / ingestSeconds,
    remember_p50_ms: quantile(single, 0.5),
    remember_p95_ms: quantile(single, 0.95),
    remember_contended_p50_ms: quantile(contended, 0.5),
    remember_contended_p95_ms: quantile(contended, 0.95),
    contended_syncs: contendedSyncs,
    burst_p50_ms: quantile(burst, 0.5),
    burst_p95_ms: quantile(burst, 0.95),
    burst_syncs: burstSyncs,
    memory_recall_p50_ms: quantile(memoryRecall, 0.5),
    file_mb: fileBytes / 2 ** 20,
    fresh_open_ms: fresh.open_ms,
    fresh_rss_mb: fresh.rss_mb,
    recall_p50_ms: quantile(uncached, 0.5),
    recall_p95_ms: quantile(uncached, 0.95),
    recall_explain_p50_ms: quantile(explained, 0.5),
    typed_p50_ms: quantile(typed, 0.5),
    typed_p95_ms: quantile(typed, 0.95),
    typed_keystrokes: typed.length,
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
    `  one remember      p50 ${result.remember_p50_ms.toFixed(2)} ms  p95 ${result.remember_p95_ms.toFixed(2)} ms   (targets ≤ 2 / ≤ 10)`,
  );
  console.log(
    `  beside a writer   p50 ${result.remember_contended_p50_ms.toFixed(2)} ms  p95 ${result.remember_contended_p95_ms.toFixed(2)} ms   (100 writes, ${result.contended_syncs} syncs of the log)`,
  );
  console.log(
    `  100 at once       p50 ${result.burst_p50_ms.toFixed(2)} ms  p95 ${result.burst_p95_ms.toFixed(2)} ms   (each from the send; ${result.burst_syncs} syncs of the log)`,
  );
  console.log(
    `  recall uncached   p50 ${result.recall_p50_ms.toFixed(2)} ms  p95 ${result.recall_p95_ms.toFixed(2)} ms   (targets ≤ 10 / ≤ 25)`,
  );
  console.log(
    `  recall, memory store p50 ${result.memory_recall_p50_ms.toFixed(2)} ms   (the file store's should match)`,
  );
  console.log(`  recall + explain  p50 ${result.recall_explain_p50_ms.toFixed(2)} ms`);
  console.log(
    `  typed, per key    p50 ${result.typed_p50_ms.toFixed(2)} ms, p95 ${result.typed_p95_ms.toFixed(2)} ms   (${result.typed_keystrokes} keystrokes, 60 queries)`,
  );
  console.log(`  recall cached     p50 ${result.cached_p50_ms.toFixed(4)} ms   (target ≤ 0.05)`);
  if (embedder) console.log(`  embed one query   p50 ${result.embed_query_p50_ms.toFixed(3)} ms`);
  console.log(`  open saved store  ${result.open_ms.toFixed(0)} ms   (target ≤ 500)`);
  console.log(
    `  memory            rss ${result.rss_mb.toFixed(0)} MB, wasm + buffers ${result.wasm_and_buffers_mb.toFixed(0)} MB   (after ingesting, this process)`,
  );
  console.log(
    `  fresh process     open ${result.fresh_open_ms.toFixed(0)} ms, rss ${result.fresh_rss_mb.toFixed(0)} MB after 100 recalls   (targets ≤ 300 ms, ≤ 250 MB)`,
  );
  console.log(`  store file        ${result.file_mb.toFixed(1)} MB`);
  console.log('  where uncached recall spends its time (ms per recall, share):');
  for (const [stage, ms, share] of stageRows(stages))
    console.log(`    ${stage!.padEnd(10)} ${ms!.padStart(8)}  ${share!.padStart(6)}`);
  if (values.json) console.log(JSON.stringify({ ...result, stages }));
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
            'one `remember` on the full store, p50 / p95 (100, one after another)',
            `${result.remember_p50_ms.toFixed(2)} / ${result.remember_p95_ms.toFixed(2)} ms`,
            '≤ 2 / ≤ 10 ms',
          ],
          [
            'the same while a second process writes the store; syncs of the log',
            `${result.remember_contended_p50_ms.toFixed(2)} / ${result.remember_contended_p95_ms.toFixed(2)} ms; ${result.contended_syncs}`,
            '≤ 2 / ≤ 10 ms',
          ],
          [
            '100 `remember`s sent at once, each from the send, p50 / p95; syncs of the log',
            `${result.burst_p50_ms.toFixed(2)} / ${result.burst_p95_ms.toFixed(2)} ms; ${result.burst_syncs}`,
            '',
          ],
          [
            'recall p50 / p95',
            `${result.recall_p50_ms.toFixed(2)} / ${result.recall_p95_ms.toFixed(2)} ms`,
            '≤ 10 / ≤ 25 ms',
          ],
          [
            'recall p50 on a memory store of the same corpus',
            `${result.memory_recall_p50_ms.toFixed(2)} ms`,
            'the file store matches it',
          ],
          ['recall with explain, p50', `${result.recall_explain_p50_ms.toFixed(2)} ms`, ''],
          [
            `a recall per keystroke, p50 / p95 (${result.typed_keystrokes} keystrokes)`,
            `${result.typed_p50_ms.toFixed(2)} / ${result.typed_p95_ms.toFixed(2)} ms`,
            '',
          ],
          ['cached recall p50', `${result.cached_p50_ms.toFixed(4)} ms`, '≤ 0.05 ms'],
          ...(embedder
            ? [['embed one query p50', `${result.embed_query_p50_ms.toFixed(3)} ms`, '']]
            : []),
          ['open of the saved store', `${result.open_ms.toFixed(0)} ms`, '≤ 500 ms'],
          [
            'RSS; wasm and buffers (this process, after ingesting)',
            `${result.rss_mb.toFixed(0)} MB; ${result.wasm_and_buffers_mb.toFixed(0)} MB`,
            '',
          ],
          [
            'a fresh process (plain Node): open; RSS after 100 recalls',
            `${result.fresh_open_ms.toFixed(0)} ms; ${result.fresh_rss_mb.toFixed(0)} MB`,
            '≤ 300 ms; ≤ 250 MB',
          ],
          ['store file', `${result.file_mb.toFixed(1)} MB`, ''],
        ]),
        '',
        'Where the uncached recalls above spend their time (`stats().recallStages`, mean per recall):',
        '',
        markdownTable([['stage', 'ms per recall', 'share'], ...stageRows(stages)]),
      ].join('\n'),
    });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
