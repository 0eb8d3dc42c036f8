/**
 * `pnpm bench:match-strength -- [--locomo DIR] [--out FILE]`: match strength's trade-off on the
 * dev questions (issue 66). For every dev line (LoCoMo with `--locomo`, the corpora, the
 * search-box and meaning suites) and for questions whose answer is not stored (each notes or
 * pages store asked the other's questions, the next LoCoMo conversation asked each one's, and the
 * suites' `none` kind), recall with `minMatch` 0 and every result's evidence; then, for a weak
 * threshold of 0.15 to 0.35 on `match` (recall's is `WEAK_MATCH`, 0.3), the two rates
 * `bench:quality` reports: answers found (a target in the first 10) but weak, and questions about
 * nothing stored answered strong. `--out` writes each question's results and evidence as JSON
 * Lines (what a calibration would be fitted on). Dev splits only.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEngine, createModelEmbedder, type RememberInput } from '@anamnesis/engine';
import { benchEmbedderOptions, benchModelDir } from './bench-model.ts';
import { loadLocomo, type Conversation } from './locomo.ts';
import { loadCorpora } from './quality-corpora.ts';
import { MEANING, SEARCH_BOX } from './search-box.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { locomo: { type: 'string' }, out: { type: 'string' } },
});
const cwd = process.env.INIT_CWD ?? process.cwd();
const K = 10;
const THRESHOLDS = [0.15, 0.2, 0.25, 0.3, 0.35];

/** One question as recall answered it: each result's match and its parts. */
interface Asked {
  line: string;
  query: string;
  /** Whether the store holds an answer (the question has targets). */
  answered: boolean;
  results: {
    target: boolean;
    match: number;
    lexical?: number;
    meaning?: number;
    time?: boolean;
    chars: number;
  }[];
}

const embedder = await createModelEmbedder(await benchEmbedderOptions(benchModelDir(undefined)));
const asked: Asked[] = [];

/** Asks `questions` of a fresh store of `memories` (targets: the ids that answer; none: nothing stored does). */
async function ask(
  line: string,
  memories: readonly RememberInput[],
  askedAt: number,
  questions: readonly { text: string; targets: readonly string[]; typing?: boolean }[],
): Promise<void> {
  const engine = await createEngine({ storage: 'memory', embedder, now: () => askedAt });
  try {
    await engine.rememberMany(memories);
    for (const q of questions) {
      const results = await engine.recall(q.text, {
        topK: K,
        noCache: true,
        explain: true,
        minMatch: 0,
        typing: q.typing ?? false,
      });
      asked.push({
        line,
        query: q.text,
        answered: q.targets.length > 0,
        results: results.map((r) => ({
          target: q.targets.includes(r.id),
          match: r.match ?? 0,
          lexical: r.explain?.match?.lexical,
          meaning: r.explain?.match?.meaning,
          time: r.explain?.match?.time,
          chars: r.text.length,
        })),
      });
    }
  } finally {
    await engine.close();
  }
}

const questionsOf = (c: Conversation, answered = true) =>
  c.questions.map((q) => ({ text: q.text, targets: answered ? q.evidence : [] }));
const lines: { name: string; conv: Conversation[] }[] = [];
if (values.locomo) lines.push({ name: 'LoCoMo', conv: loadLocomo(resolve(cwd, values.locomo)) });
for (const c of loadCorpora(fileURLToPath(new URL('../corpora', import.meta.url))))
  if (c.splits.dev) lines.push({ name: c.name, conv: [c.splits.dev] });
for (const l of lines)
  for (const c of l.conv) await ask(l.name, c.memories, c.askedAt, questionsOf(c));
for (const s of [SEARCH_BOX, MEANING])
  await ask(
    s.name,
    s.memories,
    s.askedAt,
    s.cases
      .filter((c) => c.split === 'dev')
      .map((c) => ({ text: c.query, targets: c.targets, typing: c.typing ?? false })),
  );
// questions whose answer is not stored: each one's questions asked of the next one's store (as
// bench:quality's cross-store lines)
const cross = async (name: string, convs: readonly Conversation[]) => {
  for (const [i, conv] of convs.entries()) {
    const store = convs[(i + 1) % convs.length]!;
    if (store !== conv) await ask(name, store.memories, store.askedAt, questionsOf(conv, false));
  }
};
await cross(
  'notes ↔ pages',
  lines.filter((l) => l.name === 'notes' || l.name === 'pages').flatMap((l) => l.conv),
);
await cross('LoCoMo ↔ LoCoMo', lines.find((l) => l.name === 'LoCoMo')?.conv ?? []);
if (values.out) writeFileSync(values.out, asked.map((a) => JSON.stringify(a)).join('\n') + '\n');

const fmt = (x: number) => x.toFixed(2);
const names = [...new Set(asked.map((a) => a.line))];
console.log(
  `bench:match-strength: ${asked.length} dev questions; by weak threshold on match: answers found in the first ${K} but weak | questions about nothing stored answered strong`,
);
for (const t of THRESHOLDS) {
  const cells = names.map((name) => {
    const of = asked.filter((a) => a.line === name);
    const found = of.flatMap((a) =>
      a.answered ? a.results.filter((r) => r.target).slice(0, 1) : [],
    );
    const none = of.filter((a) => !a.answered);
    const weak = found.filter((r) => r.match < t).length;
    const strong = none.filter((a) => a.results.some((r) => r.match >= t)).length;
    return [
      found.length > 0 ? `${name} ${fmt(weak / found.length)}` : '',
      none.length > 0 ? `${name} ${fmt(strong / none.length)}` : '',
    ];
  });
  console.log(
    `  ${t.toFixed(2)}  weak: ${cells
      .map((c) => c[0])
      .filter(Boolean)
      .join(', ')} | strong: ${cells
      .map((c) => c[1])
      .filter(Boolean)
      .join(', ')}`,
  );
}
