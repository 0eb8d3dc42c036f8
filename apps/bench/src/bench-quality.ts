/**
 * `pnpm bench:quality -- [--locomo DIR] [--corpora DIR] [--model-dir DIR] [--k 10] [--ablate] [--json] [--html FILE] [--docs] [--held-out]`:
 * retrieval quality of the `default` profile on every corpus our users' data looks like, each on
 * its own line: chat (LoCoMo, `--locomo`), notes, web pages and other languages
 * (`apps/bench/corpora`, see `quality-corpora.ts`), on their dev questions only. The corpora's
 * held-out questions are scored by `bench:heldout` alone (`bench-heldout.ts`), which prints
 * aggregates only. Each line has 95% bootstrap intervals (questions resampled, `bootstrap.ts`)
 * for `default`'s R@k and MRR and, paired, for `default` − BM25. Baselines on the same store and embeddings:
 * BM25 alone (the FTS leg, FTS5's fixed k1 and b), a tuned BM25 outside the engine (MiniSearch's,
 * k1 and b chosen per corpus on its dev questions: `bm25.ts`), Orama hybrid (its fulltext + vector
 * search on the same vectors, with Orama's tokenizer for each line's language:
 * `orama-languages.ts`) and the zero-model TF-IDF backend with the default profile. `--ablate`:
 * `default` with each signal removed, per corpus (the vector leg's share among them).
 * `--model-dir DIR` (or `ANAMNESIS_MODEL_DIR`): run every line on the model under the model root
 * DIR (a `build:model --out DIR`, e.g. a smaller variant: `bench:model-variants`, or the English
 * model `packages/model-default/english`) instead of the default one (see `bench-model.ts`).
 *
 * Beside recall, the search box (issue 38): the search-box suite per kind of query
 * (`search-box/`, dev split; `--held-out` scores the suite's held-out split too, printing no
 * query; the corpora's held-out lines are `bench:heldout`'s), the
 * typing simulation on the notes and pages corpora (each question typed one character at a time,
 * MRR of the target after every keystroke; `typing.ts`), and the "no related memory" rate (queries
 * whose answer is not in the store answered with nothing or weak results only; `search-box.ts`).
 * Orama hybrid with typo tolerance 1 (and its prefix matching) runs beside them as their peer: on
 * the suite's dev split only, and on the typed lines.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createModelEmbedder, DEFAULT_PROFILE } from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';
import { BM25_GRID, BM25_USUAL, tuneBm25, type Bm25Params } from './bm25.ts';
import { formatInterval } from './bootstrap.ts';
import { benchEmbedderOptions, benchModelDir, refuseDocsForOtherModel } from './bench-model.ts';
import { writeReport } from './html-report.ts';
import { loadLocomo, type Conversation, type Report } from './locomo.ts';
import { corpusLanguage, ORAMA_TOKENIZERS } from './orama-languages.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';
import { heldOutFreezes, loadCorpora, type Split } from './quality-corpora.ts';
import { lineIntervals, scoreLine, SHOWN, type LineIntervals } from './quality-lines.ts';
import {
  crossStoreNoAnswer,
  MEANING,
  runSearchBox,
  runSearchBoxOrama,
  SEARCH_BOX,
  type SearchBoxReport,
} from './search-box.ts';
import { runTyping, runTypingOrama, type TypingReport } from './typing.ts';
import {
  runCurrentFacts,
  runExtraction,
  type CurrentReport,
  type ExtractionReport,
} from './current-facts.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    locomo: { type: 'string' },
    corpora: { type: 'string' },
    'model-dir': { type: 'string' },
    k: { type: 'string', default: '10' },
    ablate: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    html: { type: 'string' },
    docs: { type: 'boolean', default: false },
    'held-out': { type: 'boolean', default: false },
  },
});
const k = Number(values.k);
// pnpm runs this in apps/bench; relative paths are relative to where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const corporaDir = values.corpora
  ? resolve(cwd, values.corpora)
  : fileURLToPath(new URL('../corpora', import.meta.url));

/** One line of the table: a corpus and a split. */
interface Line {
  corpus: string;
  split: Split;
  conv: Conversation[];
}
const lines: Line[] = [];
if (values.locomo)
  lines.push({
    corpus: 'chat (LoCoMo)',
    split: 'dev',
    conv: loadLocomo(resolve(cwd, values.locomo)),
  });
