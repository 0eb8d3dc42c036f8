/**
 * `pnpm bench:locomo -- --data DIR [--k 10] [--profile NAME|all] [--json]`: retrieval quality of
 * every profile on LoCoMo, with baselines run in the same process on the same embeddings.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTransformersEmbedder,
  defaultEmbedderOptions,
  ENGINE_PROFILES,
} from '@anamnesis/engine';
import { BASELINES } from './baselines.ts';
import { loadLocomo, runLocomo, type Ranker, type Report } from './locomo.ts';
import { runOrama } from './orama.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    data: { type: 'string' },
    k: { type: 'string', default: '10' },
    profile: { type: 'string', default: 'all' },
    json: { type: 'boolean', default: false },
  },
});
if (!values.data) {
  console.error('usage: pnpm bench:locomo -- --data DIR [--k 10] [--profile NAME|all] [--json]');
  process.exit(2);
}
const k = Number(values.k);
// pnpm runs this in apps/bench; a relative --data is relative to where the command was typed.
const conversations = loadLocomo(resolve(process.env.INIT_CWD ?? process.cwd(), values.data));
const embedder = await createTransformersEmbedder(await defaultEmbedderOptions());
const names = values.profile === 'all' ? Object.keys(ENGINE_PROFILES) : [values.profile!];
const rankers: Record<string, Ranker> = {
  ...Object.fromEntries(names.map((n) => [n, n])),
  ...BASELINES,
};
const t0 = performance.now();
const reports: Record<string, Report> = {
  ...(await runLocomo(conversations, rankers, { embedder, k })),
  ...(await runOrama(conversations, embedder, k)),
  // The zero-model backend: TF-IDF in place of the model, fused by the default profile and alone.
  ...(await runLocomo(
    conversations,
    { 'tfidf-default': 'default', 'tfidf-vector': BASELINES.vector! },
    { embedder: 'tfidf', k },
  )),
};
const seconds = (performance.now() - t0) / 1000;

const fmt = (x: number) => x.toFixed(3);
const row = (name: string, r: Report) =>
  `${name.padEnd(16)} ${fmt(r.recall)}  ${fmt(r.mrr)}  ${fmt(r.ndcg10)}  ${[1, 2, 3, 4].map((c) => fmt(r.byCategory[c]?.recall ?? 0)).join('  ')}`;
const questions = reports[names[0]!]!.questions;
console.log(
  `LoCoMo: ${conversations.length} conversations, ${questions} questions, k = ${k}, model ${embedder.id}, ${seconds.toFixed(1)} s`,
);
console.log(`${'ranker'.padEnd(16)} R@${k}    MRR    nDCG@10 cat1   cat2   cat3   cat4`);
for (const [name, r] of Object.entries(reports)) console.log(row(name, r));

if (values.json) {
  const metrics = (r: Report) => ({ [`recall@${k}`]: r.recall, mrr: r.mrr, 'ndcg@10': r.ndcg10 });
  const main = reports[names.includes('default') ? 'default' : names[0]!]!;
  console.log(
    JSON.stringify({
      questions,
      k,
      profile: names.includes('default') ? 'default' : names[0],
      ...metrics(main),
      byCategory: Object.fromEntries(
        Object.entries(main.byCategory).map(([c, m]) => [
          c,
          { [`recall@${k}`]: m.recall, mrr: m.mrr, 'ndcg@10': m.ndcg10 },
        ]),
      ),
      profiles: Object.fromEntries(names.map((n) => [n, metrics(reports[n]!)])),
      baselines: Object.fromEntries(
        [
          ...Object.keys(BASELINES),
          'orama-hybrid',
          'orama-fulltext',
          'orama-vector',
          'tfidf-default',
          'tfidf-vector',
        ].map((n) => [n, metrics(reports[n]!)]),
      ),
    }),
  );
}
