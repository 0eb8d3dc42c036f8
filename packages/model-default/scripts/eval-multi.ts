/**
 * Cross-language retrieval of built static models on the Debian descriptions held out of training
 * (`lib/training-data.ts`: split by source package; `validation` for choices, `test` reported once):
 * for each language paired with English, a short description in one language finds the same
 * package's long description in the other, among the long descriptions of every held-out package
 * that has both (at most `--cap`, 1000 by default); also each language's own short → long.
 * Recall@10 and MRR, per model, from the model files with the engine's arithmetic; a model that is
 * not static (its `config.json` names no `"kind": "static-embedding"`, such as the word-order
 * experiment `anamnesis/order-128`) through transformers.js on onnxruntime-node, as the engine runs
 * it (mean pooling, unit length), every text embedded once before the same scoring.
 *
 *   pnpm --filter @anamnesis/model-default eval:multi -- [--split validation|test] [--cap N] [--json]
 *       [--model ROOT=ID ...]   (default: the default model and the English model)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { ENGLISH_MODEL_ID, MODEL_ID } from '../src/index.ts';
import { cliArgs } from './lib/cli.ts';
import { LANGUAGES } from './lib/ddtp.ts';
import { evaluationPackages } from './lib/leakage.ts';
import { loadTrainingData, SPLIT_SALT, type Split } from './lib/training-data.ts';
import { crossLanguage, fileEmbedder, type Embed } from './lib/xeval.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * An {@link Embed} over an ONNX model through transformers.js: `crossLanguage` is run once to
 * collect the texts (a zero vector each), they are embedded in batches, then looked up.
 */
async function onnxEmbedder(root: string, id: string, run: (e: Embed) => unknown): Promise<Embed> {
  const texts = new Set<string>();
  run((text) => {
    texts.add(text);
    return new Float64Array(1);
  });
  const { env, pipeline } = await import('@huggingface/transformers');
  env.localModelPath = root;
  env.allowRemoteModels = false;
  const extract = await pipeline('feature-extraction', id, { dtype: 'q8' });
  const vectors = new Map<string, Float64Array>();
  const list = [...texts];
  for (let i = 0; i < list.length; i += 64) {
    const batch = list.slice(i, i + 64);
    const out = await extract(batch, { pooling: 'mean', normalize: true });
    const dims = out.dims[1]!;
    const data = out.data as Float32Array;
    batch.forEach((t, k) =>
      vectors.set(t, Float64Array.from(data.subarray(k * dims, (k + 1) * dims))),
    );
  }
  await extract.dispose();
  return (text) => vectors.get(text)!;
}

/** Whether the model under `root` is a static one (read by {@link fileEmbedder}). */
function isStatic(root: string, id: string): boolean {
  const config = JSON.parse(readFileSync(join(root, id, 'config.json'), 'utf8')) as {
    anamnesis?: { kind?: string };
  };
  return config.anamnesis?.kind === 'static-embedding';
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      split: { type: 'string', default: 'validation' },
      cap: { type: 'string', default: '1000' },
      cache: { type: 'string' },
      json: { type: 'boolean', default: false },
      model: { type: 'string', multiple: true },
    },
  });
  const split = values.split as Split;
  if (split !== 'validation' && split !== 'test') throw new Error('--split validation|test');
  const models = (
    values.model ?? [
      `${join(packageDir, 'model')}=${MODEL_ID}`,
      `${join(packageDir, 'english')}=${ENGLISH_MODEL_ID}`,
    ]
  ).map((spec) => {
    const at = spec.lastIndexOf('=');
    return { root: resolve(spec.slice(0, at)), id: spec.slice(at + 1) };
  });
  const cacheDir = resolve(values.cache ?? join(packageDir, '.cache'));
  const log = (m: string) => console.error(`[eval:multi] ${m}`);
  const data = loadTrainingData(
    cacheDir,
    evaluationPackages(resolve(packageDir, '../../apps/bench/corpora')),
    SPLIT_SALT,
    log,
  );
  const results: Record<string, Record<string, { n: number; recall10: number; mrr: number }>> = {};
  for (const { root, id } of models) {
    const run = (embed: Embed) =>
      crossLanguage(embed, data.items, split, LANGUAGES, Number(values.cap));
    results[id] = run(
      isStatic(root, id) ? fileEmbedder(root, id) : await onnxEmbedder(root, id, run),
    );
  }
  if (values.json) {
    console.log(JSON.stringify({ split, cap: Number(values.cap), results }));
    return;
  }
  const ids = Object.keys(results);
  const directions = Object.keys(results[ids[0]!]!);
  console.log(`cross-language retrieval, ${split} split (short → long description, pool = n)`);
  console.log(
    `| direction | n | ${ids.map((id) => `${id} R@10 | MRR`).join(' | ')} |\n| --- | --: | ${ids.map(() => '--: | --:').join(' | ')} |`,
  );
  for (const dir of directions) {
    const cells = ids.map((id) => {
      const s = results[id]![dir]!;
      return `${s.recall10.toFixed(3)} | ${s.mrr.toFixed(3)}`;
    });
    console.log(`| ${dir} | ${results[ids[0]!]![dir]!.n} | ${cells.join(' | ')} |`);
  }
}

await main();