const corpora = loadCorpora(corporaDir);
// Dev lines only: the held-out questions are bench:heldout's (scored once, aggregates only).
for (const c of corpora)
  if (c.splits.dev) lines.push({ corpus: c.name, split: 'dev', conv: [c.splits.dev] });
if (lines.length === 0) {
  console.error('bench:quality: no corpus (pass --locomo DIR or --corpora DIR)');
  process.exit(2);
}

/** `default` with one signal removed, per signal. */
function ablations(): Record<string, ScoringProfile> {
  const d = DEFAULT_PROFILE;
  const out: Record<string, ScoringProfile> = {};
  const without = (name: string, p: Partial<ScoringProfile>) => {
    out[`− ${name}`] = { ...d, name: `default − ${name}`, ...p };
  };
  for (const leg of d.legs) without(`${leg} leg`, { legs: d.legs.filter((l) => l !== leg) });
  if (d.context) without('context', { context: null });
  if (d.speaker) without('speaker', { speaker: 0 });
  if (d.priors) without('priors', { priors: null });
  return out;
}

const modelDir = benchModelDir(values['model-dir']);
refuseDocsForOtherModel(values.docs, modelDir);
const embedder = await createModelEmbedder(await benchEmbedderOptions(modelDir));
const t0 = performance.now();

/**
 * The tuned BM25's k1 and b per corpus, chosen on that corpus's dev line only; the usual
 * 1.2 / 0.75 where a corpus has no dev line.
 */
const bm25Tuned = new Map<string, Bm25Params & { tuned: boolean }>();
function bm25For(corpus: string): Bm25Params & { tuned: boolean } {
  let params = bm25Tuned.get(corpus);
  if (!params) {
    const dev = lines.find((l) => l.corpus === corpus && l.split === 'dev');
    const { k1, b } = dev ? tuneBm25(dev.conv, corpusLanguage(corpus), k) : BM25_USUAL;
    bm25Tuned.set(corpus, (params = { k1, b, tuned: dev !== undefined }));
  }
  return params;
}

const results: { line: Line; reports: Record<string, Report>; ci: LineIntervals }[] = [];
for (const line of lines) {
  const reports = await scoreLine(line.conv, {
    embedder,
    k,
    language: corpusLanguage(line.corpus),
    bm25: bm25For(line.corpus),
    extra: values.ablate ? ablations() : {},
  });
  results.push({ line, reports, ci: lineIntervals(reports) });
}

// The search box: the suite, the typing simulation, and queries whose answer is not stored.
const searchBox: SearchBoxReport[] = [];
const searchBoxOrama: Awaited<ReturnType<typeof runSearchBoxOrama>>[] = [];
for (const suite of [SEARCH_BOX, MEANING]) {
  searchBox.push(await runSearchBox(suite, 'dev', embedder, k));
  if (values['held-out']) searchBox.push(await runSearchBox(suite, 'held-out', embedder, k));
  // Orama's typo-tolerant peer on the dev splits only (issue 42): its held-out rows show "—".
  searchBoxOrama.push(await runSearchBoxOrama(suite, 'dev', embedder, k));
}
// Current facts (issue 70): questions answered by a fact that changed, and the supersessions found.
const current: CurrentReport[] = [await runCurrentFacts('dev', embedder, k)];
if (values['held-out']) current.push(await runCurrentFacts('held-out', embedder, k));
// What `learn` keeps of chat turns, against a careful reader (issue 70).
const extraction: ExtractionReport[] = [await runExtraction('dev', embedder)];
if (values['held-out']) extraction.push(await runExtraction('held-out', embedder));
const typed: {
  corpus: string;
  split: Split;
  report: TypingReport;
  words: TypingReport;
  orama: TypingReport;
}[] = [];
/**
 * Questions the typing simulation types per corpus: every ⌈n / 60⌉-th of the line's (a recall per
 * keystroke, three systems: the whole dev lines of issue 42 would triple bench:quality's time).
 */
