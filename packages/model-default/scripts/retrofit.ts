/**
 * Retrofits a static model's word rows to an English lexicon (Faruqui et al., "Retrofitting Word
 * Vectors to Semantic Lexicons", 2015): each word's direction is pulled towards the words WordNet
 * relates it to (synonyms, hypernyms and hyponyms, the content words of its glosses), so that
 * "physician" and "doctor", "kitten" and "cat", "kids" and "children" land closer; each row keeps
 * its length (its smooth-inverse-frequency weight). Writes a model root beside the input's.
 *
 *   pnpm --filter @anamnesis/model-default exec tsx scripts/retrofit.ts -- --out DIR
 *     [--in ROOT] [--wordnet /usr/share/wordnet] [--alpha 1] [--iterations 10]
 *     [--synonym 1] [--hypernym 0.5] [--gloss 0.25] [--model-id ID]
 *
 * WordNet 3.0 comes from Debian's `wordnet-base` (`/usr/share/wordnet/data.{noun,verb,adj,adv}`;
 * WordNet licence: free to use, copy and distribute with its copyright notice). The rows are
 * updated in place in a copy of the model's ONNX file (same graph, same size), and the word
 * neighbour table is rebuilt from them.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { neighbourTableFile } from './lib/neighbours.ts';
import { quantizeRows } from './lib/model.ts';
import { readWordNet, WORDNET_PARTS } from './lib/wordnet.ts';
import { NEIGHBOUR_TABLE_FILE, readStaticWeights, STATIC_MODEL_FILES } from '../src/index.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  args: cliArgs(),
  options: {
    in: { type: 'string', default: join(packageDir, 'model') },
    out: { type: 'string' },
    wordnet: { type: 'string', default: '/usr/share/wordnet' },
    alpha: { type: 'string', default: '1' },
    pull: { type: 'string', default: '1' },
    'no-neighbours': { type: 'boolean', default: false },
    iterations: { type: 'string', default: '10' },
    synonym: { type: 'string', default: '1' },
    hypernym: { type: 'string', default: '0.5' },
    gloss: { type: 'string', default: '0.25' },
    'model-id': { type: 'string' },
  },
});
if (!values.out) throw new Error('--out DIR is required');
const inRoot = resolve(values.in);
const outRoot = resolve(values.out);
const manifest = JSON.parse(readFileSync(join(inRoot, 'manifest.json'), 'utf8')) as {
  model_id: string;
};
const inId = manifest.model_id;
const outId = values['model-id'] ?? `${inId}-wordnet`;
const alpha = Number(values.alpha);
const weights = {
  synonym: Number(values.synonym),
  hypernym: Number(values.hypernym),
  gloss: Number(values.gloss),
};

// The model: its tokens and rows.
const onnxPath = join(inRoot, inId, STATIC_MODEL_FILES.weights);
const onnx = new Uint8Array(readFileSync(onnxPath));
const tokenizerBytes = readFileSync(join(inRoot, inId, STATIC_MODEL_FILES.tokenizer));
const vocab = (
  JSON.parse(tokenizerBytes.toString('utf8')) as { model: { vocab: Record<string, number> } }
).model.vocab;
const model = readStaticWeights(onnx);
const { vocabSize, dims } = model;
const rows = new Float64Array(vocabSize * dims);
const length = new Float64Array(vocabSize);
for (let t = 0; t < vocabSize; t++) {
  let sum = 0;
  for (let j = 0; j < dims; j++) {
    const v = model.table[t * dims + j]! * model.scale[t]!;
    rows[t * dims + j] = v;
    sum += v * v;
  }
  length[t] = Math.sqrt(sum);
}

// The lexicon: edges between the model's whole words.
const STOP = new Set(
  'a an the of or and to in on at by for with from as is are be that which who this those these its it any one some such used usually especially etc something someone having being into than other'.split(
    ' ',
  ),
);
const id = (word: string): number | undefined => {
  const t = vocab[word];
  return t !== undefined && length[t]! > 0 ? t : undefined;
};
const edges = new Map<number, Map<number, number>>();
const link = (a: number, b: number, w: number) => {
  if (a === b || w <= 0) return;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const m = edges.get(x) ?? new Map<number, number>();
    m.set(y, Math.max(m.get(y) ?? 0, w));
    edges.set(x, m);
  }
};
// Inflected words of the vocabulary by their WordNet base form ("kids" → "kid", "geese" →
// "goose"): WordNet's exception lists, then its detachment rules (morphy's), where the base is a
// word of the vocabulary.
const lemmas = new Set<string>();
const exceptions = new Map<string, string>();
for (const pos of WORDNET_PARTS) {
  for (const line of readFileSync(join(values.wordnet, `index.${pos}`), 'utf8').split('\n'))
    if (line && !line.startsWith(' ')) lemmas.add(line.split(' ')[0]!);
  for (const line of readFileSync(join(values.wordnet, `${pos}.exc`), 'utf8').split('\n')) {
    const [form, base] = line.split(' ');
    if (form && base && !exceptions.has(form)) exceptions.set(form, base);
  }
}
const RULES: [string, string][] = [
  ['ies', 'y'],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['s', ''],
  ['ied', 'y'],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['er', ''],
  ['est', ''],
  ['er', 'e'],
  ['est', 'e'],
];
const formsOf = new Map<string, number[]>();
for (const [word, t] of Object.entries(vocab)) {
  if (length[t]! === 0 || lemmas.has(word)) continue;
  let base = exceptions.get(word);
  if (!base)
    for (const [suffix, to] of RULES)
      if (word.endsWith(suffix) && lemmas.has(word.slice(0, -suffix.length) + to)) {
        base = word.slice(0, -suffix.length) + to;
        break;
      }
  if (base) formsOf.set(base, [...(formsOf.get(base) ?? []), t]);
}

interface Synset {
  words: number[];
  hypernyms: string[];
  gloss: number[];
}
const synsets = new Map<string, Synset>();
for (const synset of readWordNet(values.wordnet)) {
  const words: number[] = [];
  for (const word of synset.words) {
    const lemma = word.replace(/\(.*\)$/u, '').toLowerCase();
    if (lemma.includes('_')) continue;
    const t = id(lemma);
    if (t !== undefined) words.push(t);
    words.push(...(formsOf.get(lemma) ?? []));
  }
  const definition = synset.gloss.split(';')[0]!.replace(/"[^"]*"/gu, '');
  const gloss = [...new Set(definition.toLowerCase().match(/[a-z]+/gu) ?? [])]
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map(id)
    .filter((t): t is number => t !== undefined);
  synsets.set(synset.key, { words, hypernyms: synset.hypernyms, gloss });
}
let pairs = 0;
const pair = (a: number, b: number, w: number) => {
  link(a, b, w);
  pairs++;
};
for (const s of synsets.values()) {
  for (const a of s.words) {
    for (const b of s.words) if (a < b) pair(a, b, weights.synonym);
    for (const g of s.gloss) pair(a, g, weights.gloss);
  }
  for (const h of s.hypernyms) {
    const parent = synsets.get(h);
    if (!parent) continue;
    for (const a of s.words) for (const b of parent.words) pair(a, b, weights.hypernym);
  }
}
console.error(
  `[retrofit] ${synsets.size} synsets, ${edges.size} of ${vocabSize} tokens related, ${pairs} pairs`,
);

// Each word is pulled by its related words as much as it holds to its own direction (`pull`
// times `alpha`), shared among them by their relations' weights (Faruqui's β = 1 / degree when
// every relation weighs alike).
for (const near of edges.values()) {
  let total = 0;
  for (const w of near.values()) total += w;
  for (const [u, w] of near) near.set(u, (Number(values.pull) * alpha * w) / total);
}

// Retrofitting on unit directions; each row keeps its length.
const unit = new Float64Array(rows.length);
for (let t = 0; t < vocabSize; t++)
  if (length[t]! > 0)
    for (let j = 0; j < dims; j++) unit[t * dims + j] = rows[t * dims + j]! / length[t]!;
const original = unit.slice();
for (let it = 0; it < Number(values.iterations); it++) {
  for (const [t, near] of edges) {
    const next = new Float64Array(dims);
    let total = alpha;
    for (let j = 0; j < dims; j++) next[j] = alpha * original[t * dims + j]!;
    for (const [u, w] of near) {
      total += w;
      for (let j = 0; j < dims; j++) next[j]! += w * unit[u * dims + j]!;
    }
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (next[j]! / total) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < dims; j++) unit[t * dims + j] = next[j]! / total / norm;
  }
}
for (let t = 0; t < vocabSize; t++)
  for (let j = 0; j < dims; j++) rows[t * dims + j] = unit[t * dims + j]! * length[t]!;

// The rows back into a copy of the ONNX file: the table in place (a view into the bytes), the
// scales where their old bytes were.
const { table, scale } = quantizeRows(rows, vocabSize, dims, 127);
const oldScale = new Uint8Array(model.scale.buffer, model.scale.byteOffset, model.scale.byteLength);
const at = Buffer.from(onnx).indexOf(Buffer.from(oldScale));
if (at < 0) throw new Error('the scales were not found in the ONNX bytes');
model.table.set(table);
onnx.set(new Uint8Array(scale.buffer), at);

const outDir = join(outRoot, outId);
mkdirSync(join(outDir, 'onnx'), { recursive: true });
writeFileSync(join(outDir, STATIC_MODEL_FILES.weights), onnx);
for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
  copyFileSync(join(inRoot, inId, name), join(outDir, name));
if (!values['no-neighbours'])
  writeFileSync(join(outDir, NEIGHBOUR_TABLE_FILE), neighbourTableFile(tokenizerBytes, onnx));
const files: Record<string, { bytes: number; sha256: string }> = {};
for (const name of [
  'config.json',
  STATIC_MODEL_FILES.weights,
  ...(values['no-neighbours'] ? [] : [NEIGHBOUR_TABLE_FILE]),
  'tokenizer.json',
  'tokenizer_config.json',
]) {
  const bytes = readFileSync(join(outDir, name));
  files[`${outId}/${name}`] = {
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
writeFileSync(
  join(outRoot, 'manifest.json'),
  `${JSON.stringify({ model_id: outId, files, retrofit: { from: inId, alpha, weights, iterations: Number(values.iterations), wordnet: 'WordNet 3.0 (Debian wordnet-base)' } }, null, 2)}\n`,
);
console.error(`[retrofit] wrote ${outDir}`);
