/**
 * Vector-only retrieval quality of the built model on LoCoMo dev conversations, through
 * transformers.js in Node exactly as the engine will run it.
 *
 *   pnpm --filter @anamnesis/model-default eval:locomo [-- --data DIR] [--root DIR] [--id ID] [--json]
 *
 * Each conversation is its own corpus: every turn is a document (`${speaker}: ${text}`, keyed by
 * dia_id); every question of category 1–4 with non-empty evidence is a query. Scores by cosine;
 * recall@k = |evidence ∩ top-k| / |evidence|, averaged over questions; also MRR (first evidence
 * hit) and nDCG@10 (binary gains), overall and per category.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { env, pipeline } from '@huggingface/transformers';

import { MODEL_ID } from '../src/index.ts';
import { cliArgs } from './lib/cli.ts';
import { evaluate, loadConversations } from './lib/locomo.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      data: { type: 'string', default: resolve(packageDir, '../../../shared/data/locomo-dev') },
      root: { type: 'string', default: join(packageDir, 'model') },
      id: { type: 'string', default: MODEL_ID },
      json: { type: 'boolean', default: false },
    },
  });
  env.allowRemoteModels = false;
  env.localModelPath = resolve(values.root) + '/';
  const fe = await pipeline('feature-extraction', values.id);
  const conversations = loadConversations(resolve(values.data));
  const totals = await evaluate(fe, conversations);
  if (values.json) {
    console.log(JSON.stringify(totals));
    return;
  }
  const f = (x: number) => x.toFixed(4);
  console.log('split   n     R@5     R@10    MRR     nDCG@10');
  for (const [k, t] of Object.entries(totals).sort()) {
    console.log(
      `${k.padEnd(6)} ${String(t.n).padStart(4)}  ${f(t.recall5)}  ${f(t.recall10)}  ${f(t.mrr)}  ${f(t.ndcg10)}`,
    );
  }
}

await main();