const TYPED_QUESTIONS = 60;
const typedSample = (conv: Conversation[]): Conversation[] =>
  conv.map((c) => {
    const step = Math.ceil(c.questions.length / TYPED_QUESTIONS);
    return { ...c, questions: c.questions.filter((_, i) => i % step === 0) };
  });
for (const line of lines.filter((l) => ['notes', 'pages'].includes(l.corpus))) {
  const conv = typedSample(line.conv);
  typed.push({
    corpus: line.corpus,
    split: line.split,
    report: await runTyping(conv, { embedder, k }),
    // the same keystrokes with the last word read as a whole word (recall before `typing`)
    words: await runTyping(conv, { embedder, k, typing: false }),
    // the same keystrokes through Orama hybrid, typo tolerance 1 and prefix matching
    orama: await runTypingOrama(conv, { embedder, k }),
  });
}
const crossLines = [
  [
    'notes ↔ pages',
    lines.filter((l) => ['notes', 'pages'].includes(l.corpus) && l.split === 'dev'),
  ],
  ['LoCoMo conversations', lines.filter((l) => l.corpus.startsWith('chat'))],
] as const;
const cross: { name: string; rate: Awaited<ReturnType<typeof crossStoreNoAnswer>> }[] = [];
for (const [name, group] of crossLines) {
  const conversations = group.flatMap((l) => l.conv);
  if (conversations.length > 1)
    cross.push({ name, rate: await crossStoreNoAnswer(conversations, embedder, k) });
}
const seconds = (performance.now() - t0) / 1000;

const fmt = (x: number) => x.toFixed(3);
/** The commits that froze the corpora's held-out splits (issue 42), before any ranker ran on them. */
const HELD_OUT_FREEZE = heldOutFreezes(
  corpora.filter((c) => c.splits['held-out']).map((c) => c.name),
);
/** How the intervals were drawn, in words. */
const INTERVAL_WORDS =
  '2,000 resamples of the questions, seed 42; the differences paired per question';
/** A line's four intervals as table cells. */
const intervalCells = (ci: LineIntervals) => [
  formatInterval(ci.recall),
  formatInterval(ci.mrr),
  formatInterval(ci.recallVsBm25, true),
  formatInterval(ci.mrrVsBm25, true),
];
const shown: readonly string[] = SHOWN;
/** What Orama tokenizes each corpus with, in words for the report. */
const byTokenizer = new Map<string, string[]>();
for (const corpus of new Set(results.map((r) => r.line.corpus))) {
  const tokenizer = ORAMA_TOKENIZERS[corpusLanguage(corpus)];
  byTokenizer.set(tokenizer, [...(byTokenizer.get(tokenizer) ?? []), corpus]);
}
const oramaSentence = `Orama hybrid runs on the same vectors with no similarity floor and its default hybrid weights, and with its tokenizer for each corpus's language: ${[
  ...byTokenizer,
]
  .map(([tokenizer, corpora]) => `${corpora.join(', ')}: ${tokenizer}`)
  .join('; ')}.`;
/** How the tuned BM25 was tuned, and what it chose per corpus. */
const bm25Sentence = `BM25 tuned: MiniSearch's BM25 (Okapi: \`d\` 0, its matched-word factor divided out) over Orama's words for each language, k1 in {${BM25_GRID.k1.join(', ')}} and b in {${BM25_GRID.b.join(', ')}} chosen per corpus by nDCG@10 on its dev questions: ${[
  ...bm25Tuned,
]
  .map(([c, p]) => `${c} ${p.k1} / ${p.b}${p.tuned ? '' : ' (untuned: no dev line)'}`)
  .join(', ')}. BM25 alone is the engine's FTS5 leg (k1 1.2, b 0.75).`;
