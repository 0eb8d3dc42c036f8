/**
 * The embedding models of anamnesis, each a static sentence encoder that
 * `@huggingface/transformers` loads like any other feature-extraction model (an ONNX graph and a
 * BERT WordPiece tokenizer) and that the engine runs in plain JavaScript; no network needed.
 *
 * The default model, {@link MODEL_ID} (`anamnesis/static-multi-64d`), is multilingual: English,
 * German, French, Spanish, Russian, Japanese and Chinese, with a text and its translation close
 * together. Its rows start from GloVe 6B 100-d word vectors (public domain) with
 * smooth-inverse-frequency weights, are trained contrastively on Debian's package descriptions and
 * their translations (DDTP), and are projected onto their 64 principal directions, int8-quantised.
 * About 5.5 MB.
 *
 * The English model, {@link ENGLISH_MODEL_ID} (`anamnesis/glove-100d-sif`, the default before), is
 * GloVe 6B 100-d alone with the same weights, for English text only: a named option in its own
 * model root ({@link englishModelRootUrl}). About 6.2 MB.
 *
 * Use one with `pipeline('feature-extraction', MODEL_ID)` after pointing `env.localModelPath` at
 * its model root (see {@link modelRootUrl}), and embed with `{ pooling: 'mean', normalize: true }`.
 */

/**
 * Id of the default model, `anamnesis/static-multi-64d` (multilingual: English, German, French,
 * Spanish, Russian, Japanese, Chinese): the folder of the model under its model root
 * ({@link modelRootUrl}), and the id to pass to `pipeline`.
 */
export const MODEL_ID = 'anamnesis/static-multi-64d';

/** Embedding dimension of the default model. */
export const DIMENSIONS = 64;

/** Options to pass when calling the pipeline: mean pooling over the mask, unit length. */
export const EMBED_OPTIONS = {
  /** Mean of the token vectors (the SIF-weighted word rows). */
  pooling: 'mean',
  /** Scaled to unit length. */
  normalize: true,
} as const;

/**
 * Files of the default model, relative to its model root (the folder that `env.localModelPath`
 * names). The ONNX file is named for dtype `q8`, which `config.json` pins for every device.
 */
export const MODEL_FILES = [
  `${MODEL_ID}/config.json`,
  `${MODEL_ID}/tokenizer.json`,
  `${MODEL_ID}/tokenizer_config.json`,
  `${MODEL_ID}/onnx/model_quantized.onnx`,
  `${MODEL_ID}/neighbours.bin`,
] as const;

/**
 * The manifest written next to a model root's files (`<root>/manifest.json`): sha256 and size of
 * every file, the sources and their licences, what was left out of training and how it was built.
 */
export const MANIFEST_FILE = 'manifest.json';

/**
 * URL of the default model's root folder (ending in `/`). In Node it is a `file:` URL into this
 * package; a bundler that understands `new URL(..., import.meta.url)` rewrites it to an asset URL.
 * In a browser app, prefer copying `@anamnesis/model-default/model/*` to a served folder and using
 * that (`@anamnesis/client/vite` does).
 */
export function modelRootUrl(): URL {
  return new URL('../model/', import.meta.url);
}

/**
 * Filesystem path of the default model's root folder in Node (ends with a path separator), for
 * `env.localModelPath` or the engine's `localModelPath`.
 */
export async function modelRootPath(): Promise<string> {
  const { fileURLToPath } = await import('node:url');
  return fileURLToPath(modelRootUrl());
}

/**
 * Id of the English model, `anamnesis/glove-100d-sif`: GloVe 6B 100-d word vectors with
 * smooth-inverse-frequency weights and common-component removal, for English text only (the
 * default model before `anamnesis/static-multi-64d`). Its folder under its own model root
 * ({@link englishModelRootUrl}): pass both to the engine (`embedder: { model: ENGLISH_MODEL_ID,
 * localModelPath: await englishModelRootPath() }`) or, in a browser app, serve that root instead
 * of the default one and open with `model: ENGLISH_MODEL_ID`.
 */
export const ENGLISH_MODEL_ID = 'anamnesis/glove-100d-sif';

/** Embedding dimension of the English model. */
export const ENGLISH_DIMENSIONS = 100;

/** Files of the English model, relative to its model root ({@link englishModelRootUrl}). */
export const ENGLISH_MODEL_FILES = [
  `${ENGLISH_MODEL_ID}/config.json`,
  `${ENGLISH_MODEL_ID}/tokenizer.json`,
  `${ENGLISH_MODEL_ID}/tokenizer_config.json`,
  `${ENGLISH_MODEL_ID}/onnx/model_quantized.onnx`,
  `${ENGLISH_MODEL_ID}/neighbours.bin`,
] as const;

/**
 * URL of the English model's root folder (ending in `/`): this package's `english/`, beside the
 * default model's `model/` (a root of its own, so that an app serves and precaches one model, not
 * both). In a browser app, copy `@anamnesis/model-default/english/*` to a served folder, or give
 * `@anamnesis/client/vite` its `ENGLISH_MODEL_ROOT`.
 */
export function englishModelRootUrl(): URL {
  return new URL('../english/', import.meta.url);
}

/** Filesystem path of the English model's root folder in Node (ends with a path separator). */
export async function englishModelRootPath(): Promise<string> {
  const { fileURLToPath } = await import('node:url');
  return fileURLToPath(englishModelRootUrl());
}

/**
 * Files of a static model (the default model and the English model are two), relative to its
 * folder (`<model root>/<model id>/`): what the plain-JavaScript embedder reads (`config.json`
 * says `"anamnesis": { "kind": "static-embedding" }`).
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
