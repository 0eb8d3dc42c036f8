import { readFileSync } from 'node:fs';
import { modelRootPath, MODEL_ID } from '@anamnesis/model-default';
import { contentWords, ZipfWords } from './corpus.ts';

/**
 * The benchmark word list in Node: content words of the default model's vocabulary (the same
 * 20,000 English words for both models of `@anamnesis/model-default`: the multilingual model's
 * vocabulary starts with the English model's GloVe words, in their order).
 */
export async function nodeWords(): Promise<ZipfWords> {
  const tokenizer = JSON.parse(
    readFileSync(`${await modelRootPath()}${MODEL_ID}/tokenizer.json`, 'utf8'),
  ) as {
    model: { vocab: Record<string, number> };
  };
  return new ZipfWords(contentWords(tokenizer.model.vocab));
}