console.log(
  `bench:quality: ${lines.length} corpus lines, k = ${k}, model ${embedder.id}${modelDir ? ` from ${modelDir}` : ''}, ${seconds.toFixed(1)} s`,
);
console.log(
  `${'corpus'.padEnd(16)} ${'split'.padEnd(9)} ${'q'.padStart(4)}  ${shown.map((n) => `${n} R@${k} / MRR / nDCG`.padEnd(26)).join(' ')}`,
);
for (const { line, reports } of results) {
  const cells = shown.map((n) => {
    const r = reports[n]!;
    return `${fmt(r.recall)} / ${fmt(r.mrr)} / ${fmt(r.ndcg10)}`.padEnd(26);
  });
  const gain = reports.default!.recall - reports.bm25!.recall;
  console.log(
    `${line.corpus.padEnd(16)} ${line.split.padEnd(9)} ${String(reports.default!.questions).padStart(4)}  ${cells.join(' ')} ${gain >= 0 ? '+' : ''}${fmt(gain)} vs bm25`,
  );
}
console.log(
  `\n95% bootstrap intervals (${INTERVAL_WORDS}): default R@${k}, default MRR, default − bm25 R@${k}, default − bm25 MRR`,
);
for (const { line, ci } of results)
  console.log(`${line.corpus.padEnd(16)} ${line.split.padEnd(9)} ${intervalCells(ci).join('  ')}`);
console.log(`${oramaSentence}\n${bm25Sentence}`);

/** Orama's score of a kind of the suite on a split (hit@1 / MRR / R@k). */
const oramaKind = (suite: string, split: Split, kind: string) => {
  const s = searchBoxOrama
    .find((r) => r.suite === suite && r.split === split)
    ?.kinds.find((x) => x.kind === kind);
  return s ? `${fmt(s.hit1)} / ${fmt(s.mrr)} / ${fmt(s.recall)}` : '—';
};
console.log(
  `\nsearch box (the search-box and meaning suites, default profile and options): hit@1 / MRR / R@${k} / weak best | Orama hybrid, typo tolerance 1: hit@1 / MRR / R@${k}`,
);
for (const r of searchBox) {
  for (const s of r.kinds)
    console.log(
      `  ${r.suite.padEnd(10)} ${r.split.padEnd(9)} ${s.kind.padEnd(12)} ${String(s.queries).padStart(3)}  ${fmt(s.hit1)} / ${fmt(s.mrr)} / ${fmt(s.recall)} / ${fmt(s.weak)} | ${oramaKind(r.suite, r.split, s.kind)}`,
    );
}
console.log(
  '\nno related memory: queries whose answer is not in the store, answered with nothing or only weak results',
);
for (const r of searchBox)
  console.log(
    `  ${`${r.suite} ${r.split}`.padEnd(21)} ${String(r.noAnswer.queries).padStart(4)}  ${fmt(r.noAnswer.rate)} (${r.noAnswer.empty} empty, ${r.noAnswer.onlyWeak} only weak)`,
  );
for (const c of cross)
  console.log(
    `  ${c.name.padEnd(21)} ${String(c.rate.queries).padStart(4)}  ${fmt(c.rate.rate)} (${c.rate.empty} empty, ${c.rate.onlyWeak} only weak)`,
  );
console.log(
  '\ncurrent facts (current/ suite): current fact first / its match weak / an older fact above it | supersessions found, precision / recall against a careful reader',
);
for (const r of current)
  console.log(
    `  ${r.split.padEnd(9)} ${String(r.questions).padStart(3)}  ${fmt(r.currentFirst)} / ${fmt(r.weak)} / ${fmt(r.oldAbove)} | ${r.supersessions.found} found, ${fmt(r.supersessions.precision)} / ${fmt(r.supersessions.recall)}${r.supersessions.wrong.length > 0 ? ` (wrong: ${r.supersessions.wrong.join(', ')})` : ''}`,
  );
console.log(
  '\nlearn (current/ extraction set: chat turns, one store each): facts a careful reader keeps, stored | precision / recall',
);
for (const r of extraction)
  console.log(
    `  ${r.split.padEnd(9)} ${String(r.turns).padStart(3)} turns  ${r.expected} facts, ${r.stored} stored | ${fmt(r.precision)} / ${fmt(r.recall)}${r.wrong.length > 0 ? ` (not a fact: ${r.wrong.join('; ')})` : ''}${r.missed.length > 0 ? ` (missed: ${r.missed.join('; ')})` : ''}`,
  );
