/**
 * The embedder for model options: a static model (the default model) in plain JavaScript where
 * that gives the same vectors without ONNX Runtime, any other model (or an explicit
 * `runtime: 'onnx'` or `device: 'webgpu'`) through transformers.js and ONNX Runtime.
 */
import type { Embedder, TransformersEmbedderOptions } from './embedder.ts';
import { createTransformersEmbedder } from './transformers-embedder.ts';
import {
  createStaticEmbedder,
  isStaticModel,
  modelLanguages,
  modelWordTable,
} from './static-embedder.ts';

/**
 * Creates the embedder for `options` (see {@link TransformersEmbedderOptions.runtime}): the
 * plain-JavaScript {@link createStaticEmbedder} when {@link isStaticModel} says so, else
 * {@link createTransformersEmbedder}. Both give the same vectors for the default model, under the
 * same model id, so a store embedded by one is read by the other.
 */
export async function createModelEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  if (options && (await isStaticModel(options))) return createStaticEmbedder(options);
  const embedder = await createTransformersEmbedder(options);
  // A static model run through ONNX Runtime (`device: 'webgpu'`, `runtime: 'onnx'`) keeps its word
  // neighbours (the `expansion` leg), read from the same files in plain JavaScript, so the model
  // ranks alike on every runtime. Another local model may borrow a static model's word table (the
  // same tokenizer's words: `anamnesis.word_table` in its `config.json`).
  const asTable = { ...options, device: undefined, runtime: undefined };
  if (embedder.neighbours === undefined) {
    const own = await isStaticModel(asTable);
    const borrowed =
      own || options.localModelPath === undefined
        ? undefined
        : await modelWordTable(options.localModelPath, options.model);
    if (own || borrowed !== undefined) {
      const table = await createStaticEmbedder(
        own ? asTable : { ...asTable, model: borrowed!, languages: undefined },
      );
      embedder.neighbours = (word) => table.neighbours!(word);
      embedder.knows = (word) => table.knows!(word);
      if (own && table.languages) embedder.languages = table.languages;
    }
  }
  // Any other local model may name its languages in its `config.json` too (`anamnesis.languages`).
  if (embedder.languages === undefined && options.localModelPath !== undefined) {
    const languages = await modelLanguages(options.localModelPath, options.model);
    if (languages) embedder.languages = languages;
  }
  return embedder;
}
