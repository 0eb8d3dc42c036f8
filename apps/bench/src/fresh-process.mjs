/**
 * `bench:engine`'s fresh process: what a server (the MCP server, the CLI) pays to open a saved
 * store and answer. Plain JavaScript run by plain Node on the packages' built files, as those
 * servers run, so that its RSS is the engine's and not that of a TypeScript loader (tsx alone
 * holds ~120 MB). Prints one JSON line: `{ open_ms, rss_mb }`.
 *
 *   node fresh-process.mjs STORE_PATH default|tfidf QUERIES_JSON
 */
import { readFileSync } from 'node:fs';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';

const [path, embedder, queriesPath] = process.argv.slice(2);
if (!path || (embedder !== 'default' && embedder !== 'tfidf') || !queriesPath) {
  console.error('usage: node fresh-process.mjs STORE_PATH default|tfidf QUERIES_JSON');
  process.exit(2);
}
/** @type {string[]} */
const queries = JSON.parse(readFileSync(queriesPath, 'utf8'));
const spec =
  embedder === 'tfidf' ? 'tfidf' : await createModelEmbedder(await defaultEmbedderOptions());
const o0 = performance.now();
const engine = await createEngine({ storage: 'file', path, embedder: spec });
const openMs = performance.now() - o0;
for (const q of queries) await engine.recall(q, { noCache: true });
const rss = process.memoryUsage().rss / 2 ** 20;
await engine.close();
console.log(JSON.stringify({ open_ms: openMs, rss_mb: rss }));