console.log(
  '\nmatch strength: answers found (a target in the first k) but marked weak, goal ≤ 0.05 | queries about nothing stored answered strong (not all weak), goal ≤ 0.10',
);
for (const { line, reports } of results) {
  const f = reports.default!.foundWeak!;
  console.log(
    `  ${`${line.corpus} ${line.split}`.padEnd(26)} found ${String(f.found).padStart(4)}  weak ${fmt(f.rate)}`,
  );
}
for (const r of searchBox)
  console.log(
    `  ${`${r.suite} ${r.split}`.padEnd(26)} found ${String(r.foundWeak.found).padStart(4)}  weak ${fmt(r.foundWeak.rate)} | none ${String(r.noAnswer.queries).padStart(4)}  strong ${fmt(1 - r.noAnswer.rate)}`,
  );
for (const c of cross)
  console.log(
    `  ${c.name.padEnd(26)} ${' '.repeat(21)} | none ${String(c.rate.queries).padStart(4)}  strong ${fmt(1 - c.rate.rate)}`,
  );
console.log(
  `\ntyping simulation: every ⌈n / ${TYPED_QUESTIONS}⌉-th dev question typed one character at a time; MRR over every keystroke, at ¼ / ½ / ¾ / all of it, share first (typing: true | the last word a whole word | Orama hybrid, typo tolerance 1: MRR, ¼ / ½ / ¾ / all, first)`,
);
for (const t of typed)
  console.log(
    `  ${t.corpus.padEnd(6)} ${t.split.padEnd(9)} ${String(t.report.keystrokes).padStart(5)} keys  ${fmt(t.report.mrr)}  ${fmt(t.report.at.quarter)} / ${fmt(t.report.at.half)} / ${fmt(t.report.at.threeQuarters)} / ${fmt(t.report.at.whole)}  ${fmt(t.report.first)}  | ${fmt(t.words.mrr)}  | ${fmt(t.orama.mrr)}  ${fmt(t.orama.at.quarter)} / ${fmt(t.orama.at.half)} / ${fmt(t.orama.at.threeQuarters)} / ${fmt(t.orama.at.whole)}  ${fmt(t.orama.first)}`,
  );

const ablated = Object.keys(results[0]!.reports).filter((n) => n.startsWith('− '));
if (ablated.length > 0) {
  console.log(`\nablation: recall@${k} of default, and of default with one signal removed`);
  console.log(
    `${'corpus'.padEnd(16)} ${'split'.padEnd(9)} ${'default'.padEnd(8)} ${ablated.map((n) => n.padEnd(13)).join(' ')}`,
  );
  for (const { line, reports } of results)
    console.log(
      `${line.corpus.padEnd(16)} ${line.split.padEnd(9)} ${fmt(reports.default!.recall).padEnd(8)} ${ablated.map((n) => fmt(reports[n]!.recall).padEnd(13)).join(' ')}`,
    );
  // MRR shows a leg's share where recall@k is at its ceiling (every answer already in the top k).
  console.log(`
ablation: MRR of default, and of default with one signal removed`);
  for (const { line, reports } of results)
    console.log(
      `${line.corpus.padEnd(16)} ${line.split.padEnd(9)} ${fmt(reports.default!.mrr).padEnd(8)} ${ablated.map((n) => fmt(reports[n]!.mrr).padEnd(13)).join(' ')}`,
    );
}

