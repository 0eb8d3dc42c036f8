import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  DIMENSIONS,
  EMBED_OPTIONS,
  ENGLISH_DIMENSIONS,
  ENGLISH_MODEL_ID,
  englishModelRootPath,
  MODEL_ID,
  modelRootPath,
} from '../src/index.ts';

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/**
 * Both models of the package, each from its own model root. A word with no known start of two or
 * more letters is `[UNK]` in the English model and single letters in the default model (whose
 * vocabulary has every letter its languages use): zero rows either way.
 */
const MODELS = [
  {
    name: 'the default model',
    id: MODEL_ID,
    dims: DIMENSIONS,
    root: await modelRootPath(),
    unknown: ['q', '##z', '##x', '##v'],
  },
  {
    name: 'the English model',
    id: ENGLISH_MODEL_ID,
    dims: ENGLISH_DIMENSIONS,
    root: await englishModelRootPath(),
    unknown: ['[UNK]'],
  },
];

describe.each(MODELS)(
  '$name through transformers.js feature-extraction on onnxruntime-node',
  (model) => {
    let fe: FeatureExtractionPipeline;

    beforeAll(async () => {
      env.allowRemoteModels = false;
      env.localModelPath = model.root;
      // No dtype or device given: Node's default device (cpu) would pick fp32 (model.onnx) without
      // the q8 pin in config.json; loading proves the pin works.
      fe = await pipeline('feature-extraction', model.id);
    });

    async function embed(texts: string[]): Promise<number[][]> {
      const out = await fe(texts, EMBED_OPTIONS);
      expect(out.dims).toEqual([texts.length, model.dims]);
      return out.tolist() as number[][];
    }

    it('gives unit vectors of the exported dimension', async () => {
      const vectors = await embed(['the cat sat on the mat', 'Hello, world!']);
      for (const v of vectors) {
        expect(v).toHaveLength(model.dims);
        expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
      }
    });

    it('puts similar sentences closer than unrelated ones', async () => {
      const [cat, kitten, tax] = await embed([
        'the cat sat on the mat',
        'a kitten rested on the rug',
        'quarterly tax filing deadline',
      ]);
      expect(dot(cat!, kitten!)).toBeGreaterThan(0.4);
      expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, tax!) + 0.3);
      expect(dot(kitten!, kitten!)).toBeGreaterThan(dot(kitten!, tax!) + 0.3);
    });

    it('is deterministic and independent of the batch it is in', async () => {
      const [alone] = await embed(['we adopted a puppy last spring']);
      const [, batched] = await embed(['short', 'we adopted a puppy last spring', 'x '.repeat(50)]);
      alone!.forEach((x, i) => expect(batched![i]).toBeCloseTo(x, 6));
    });

    it('lowercases, strips accents and maps unknown words to their longest known prefix', () => {
      const tokens = (text: string) => fe.tokenizer.tokenize(text);
      expect(tokens('Café NAÏVE')).toEqual(['cafe', 'naive']);
      expect(tokens('sunsets')).toEqual(['sunset', '##s']);
      expect(tokens('qzxv')).toEqual(model.unknown);
      const ids = fe.tokenizer('hi there').input_ids.tolist()[0] as bigint[];
      expect(ids[0]).toBe(2n); // [CLS]
      expect(ids.at(-1)).toBe(3n); // [SEP]
    });

    it('truncates long texts to model_max_length (512 tokens)', async () => {
      const long = 'memory '.repeat(2000);
      const encoded = fe.tokenizer([long], { padding: true, truncation: true });
      expect(encoded.input_ids.dims).toEqual([1, 512]);
      const [v] = await embed([long]);
      expect(Math.sqrt(dot(v!, v!))).toBeCloseTo(1, 5);
    });

    it('documents empty input: a zero vector before normalisation, NaN after', async () => {
      // '' tokenises to [CLS] [SEP], whose rows are zero; so does text with no known word.
      // Callers (the engine) must check for empty text or a non-finite vector themselves.
      const raw = (await fe(['', 'qzxv ,;'], { pooling: 'mean', normalize: false })).tolist();
      for (const v of raw as number[][]) expect(v.every((x) => x === 0)).toBe(true);
      const normalized = await embed(['', 'qzxv']);
      for (const v of normalized) expect(v.every((x) => Number.isNaN(x))).toBe(true);
    });
  },
);
