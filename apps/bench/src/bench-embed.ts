/**
 * `pnpm bench:embed -- [--n 20000] [--json] [--docs]`: embedding throughput of the default model in Node,
 * on the path apps get (`createModelEmbedder`: the static table in plain JavaScript) and on ONNX
 * Runtime (`runtime: 'onnx'`, transformers.js on onnxruntime-node), the same texts in one process,
 * batches of 1 and 64, with the ratio. Texts: short synthetic sentences (6–20 words of the model's
 * vocabulary, Zipf-like, fixed seed), like chat turns or notes.
 */
import { parseArgs } from 'node:util';
import {
  createModelEmbedder,
  createTransformersEmbedder,
  defaultEmbedderOptions,
  type Embedder,
} from '@anamnesis/engine';
import { mulberry32 } from '@anamnesis/ranking';

import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '20000' },
    json: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
  },
});
const n = Number(values.n);
if (!Number.isInteger(n) || n < 100) throw new Error('--n: an integer ≥ 100');

const options = await defaultEmbedderOptions();
const paths: [string, Embedder][] = [
  ['default (plain JavaScript)', await createModelEmbedder(options)],
  [
    'ONNX Runtime (runtime: onnx)',
    await createTransformersEmbedder({ ...options, runtime: 'onnx' }),
  ],
];

const random = mulberry32(42);
const WORDS =
  'the a to of and in is it you that he was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house picture try us again animal point mother world near build self earth father'.split(
    ' ',
  );
const texts = Array.from({ length: n }, () => {
  const length = 6 + Math.floor(random() * 15);
  const words = Array.from({ length }, () => WORDS[Math.floor(random() ** 2 * WORDS.length)]!);
  return `${words.join(' ')}.`;
});

const rows: Record<string, Record<string, number>> = {};
for (const [name, embedder] of paths) {
  rows[name] = {};
  for (const batch of [1, 64]) {
    await embedder.embed(texts.slice(0, 64)); // warm-up
    const count = batch === 1 ? Math.min(n, 5000) : n;
    const start = performance.now();
    for (let i = 0; i < count; i += batch) await embedder.embed(texts.slice(i, i + batch));
    rows[name][`batch_${batch}`] = Math.round(count / ((performance.now() - start) / 1000));
  }
  await embedder.dispose?.();
}
const [js, onnx] = Object.values(rows) as [Record<string, number>, Record<string, number>];
if (values.json) {
  console.log(
    JSON.stringify({
      n,
      js_texts_per_s: js,
      onnx_texts_per_s: onnx,
      ratio_batch_64: js.batch_64! / onnx.batch_64!,
    }),
  );
} else {
  console.log(`embedding ${n} short texts in Node ${process.version} (texts/s, one process):`);
  for (const [name, r] of Object.entries(rows))
    console.log(`  ${name.padEnd(30)} batch 1: ${r.batch_1}  batch 64: ${r.batch_64}`);
  console.log(
    `  plain JavaScript / ONNX Runtime at batch 64: ${(js.batch_64! / onnx.batch_64!).toFixed(2)}×`,
  );
}
if (values.docs)
  writeMeasurements({
    id: 'embed',
    title: 'Embedding by path',
    command: commandLine('bench:embed'),
    body: [
      `${n} short texts (6–20 common English words), the default model, texts/s in one process (batch 1: the first ${Math.min(n, 5000)}).`,
      '',
      markdownTable([
        ['path', 'batch 1', 'batch 64'],
        ...Object.entries(rows).map(([name, r]) => [name, String(r.batch_1), String(r.batch_64)]),
      ]),
      '',
      `Plain JavaScript / ONNX Runtime at batch 64: ${(js.batch_64! / onnx.batch_64!).toFixed(2)}×. The browser's default path is not timed apart here.`,
    ].join('\n'),
  });