const label = (l: Line) => `${l.corpus} ${l.split}`;
/** The ablation table (header first): recall@k of `default` and of it without each signal. */
const ablationRows = (defaultName: string) => [
  ['corpus', 'split', defaultName, ...ablated],
  ...results.map(({ line, reports }) => [
    line.corpus,
    line.split,
    fmt(reports.default!.recall),
    ...ablated.map((n) => fmt(reports[n]!.recall)),
  ]),
];
if (values.html) {
  writeReport(values.html, {
    title: 'anamnesis bench:quality',
    intro: [
      `${lines.length} corpus lines, k = ${k}, model ${embedder.id}; ${new Date().toISOString()}.`,
      'Each corpus in its own store; baselines run in the same process on the same embeddings. Dev questions only: the held-out questions are scored by bench:heldout alone.',
    ],
    charts: [
      {
        title: `Recall@${k} per corpus and split`,
        note: 'One group per corpus line, one bar per ranker.',
        config: {
          type: 'bar',
          data: {
            labels: results.map((r) => label(r.line)),
            datasets: shown.map((n, i) => ({
              label: n,
              data: results.map((r) => r.reports[n]!.recall),
              backgroundColor: ['#1f77b4', '#9a9a9a', '#6b4c9a', '#ff7f0e', '#2ca02c'][i],
            })),
          },
          options: { scales: { y: { min: 0, max: 1 } } },
        },
      },
    ],
    tables: [
      {
        title: 'Numbers (recall@k / MRR / nDCG@10)',
        rows: [
          ['corpus', 'split', 'questions', ...shown],
          ...results.map(({ line, reports }) => [
            line.corpus,
            line.split,
            reports.default!.questions,
            ...shown.map((n) => {
              const r = reports[n]!;
              return `${fmt(r.recall)} / ${fmt(r.mrr)} / ${fmt(r.ndcg10)}`;
            }),
          ]),
        ],
      },
      ...(ablated.length > 0
        ? [
            {
              title: `Ablation: recall@${k} with one signal removed`,
              rows: ablationRows('default'),
            },
          ]
        : []),
    ],
  });
  console.log(`wrote ${values.html}`);
}

