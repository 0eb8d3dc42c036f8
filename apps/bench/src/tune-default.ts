/**
 * `pnpm --filter @anamnesis/bench exec tsx src/tune-default.ts --data DIR`: the small, principled
 * grid the `default` profile was chosen from (RRF constant, leg weights, MMR), on LoCoMo dev data.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTransformersEmbedder,
  defaultEmbedderOptions,
  DEFAULT_PROFILE,
} from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';
import { loadLocomo, runLocomo } from './locomo.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { data: { type: 'string' } },
});
const conversations = loadLocomo(
  resolve(process.env.INIT_CWD ?? process.cwd(), values.data ?? '../shared/data/locomo-dev'),
);
const embedder = await createTransformersEmbedder(await defaultEmbedderOptions());

const variant = (
  name: string,
  k: number,
  fts: number,
  vector: number,
  mmr: ScoringProfile['mmr'] = null,
): ScoringProfile => ({
  ...DEFAULT_PROFILE,
  name,
  fusion: {
    kind: 'rrf',
    k,
    weights: { fts, vector, graph: 0.3 },
    defaultWeight: 1,
    absent: 'skip',
    memoryScoreWeight: 0,
  },
  mmr,
});
const grid: Record<string, ScoringProfile> = {};
for (const k of [10, 30, 60])
  for (const [f, v] of [
    [1, 1],
    [1, 0.7],
    [1, 0.5],
    [0.7, 1],
  ] as const)
    grid[`k${k} f${f} v${v}`] = variant(`k${k}`, k, f, v);
grid['k30 f1 v0.7 mmr0.9'] = variant('mmr', 30, 1, 0.7, {
  lambda: 0.9,
  duplicateThreshold: 0.94,
  tagWeight: 0.35,
});
const reports = await runLocomo(conversations, grid, { embedder, k: 10 });
for (const [name, r] of Object.entries(reports).sort((a, b) => b[1].recall - a[1].recall)) {
  console.log(
    `${name.padEnd(22)} R@10 ${r.recall.toFixed(3)}  MRR ${r.mrr.toFixed(3)}  nDCG ${r.ndcg10.toFixed(3)}`,
  );
}
