/**
 * `pnpm bench:heldout -- [--corpora DIR] [--model-dir DIR] [--k 10] [--json]`: the corpora's
 * held-out lines (issue 42), scored by the rankers `bench:quality` compares on its dev lines
 * (`quality-lines.ts`), each line with its 95% bootstrap intervals. It prints aggregates only,
 * never a question: the held-out split stays held out while it is used to check a decision made
 * on the dev lines. The tuned BM25 of each corpus is tuned on that corpus's dev questions only.
 * Run it once a decision is made, not while deciding; docs/benchmarks.md records each run.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createModelEmbedder } from '@anamnesis/engine';
import { BM25_USUAL, tuneBm25 } from './bm25.ts';
import { benchEmbedderOptions, benchModelDir } from './bench-model.ts';
import { formatInterval } from './bootstrap.ts';
import { corpusLanguage } from './orama-languages.ts';
import { HELD_OUT_COMMITS, heldOutFreezes, loadCorpora } from './quality-corpora.ts';
import { lineIntervals, scoreLine, SHOWN } from './quality-lines.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    corpora: { type: 'string' },
    'model-dir': { type: 'string' },
    k: { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
});
const k = Number(values.k);
// pnpm runs this in apps/bench; relative paths are relative to where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const corporaDir = values.corpora
  ? resolve(cwd, values.corpora)
  : fileURLToPath(new URL('../corpora', import.meta.url));

const corpora = loadCorpora(corporaDir).filter((c) => c.splits['held-out']);
if (corpora.length === 0) {
  console.error('bench:heldout: no corpus with held-out questions');
  process.exit(2);
}
const modelDir = benchModelDir(values['model-dir']);
const embedder = await createModelEmbedder(await benchEmbedderOptions(modelDir));
/** The commit the run scores (the working tree may differ: then "+ changes"). */
const head = (() => {
  try {
    const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' + changes' : ''}`;
  } catch {
    return 'unknown';
  }
})();

const t0 = performance.now();
const fmt = (x: number) => x.toFixed(3);
const rows = [];
for (const c of corpora) {
  const language = corpusLanguage(c.name);
  const dev = c.splits.dev;
  const { k1, b } = dev ? tuneBm25([dev], language, k) : BM25_USUAL;
  const bm25 = { k1, b };
  const reports = await scoreLine([c.splits['held-out']!], { embedder, k, language, bm25 });
  rows.push({ corpus: c.name, reports, ci: lineIntervals(reports), bm25 });
}
const seconds = (performance.now() - t0) / 1000;

if (values.json) {
  console.log(
    JSON.stringify({
      k,
      commit: head,
      heldOutFrozenIn: Object.fromEntries(corpora.map((c) => [c.name, HELD_OUT_COMMITS[c.name]])),
      lines: rows.map(({ corpus, reports, ci, bm25 }) => ({
        corpus,
        split: 'held-out',
        rankers: Object.fromEntries(
          SHOWN.map((n) => {
            const r = reports[n]!;
            return [
              n,
              {
                questions: r.questions,
                [`recall@${k}`]: r.recall,
                mrr: r.mrr,
                'ndcg@10': r.ndcg10,
              },
            ];
          }),
        ),
        intervals95: ci,
        bm25Tuned: bm25,
      })),
    }),
  );
} else {
  console.log(
    `bench:heldout: ${rows.length} held-out lines (frozen in ${heldOutFreezes(corpora.map((c) => c.name))}), k = ${k}, model ${embedder.id}${modelDir ? ` from ${modelDir}` : ''}, at ${head}, ${new Date().toISOString()}, ${seconds.toFixed(1)} s`,
  );
  console.log(
    `${'corpus'.padEnd(8)} ${'q'.padStart(4)}  ${SHOWN.map((n) => `${n} R@${k} / MRR / nDCG`.padEnd(26)).join(' ')}`,
  );
  for (const { corpus, reports } of rows)
    console.log(
      `${corpus.padEnd(8)} ${String(reports.default!.questions).padStart(4)}  ${SHOWN.map((n) => {
        const r = reports[n]!;
        return `${fmt(r.recall)} / ${fmt(r.mrr)} / ${fmt(r.ndcg10)}`.padEnd(26);
      }).join(' ')}`,
    );
  console.log(
    `\n95% bootstrap intervals (2,000 resamples of the questions, seed 42; the differences paired per question): default R@${k}, default MRR, default − bm25 R@${k}, default − bm25 MRR`,
  );
  for (const { corpus, ci } of rows)
    console.log(
      `${corpus.padEnd(8)} ${formatInterval(ci.recall)}  ${formatInterval(ci.mrr)}  ${formatInterval(ci.recallVsBm25, true)}  ${formatInterval(ci.mrrVsBm25, true)}`,
    );
  console.log(
    `BM25 tuned: k1 / b chosen on each corpus's dev questions: ${rows.map((r) => `${r.corpus} ${r.bm25.k1} / ${r.bm25.b}`).join(', ')}.`,
  );
}
