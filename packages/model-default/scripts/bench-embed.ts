/**
 * Embedding throughput of the default model through transformers.js on onnxruntime-node, with
 * ONNX Runtime limited to one thread (tokenisation and pooling are single-threaded JS anyway).
 * For a strict one-core figure run it under `taskset -c 0`.
 *
 *   pnpm --filter @anamnesis/model-default bench:embed [-- --n 20000] [--json]
 *
 * Texts are short synthetic sentences (6–20 words drawn from the model's vocabulary with a fixed
 * seed), like chat turns or notes.
 */
import { parseArgs } from 'node:util';

import { env, pipeline } from '@huggingface/transformers';
import { mulberry32 as rng } from '@anamnesis/ranking';

import { EMBED_OPTIONS, MODEL_ID, modelRootPath } from '../src/index.ts';
import { cliArgs } from './lib/cli.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      n: { type: 'string', default: '20000' },
      json: { type: 'boolean', default: false },
    },
  });
  const n = Number(values.n);
  env.allowRemoteModels = false;
  env.localModelPath = await modelRootPath();
  const fe = await pipeline('feature-extraction', MODEL_ID, {
    device: 'cpu',
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  });

  // Words from the first 20k of the vocabulary (plain words only), Zipf-ish via squaring.
  const vocab = [...fe.tokenizer.get_vocab().keys()]
    .slice(5, 20_005)
    .filter((w) => /^[a-z]+$/.test(w));
  const random = rng(42);
  const texts = Array.from({ length: n }, () => {
    const len = 6 + Math.floor(random() * 15);
    const words = Array.from(
      { length: len },
      () => vocab[Math.floor(random() ** 2 * vocab.length)],
    );
    return `${words.join(' ')}.`;
  });
  if (vocab.length < 10_000) throw new Error('unexpected vocabulary');

  const results: Record<string, number> = {};
  for (const batch of [1, 16, 64, 256]) {
    await fe(texts.slice(0, Math.min(batch, 64)), EMBED_OPTIONS); // warm-up
    const count = batch === 1 ? Math.min(n, 5000) : n;
    const start = performance.now();
    for (let i = 0; i < count; i += batch) {
      await fe(texts.slice(i, Math.min(i + batch, count)), EMBED_OPTIONS);
    }
    const seconds = (performance.now() - start) / 1000;
    results[`batch_${batch}_texts_per_s`] = Math.round(count / seconds);
    if (!values.json) {
      console.log(`batch ${String(batch).padStart(3)}: ${Math.round(count / seconds)} texts/s`);
    }
  }
  // Tokenisation alone, for the split of the cost.
  const start = performance.now();
  for (let i = 0; i < n; i += 64) fe.tokenizer(texts.slice(i, i + 64), { padding: true });
  results.tokenize_only_texts_per_s = Math.round(n / ((performance.now() - start) / 1000));
  if (values.json) console.log(JSON.stringify(results));
  else console.log(`tokenize only (batch 64): ${results.tokenize_only_texts_per_s} texts/s`);
  await fe.dispose();
}

await main();
