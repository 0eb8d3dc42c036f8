import {
  DIMENSIONS,
  ENGLISH_DIMENSIONS,
  ENGLISH_MODEL_ID,
  englishModelRootPath,
  MODEL_ID,
  modelRootPath,
} from '@anamnesis/model-default';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embedding/embedder.ts';
import { createModelEmbedder } from '../src/embedding/model-embedder.ts';
import { createStaticEmbedder } from '../src/embedding/static-embedder.ts';
import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';

/**
 * Both models of `@anamnesis/model-default` (the multilingual default and the English model, each
 * in its own model root): the engine's plain-JavaScript embedder runs each unchanged and gives the
 * ONNX pipeline's vectors to the bit, in every language the default model was trained for.
 * (`static-embedder.test.ts` checks the default model on every LoCoMo dev turn and hostile text.)
 */
const TEXTS = [
  'My car is a blue Fiat Panda',
  'what do I drive?',
  'Our daughter starts school in September',
  'Dateien und Verzeichnisse kopieren, Größe ändern, Übersicht',
  'Bibliothèque pour lire et écrire des fichiers audio, déjà installée',
  'Biblioteca para leer y escribir archivos de imagen en español',
  'Библиотека для чтения и записи файлов изображений, ёлка, йод',
  'ファイルやディレクトリのコピーを行う。データベースを作成します',
  '用于读写图像文件的库，复制文件和目录',
  'Mixed: la base de données は PostgreSQL で、Datenbank',
  '',
  '!!!???',
  '😀 emoji only',
  '東'.repeat(700),
  'Größe '.repeat(600),
];

const MODELS = [
  {
    name: 'the default model',
    model: MODEL_ID,
    dims: DIMENSIONS,
    root: await modelRootPath(),
    everyLanguage: true,
  },
  {
    name: 'the English model',
    model: ENGLISH_MODEL_ID,
    dims: ENGLISH_DIMENSIONS,
    root: await englishModelRootPath(),
    everyLanguage: false,
  },
];

describe.each(MODELS)('$name on the engine', ({ model, dims, root, everyLanguage }) => {
  let onnx: Embedder;
  let plain: Embedder;

  beforeAll(async () => {
    onnx = await createTransformersEmbedder({ model, localModelPath: root, threads: 1 });
    plain = await createStaticEmbedder({ model, localModelPath: root });
  });
  afterAll(async () => {
    await onnx?.dispose?.();
  });

  it('is run by the plain-JavaScript embedder', async () => {
    expect(plain).toMatchObject({ id: model, dims, runtime: 'js' });
    const chosen = await createModelEmbedder({ model, localModelPath: root });
    expect(chosen.runtime).toBe('js');
  });

  it('gives bit-identical vectors to the ONNX pipeline in every language', async () => {
    const expected = await onnx.embed(TEXTS);
    const actual = await plain.embed(TEXTS);
    expect(actual).toHaveLength(expected.length);
    actual.forEach((v, i) => {
      expect(Buffer.from(v.buffer).equals(Buffer.from(expected[i]!.buffer)), TEXTS[i]).toBe(true);
    });
  });

  it(
    everyLanguage
      ? 'gives a vector to text in every language (no text of a trained language is unknown)'
      : 'gives a vector to English text',
    async () => {
      // the English model knows English words; the default model every trained language's
      const texts = everyLanguage ? TEXTS.slice(0, 10) : TEXTS.slice(0, 3);
      const vectors = await plain.embed(texts);
      for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    },
  );
});
