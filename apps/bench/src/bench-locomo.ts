/**
 * `pnpm bench:locomo -- --data DIR [--k 10] [--profile NAME|all] [--ablate] [--cv] [--model-dir DIR] [--json] [--html FILE] [--docs]`:
 * retrieval quality of every profile on LoCoMo, with baselines run in the same process on the same
 * embeddings. `--ablate`: `default` with each of its signals removed, one row each. `--cv`:
 * leave-one-conversation-out cross-validation of the grid `default` is chosen from (choose on the
 * other conversations, measure on the held-out one). `--html FILE`: the charts (recall@k by ranker
 * and by category) as one self-contained HTML file. `--model-dir DIR` (or `ANAMNESIS_MODEL_DIR`):
 * another model root than the default model's (see `bench-model.ts`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createModelEmbedder, DEFAULT_PROFILE, ENGINE_PROFILES } from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';
import { BASELINES } from './baselines.ts';
import { benchEmbedderOptions, benchModelDir, refuseDocsForOtherModel } from './bench-model.ts';
import { writeReport } from './html-report.ts';
import { crossValidate, defaultGrid } from './grid.ts';
import { loadLocomo, runLocomo, type Ranker, type Report } from './locomo.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';
import { runOrama } from './orama.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    data: { type: 'string' },
    k: { type: 'string', default: '10' },
    profile: { type: 'string', default: 'all' },
    json: { type: 'boolean', default: false },
    ablate: { type: 'boolean', default: false },
    cv: { type: 'boolean', default: false },
    html: { type: 'string' },
    docs: { type: 'boolean', default: false },
    'model-dir': { type: 'string' },
  },
});
if (!values.data) {
  console.error(
    'usage: pnpm bench:locomo -- --data DIR [--k 10] [--profile NAME|all] [--ablate] [--cv] [--model-dir DIR] [--json] [--html FILE]',
  );
  process.exit(2);
}
const k = Number(values.k);
// pnpm runs this in apps/bench; a relative --data is relative to where the command was typed.
const conversations = loadLocomo(resolve(process.env.INIT_CWD ?? process.cwd(), values.data));
const modelDir = benchModelDir(values['model-dir']);
refuseDocsForOtherModel(values.docs, modelDir);
const embedder = await createModelEmbedder(await benchEmbedderOptions(modelDir));
const names = values.profile === 'all' ? Object.keys(ENGINE_PROFILES) : [values.profile];
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

/** `default` with one signal removed, per signal. */
function ablations(): Record<string, ScoringProfile> {
  const d = DEFAULT_PROFILE;
  const out: Record<string, ScoringProfile> = { default: d };
  const without = (name: string, p: Partial<ScoringProfile>) => {
    out[`− ${name}`] = { ...d, name: `default − ${name}`, ...p };
  };
  for (const leg of d.legs) without(`${leg} leg`, { legs: d.legs.filter((l) => l !== leg) });
  if (d.context) {
    without('context', { context: null });
    for (const part of ['neighbor', 'near', 'session'] as const)
      if (d.context[part] !== 0)
        without(`context:${part}`, { context: { ...d.context, [part]: 0 } });
  }
  if (d.speaker) without('speaker', { speaker: 0 });
  if (d.priors) {
    without('priors', { priors: null });
    for (const part of ['recency', 'importance', 'usage'] as const)
      if (d.priors[part] !== 0) without(`priors:${part}`, { priors: { ...d.priors, [part]: 0 } });
  }
  return out;
}
const ablation = values.ablate
  ? await runLocomo(conversations, ablations(), { embedder, k })
  : undefined;
let cv: ReturnType<typeof crossValidate> | undefined;
if (values.cv) {
  const grid = { ...defaultGrid(), default: DEFAULT_PROFILE };
  const perConversation = new Map<string, Record<string, Report>>();
  for (const conv of conversations)
    perConversation.set(conv.id, await runLocomo([conv], grid, { embedder, k }));
  cv = crossValidate(perConversation, 'default');
}

const fmt = (x: number) => x.toFixed(3);
const row = (name: string, r: Report) =>
  `${name.padEnd(16)} ${fmt(r.recall)}  ${fmt(r.mrr)}  ${fmt(r.ndcg10)}  ${[1, 2, 3, 4].map((c) => fmt(r.byCategory[c]?.recall ?? 0)).join('  ')}`;
const questions = reports[names[0]!]!.questions;
console.log(
  `LoCoMo: ${conversations.length} conversations, ${questions} questions, k = ${k}, model ${embedder.id}, ${seconds.toFixed(1)} s`,
);
console.log(`${'ranker'.padEnd(16)} R@${k}    MRR    nDCG@10 cat1   cat2   cat3   cat4`);
for (const [name, r] of Object.entries(reports)) console.log(row(name, r));
if (ablation) {
  console.log(`\nablation: default with one signal removed`);
  console.log(`${'ranker'.padEnd(22)} R@${k}    MRR    nDCG@10 cat1   cat2   cat3   cat4`);
  for (const [name, r] of Object.entries(ablation))
    console.log(`${name.padEnd(22)}${row('', r).slice(16)}`);
}
if (cv) {
  console.log(`\n3-fold cross-validation (choose on two conversations, measure on the third)`);
  console.log(
    `${'held out'.padEnd(9)} ${'chosen'.padEnd(30)} train  test   cat1   cat2   cat3   cat4   default`,
  );
  for (const f of cv.folds) {
    const cats = [1, 2, 3, 4].map((c) => fmt(f.test.byCategory[c]?.recall ?? 0)).join('  ');
    console.log(
      `${f.heldOut.padEnd(9)} ${f.chosen.padEnd(30)} ${fmt(f.train)}  ${fmt(f.test.recall)}  ${cats}  ${fmt(f.defaultTest.recall)}`,
    );
  }
  const cats = [1, 2, 3, 4].map((c) => fmt(cv.pooled.byCategory[c]?.recall ?? 0)).join('  ');
  console.log(
    `${'pooled'.padEnd(9)} ${''.padEnd(30)}        ${fmt(cv.pooled.recall)}  ${cats}  ${fmt(cv.defaultPooled.recall)}`,
  );
}

