/**
 * The default embedding model of anamnesis: GloVe 6B 100-d word vectors (public domain) with
 * smooth-inverse-frequency weights and common-component removal baked in, int8-quantised, as an
 * ONNX graph and a BERT WordPiece tokenizer that `@huggingface/transformers` loads like any other
 * feature-extraction model. About 6 MB, no network needed.
 *
 * Use it with `pipeline('feature-extraction', MODEL_ID)` after pointing `env.localModelPath` at the
 * model root (see {@link modelRootUrl}), and embed with `{ pooling: 'mean', normalize: true }`.
 */

/** Model id: the folder of the model under the model root, and the id to pass to `pipeline`. */
export const MODEL_ID = 'anamnesis/glove-100d-sif';

/** Embedding dimension. */
export const DIMENSIONS = 100;

/** Options to pass when calling the pipeline: mean pooling over the mask, unit length. */
export const EMBED_OPTIONS = {
  /** Mean of the token vectors (the SIF-weighted word rows). */
  pooling: 'mean',
  /** Scaled to unit length. */
  normalize: true,
} as const;

/**
 * Files of the model, relative to the model root (the folder that `env.localModelPath` names).
 * The ONNX file is named for dtype `q8`, which `config.json` pins for every device.
 */
export const MODEL_FILES = [
  `${MODEL_ID}/config.json`,
  `${MODEL_ID}/tokenizer.json`,
  `${MODEL_ID}/tokenizer_config.json`,
  `${MODEL_ID}/onnx/model_quantized.onnx`,
  `${MODEL_ID}/neighbours.bin`,
] as const;

/** The manifest (sha256 and size of every model file) written next to the files. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * URL of the model root folder (ending in `/`). In Node it is a `file:` URL into this package;
 * a bundler that understands `new URL(..., import.meta.url)` rewrites it to an asset URL. In a
 * browser app, prefer copying `@anamnesis/model-default/model/*` to a served folder and using that.
 */
export function modelRootUrl(): URL {
  return new URL('../model/', import.meta.url);
}

/**
 * Filesystem path of the model root folder in Node (ends with a path separator), for
 * `env.localModelPath`.
 */
export async function modelRootPath(): Promise<string> {
  const { fileURLToPath } = await import('node:url');
  return fileURLToPath(modelRootUrl());
}

/**
 * Files of a static model, relative to its folder (`<model root>/<model id>/`): what the
 * plain-JavaScript embedder reads (`config.json` says `"anamnesis": { "kind": "static-embedding" }`).
 */
export const STATIC_MODEL_FILES = {
  /** transformers.js's model config (dimensions, dtype). */
  config: 'config.json',
  /** The WordPiece tokenizer (vocabulary, normalizer). */
  tokenizer: 'tokenizer.json',
  /** The tokenizer's settings (maximum length, lower case). */
  tokenizerConfig: 'tokenizer_config.json',
  /** The int8 word table and its per-row scales, as ONNX initializers. */
  weights: 'onnx/model_quantized.onnx',
} as const;

/**
 * A static model's optional word-neighbour table, relative to its folder: each word's nearest
 * words, computed at build time so that query expansion need not search the table per word.
 */
export const NEIGHBOUR_TABLE_FILE = 'neighbours.bin';

export { readStaticWeights, type StaticWeights } from './static-weights.ts';
export {
  decodeNeighbourTable,
  encodeNeighbourTable,
  weightsFingerprint,
  type NeighbourTable,
} from './neighbour-table.ts';
