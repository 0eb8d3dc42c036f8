/**
 * Builds variants of the English model (`anamnesis/glove-100d-sif`, `lib/model.ts`) in memory
 * (source parsed once), writes each to a temp dir, and scores it with the LoCoMo dev evaluation
 * through transformers.js. Prints a Markdown table.
 *
 *   pnpm --filter @anamnesis/model-default sweep [-- --data DIR] [--only NAME]
 *
 * The dev conversations are for development only: read the table for trends, not for the last
 * digit; the shipped defaults are chosen on principle where the differences are small.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { env, pipeline } from '@huggingface/transformers';

import { cliArgs } from './lib/cli.ts';
import { evaluate, loadConversations } from './lib/locomo.ts';
import { buildModel, DEFAULT_BUILD_OPTIONS, type BuildOptions } from './lib/model.ts';
import { loadSource } from './lib/source.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Variant {
  name: string;
  options: Partial<BuildOptions>;
  /** Post-edit of tokenizer.json (e.g. switch lowercasing off). */
  tokenizer?: (tok: { normalizer: { lowercase: boolean } }) => void;
}

const variants: Variant[] = [
  { name: 'default', options: {} },
  { name: 'plain mean (no SIF, no PC)', options: { sifA: 1e9, removeComponents: 0 } },
  { name: 'SIF only (no PC)', options: { removeComponents: 0 } },
  { name: 'PC only (no SIF)', options: { sifA: 1e9 } },
  { name: '1 PC, frequency weighting', options: { componentWeighting: 'frequency' } },
  { name: '2 PCs', options: { removeComponents: 2 } },
  { name: 'a = 1e-4', options: { sifA: 1e-4 } },
  { name: 'a = 3e-4', options: { sifA: 3e-4 } },
  { name: 'a = 3e-3', options: { sifA: 3e-3 } },
  { name: 'vocab 30k', options: { vocabSize: 30_000 } },
  { name: 'vocab 65k', options: { vocabSize: 65_000 } },
  { name: 'no ## pieces', options: { subwords: 'none' } },
  { name: 'punctuation rows kept (SIF-weighted)', options: { punctuation: 'sif' } },
  {
    name: 'no lowercasing',
    options: {},
    tokenizer: (tok) => {
      tok.normalizer.lowercase = false;
    },
  },
  { name: 'dims 64', options: { dims: 64 } },
  { name: 'dims 64, vocab 80k', options: { dims: 64, vocabSize: 80_000 } },
  { name: 'dims 50', options: { dims: 50 } },
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      data: { type: 'string', default: resolve(packageDir, '../../../shared/data/locomo-dev') },
      only: { type: 'string' },
    },
  });
  const { glove } = loadSource(join(packageDir, '.cache'), (m) => console.error(m));
  const conversations = loadConversations(resolve(values.data));
  env.allowRemoteModels = false;
  env.useFSCache = false;
  console.log('| variant | size (MB) | R@10 | R@5 | MRR | nDCG@10 | cat1 | cat2 | cat3 | cat4 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [i, variant] of variants.entries()) {
    if (values.only && !variant.name.includes(values.only)) continue;
    const root = mkdtempSync(join(tmpdir(), 'anamnesis-sweep-'));
    try {
      const modelId = `sweep/v${i}`;
      const built = buildModel(glove, { ...DEFAULT_BUILD_OPTIONS, ...variant.options, modelId });
      let bytes = 0;
      for (const [name, data] of built.files) {
        let out = data;
        if (variant.tokenizer && name.endsWith('/tokenizer.json')) {
          const tok = JSON.parse(new TextDecoder().decode(data));
          variant.tokenizer(tok);
          out = new TextEncoder().encode(JSON.stringify(tok));
        }
        mkdirSync(dirname(join(root, name)), { recursive: true });
        writeFileSync(join(root, name), out);
        bytes += out.length;
      }
      env.localModelPath = root + '/';
      const fe = await pipeline('feature-extraction', modelId);
      const t = await evaluate(fe, conversations);
      await fe.dispose();
      const f = (x: number | undefined) => (x ?? NaN).toFixed(3);
      console.log(
        `| ${variant.name} | ${(bytes / 1e6).toFixed(2)} | ${f(t.all!.recall10)} | ${f(t.all!.recall5)} | ${f(t.all!.mrr)} | ${f(t.all!.ndcg10)} | ` +
          `${f(t.cat1?.recall10)} | ${f(t.cat2?.recall10)} | ${f(t.cat3?.recall10)} | ${f(t.cat4?.recall10)} |`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}

await main();