if (values.html) {
  const rankersShown = Object.keys(reports);
  const isBaseline = (name: string) => !names.includes(name);
  const categories = [1, 2, 3, 4];
  const categoryName = ['multi-hop', 'temporal', 'open-domain', 'single-hop'];
  const palette = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];
  writeReport(values.html, {
    title: 'anamnesis bench:locomo',
    intro: [
      `LoCoMo: ${conversations.length} conversations, ${questions} questions, k = ${k}, model ${embedder.id}; ${new Date().toISOString()}.`,
      'Profiles are anamnesis scoring profiles; baselines (bm25, vector, Orama, TF-IDF) run in the same process on the same embeddings.',
    ],
    charts: [
      {
        title: `Recall@${k} and MRR by ranker`,
        note: 'Blue: anamnesis profiles; grey: baselines.',
        config: {
          type: 'bar',
          data: {
            labels: rankersShown,
            datasets: [
              {
                label: `recall@${k}`,
                data: rankersShown.map((n) => reports[n]!.recall),
                backgroundColor: rankersShown.map((n) => (isBaseline(n) ? '#9a9a9a' : '#1f77b4')),
              },
              {
                label: 'MRR',
                data: rankersShown.map((n) => reports[n]!.mrr),
                backgroundColor: rankersShown.map((n) => (isBaseline(n) ? '#cfcfcf' : '#aec7e8')),
              },
            ],
          },
          options: { scales: { y: { min: 0, max: 1 } } },
        },
      },
      {
        title: `Recall@${k} by question category`,
        note: 'One group per ranker, one bar per LoCoMo category.',
        config: {
          type: 'bar',
          data: {
            labels: rankersShown,
            datasets: categories.map((c, i) => ({
              label: `${c} ${categoryName[i]}`,
              data: rankersShown.map((n) => reports[n]!.byCategory[c]?.recall ?? 0),
              backgroundColor: palette[i],
            })),
          },
          options: { scales: { y: { min: 0, max: 1 } } },
        },
      },
    ],
    tables: [
      {
        title: 'Numbers',
        rows: [
          ['ranker', `R@${k}`, 'MRR', 'nDCG@10', 'cat1', 'cat2', 'cat3', 'cat4'],
          ...rankersShown.map((n) => {
            const r = reports[n]!;
            return [
              n,
              fmt(r.recall),
              fmt(r.mrr),
              fmt(r.ndcg10),
              ...categories.map((c) => fmt(r.byCategory[c]?.recall ?? 0)),
            ];
          }),
        ],
      },
    ],
  });
  console.log(`wrote ${values.html}`);
}

if (values.docs) {
  const header = [`R@${k}`, 'MRR', 'nDCG@10', 'multi-hop', 'temporal', 'open-domain', 'single-hop'];
  /** One line per ranker: its metrics and recall per category. */
  const rankers = (rs: Record<string, Report>) =>
    markdownTable([
      ['ranker', ...header],
      ...Object.entries(rs).map(([n, r]) => [
        n,
        fmt(r.recall),
        fmt(r.mrr),
        fmt(r.ndcg10),
        ...[1, 2, 3, 4].map((c) => fmt(r.byCategory[c]?.recall ?? 0)),
      ]),
    ]);
  const body = [
    `${conversations.length} conversations, ${questions} questions, k = ${k}, model ${embedder.id}; the profiles, the baselines (FTS5 BM25 alone, vector alone, Orama 3 with English stemming and stop words on the same embeddings) and the zero-model \`tfidf\` backend; per category recall@${k}. ${seconds.toFixed(0)} s.`,
    '',
    rankers(reports),
  ];
  if (ablation) body.push('', '`default` with one signal removed:', '', rankers(ablation));
  if (cv)
    body.push(
      '',
      '3-fold cross-validation over the dev conversations (choose on two, measure on the third; not held-out data):',
      '',
      markdownTable([
        ['held out', 'chosen', 'train', 'test', '`default` on the test'],
        ...cv.folds.map((f) => [
          f.heldOut,
          f.chosen,
          fmt(f.train),
          fmt(f.test.recall),
          fmt(f.defaultTest.recall),
        ]),
        ['pooled', '', '', fmt(cv.pooled.recall), fmt(cv.defaultPooled.recall)],
      ]),
    );
  writeMeasurements({
    id: 'locomo',
    title: 'LoCoMo by ranker',
    command: commandLine('bench:locomo'),
    body: body.join('\n'),
  });
}

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
      ...(ablation
        ? {
            ablation: Object.fromEntries(
              Object.entries(ablation).map(([n, r]) => [
                n,
                {
                  ...metrics(r),
                  byCategory: Object.fromEntries(
                    Object.entries(r.byCategory).map(([c, m]) => [c, m.recall]),
                  ),
                },
              ]),
            ),
          }
        : {}),
      ...(cv
        ? {
            cv: {
              folds: cv.folds.map((f) => ({
                heldOut: f.heldOut,
                chosen: f.chosen,
                train: f.train,
                test: f.test.recall,
                default: f.defaultTest.recall,
              })),
              pooled: cv.pooled.recall,
              defaultPooled: cv.defaultPooled.recall,
            },
          }
        : {}),
    }),
  );
}
