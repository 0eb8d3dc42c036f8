import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { modelRootPath } from '@anamnesis/model-default';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embedding/embedder.ts';
import { createModelEmbedder } from '../src/embedding/model-embedder.ts';
import { createStaticEmbedder } from '../src/embedding/static-embedder.ts';
import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';

/**
 * The multilingual candidate model (`@anamnesis/model-default`'s `candidates/`, not the default):
 * the engine's plain-JavaScript embedder runs it unchanged and gives the ONNX pipeline's vectors
 * to the bit, in every language it was trained for.
 */
const CANDIDATES = join(await modelRootPath(), '..', 'candidates');
const manifest = join(CANDIDATES, 'manifest.json');
const present = existsSync(manifest);
const MODEL = present
  ? (JSON.parse(readFileSync(manifest, 'utf8')) as { model_id: string }).model_id
  : '';

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

let onnx: Embedder;
let plain: Embedder;

beforeAll(async () => {
  if (!present) return;
  onnx = await createTransformersEmbedder({ model: MODEL, localModelPath: CANDIDATES, threads: 1 });
  plain = await createStaticEmbedder({ model: MODEL, localModelPath: CANDIDATES });
});
afterAll(async () => {
  await onnx?.dispose?.();
});

describe.skipIf(!present)('the multilingual candidate model on the engine', () => {
  it('is run by the plain-JavaScript embedder, as the default model is', async () => {
    expect(plain).toMatchObject({ id: MODEL, dims: 100, runtime: 'js' });
    const chosen = await createModelEmbedder({ model: MODEL, localModelPath: CANDIDATES });
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

  it('gives a vector to text in every language (no text of a trained language is unknown)', async () => {
    const vectors = await plain.embed(TEXTS.slice(0, 10));
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });
});