if (values.docs) {
  const names: Record<string, string> = {
    default: '`default`',
    bm25: 'BM25 alone',
    'bm25-tuned': 'BM25 tuned',
    'orama-hybrid': 'Orama hybrid',
    'tfidf-default': '`tfidf` + `default`',
  };
  const body = [
    `Each corpus in its own store, model ${embedder.id}, k = ${k}; R@${k} / MRR / nDCG@10 per ranker, on the dev questions only. Corpora, their sources, licences and splits: \`apps/bench/corpora/*/PROVENANCE.md\`. The held-out questions (about a third of those written for issue 42; frozen in commits ${HELD_OUT_FREEZE} before any ranker ran on them) are scored only by \`pnpm bench:heldout\`, which prints aggregates only (docs/benchmarks.md says when it was run). ${oramaSentence} ${bm25Sentence} ${seconds.toFixed(0)} s.`,
    '',
    markdownTable([
      ['corpus', 'split', 'questions', ...shown.map((n) => names[n] ?? n)],
      ...results.map(({ line, reports }) => [
        line.corpus,
        line.split,
        String(reports.default!.questions),
        ...shown.map((n) => {
          const r = reports[n]!;
          return `${fmt(r.recall)} / ${fmt(r.mrr)} / ${fmt(r.ndcg10)}`;
        }),
      ]),
    ]),
    '',
    `95% bootstrap intervals per line (${INTERVAL_WORDS}): how far a line could move with another draw of questions like these. A \`default\` − BM25 interval that excludes 0 separates the two on that line.`,
    '',
    markdownTable([
      [
        'corpus',
        'split',
        `\`default\` R@${k}`,
        '`default` MRR',
        `\`default\` − BM25 R@${k}`,
        '`default` − BM25 MRR',
      ],
      ...results.map(({ line, ci }) => [line.corpus, line.split, ...intervalCells(ci)]),
    ]),
  ];
  if (ablated.length > 0)
    body.push(
      '',
      `Ablation: recall@${k} of \`default\`, and of \`default\` with one signal removed.`,
      '',
      markdownTable(ablationRows('`default`')),
    );
  body.push(
    '',
    `The search box (issues 38 and 66): the search-box suite (\`apps/bench/search-box/\`: prefixes, typos, codes, sites…) and the meaning suite (\`apps/bench/meaning/\`: time words, whole matches and negation, long notes, paraphrase, other languages), our own texts, every third query of each kind held out; \`default\` with recall's default options (\`minMatch\` 0.1; \`typing\` for the prefix kind): hit@1 / MRR / R@${k}, and the share whose best result was weak (an app would have said "no match"); beside it Orama hybrid on the same vectors with typo tolerance 1 and its prefix matching (always on), for every kind, on the dev split only.`,
    '',
    markdownTable([
      [
        'suite',
        'split',
        'kind',
        'queries',
        `hit@1 / MRR / R@${k}`,
        'weak best',
        `Orama, tolerance 1: hit@1 / MRR / R@${k}`,
      ],
      ...searchBox.flatMap((r) =>
        r.kinds.map((s) => [
          r.suite,
          r.split,
          s.kind,
          String(s.queries),
          `${fmt(s.hit1)} / ${fmt(s.mrr)} / ${fmt(s.recall)}`,
          fmt(s.weak),
          oramaKind(r.suite, r.split, s.kind),
        ]),
      ),
    ]),
    '',
    "No related memory: queries whose answer is not in the store, answered with nothing or with weak results only (`RecallResult.weak`). The cross-store lines ask one corpus's questions of another's store (related texts: the hard case).",
    '',
    markdownTable([
      ['queries', 'asked', 'rate', 'empty', 'only weak'],
      ...searchBox.map((r) => [
        `${r.suite} ${r.split}`,
        String(r.noAnswer.queries),
        fmt(r.noAnswer.rate),
        String(r.noAnswer.empty),
        String(r.noAnswer.onlyWeak),
      ]),
      ...cross.map((c) => [
        c.name,
        String(c.rate.queries),
        fmt(c.rate.rate),
        String(c.rate.empty),
        String(c.rate.onlyWeak),
      ]),
    ]),
    '',
    `Typing simulation: every ⌈n / ${TYPED_QUESTIONS}⌉-th dev question (${TYPED_QUESTIONS} at most a corpus) typed one character at a time (\`typing: true\`), the target's reciprocal rank after every keystroke (k = ${k}); MRR over all keystrokes, at a quarter, half, three quarters and all of each question, and the share of keystrokes with the target first; beside it the same keystrokes with the last word read as a whole word (recall without \`typing\`), and through Orama hybrid with typo tolerance 1 and its prefix matching.`,
    '',
    markdownTable([
      [
        'corpus',
        'split',
        'keystrokes',
        'MRR',
        '¼ / ½ / ¾ / all',
        'first',
        'MRR without typing',
        'Orama, tolerance 1: MRR',
        '¼ / ½ / ¾ / all',
        'first',
      ],
      ...typed.map((t) => [
        t.corpus,
        t.split,
        String(t.report.keystrokes),
        fmt(t.report.mrr),
        `${fmt(t.report.at.quarter)} / ${fmt(t.report.at.half)} / ${fmt(t.report.at.threeQuarters)} / ${fmt(t.report.at.whole)}`,
        fmt(t.report.first),
        fmt(t.words.mrr),
        fmt(t.orama.mrr),
        `${fmt(t.orama.at.quarter)} / ${fmt(t.orama.at.half)} / ${fmt(t.orama.at.threeQuarters)} / ${fmt(t.orama.at.whole)}`,
        fmt(t.orama.first),
      ]),
    ]),
  );
  writeMeasurements({
    id: 'quality',
    title: 'Recall quality on every corpus',
    command: commandLine('bench:quality'),
    body: body.join('\n'),
  });
}

if (values.json) {
  const metrics = (r: Report) => ({
    questions: r.questions,
    [`recall@${k}`]: r.recall,
    mrr: r.mrr,
    'ndcg@10': r.ndcg10,
  });
  console.log(
    JSON.stringify({
      k,
      lines: results.map(({ line, reports, ci }) => ({
        corpus: line.corpus,
        split: line.split,
        rankers: Object.fromEntries(Object.entries(reports).map(([n, r]) => [n, metrics(r)])),
        foundWeak: reports.default!.foundWeak,
        intervals95: ci,
      })),
      bm25Tuned: Object.fromEntries(bm25Tuned),
      searchBox,
      searchBoxOrama,
      noRelatedMemory: [
        ...searchBox.map((r) => ({ name: `${r.suite} ${r.split}`, ...r.noAnswer })),
        ...cross.map((c) => ({ name: c.name, ...c.rate })),
      ],
      typing: typed,
      currentFacts: current,
      extraction,
    }),
  );
}
