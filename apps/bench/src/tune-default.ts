/**
 * `pnpm --filter @anamnesis/bench exec tsx src/tune-default.ts --data DIR`: the grid the `default`
 * profile was chosen from (RRF constant, vector and date weights, context, speaker; `grid.ts`), on LoCoMo
 * dev data, best first.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createModelEmbedder, defaultEmbedderOptions } from '@anamnesis/engine';
import { defaultGrid } from './grid.ts';
import { loadLocomo, runLocomo } from './locomo.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { data: { type: 'string' } },
});
const conversations = loadLocomo(
  resolve(process.env.INIT_CWD ?? process.cwd(), values.data ?? '../shared/data/locomo-dev'),
);
const embedder = await createModelEmbedder(await defaultEmbedderOptions());
const reports = await runLocomo(conversations, defaultGrid(), { embedder, k: 10 });
for (const [name, r] of Object.entries(reports).sort((a, b) => b[1].recall - a[1].recall)) {
  console.log(
    `${name.padEnd(34)} R@10 ${r.recall.toFixed(3)}  MRR ${r.mrr.toFixed(3)}  nDCG ${r.ndcg10.toFixed(3)}`,
  );
}
