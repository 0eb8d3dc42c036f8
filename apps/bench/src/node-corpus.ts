import { readFileSync } from 'node:fs';
import { modelRootPath, MODEL_ID } from '@anamnesis/model-default';
import { contentWords, ZipfWords } from './corpus.ts';

/** The benchmark word list in Node: content words of the default model's vocabulary. */
export async function nodeWords(): Promise<ZipfWords> {
  const tokenizer = JSON.parse(
    readFileSync(`${await modelRootPath()}${MODEL_ID}/tokenizer.json`, 'utf8'),
  ) as {
    model: { vocab: Record<string, number> };
  };
  return new ZipfWords(contentWords(tokenizer.model.vocab));
}
