import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  DIMENSIONS,
  EMBED_OPTIONS,
  MODEL_ID,
  modelRootPath,
  readStaticWeights,
  STATIC_MODEL_FILES,
} from '../src/index.ts';

/**
 * The default model is multilingual (`anamnesis/static-multi-64d`, built by `scripts/build-default.ts`:
 * trained by `lib/train-root.ts`, projected by `lib/project-root.ts`): its loading through
 * transformers.js, the identity of its ONNX graph with its table, and what it must know in each
 * of its seven languages. Its files and manifest: `files.test.ts`.
 */
const root = await modelRootPath();
const MODEL = MODEL_ID;

let fe: FeatureExtractionPipeline;

beforeAll(async () => {
  env.allowRemoteModels = false;
  env.localModelPath = root;
  fe = await pipeline('feature-extraction', MODEL);
});

async function embed(texts: string[]): Promise<number[][]> {
  return (await fe(texts, EMBED_OPTIONS)).tolist() as number[][];
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the default model, multilingual', () => {
  it('loads through transformers.js and gives unit vectors of its dimension', async () => {
    const out = await fe(['the cat sat on the mat', 'Die Katze'], EMBED_OPTIONS);
    expect(out.dims).toEqual([2, DIMENSIONS]);
    for (const v of out.tolist() as number[][]) expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
  });

  it('runs its ONNX graph exactly as its table: each hidden value is fround(int8 · scale)', async () => {
    const weights = readStaticWeights(
      new Uint8Array(readFileSync(join(root, MODEL, STATIC_MODEL_FILES.weights))),
    );
    const texts = [
      'Dateien und Verzeichnisse kopieren',
      'Библиотека для чтения файлов',
      'ファイルやディレクトリのコピーを行う',
      '复制文件和目录',
      'copier des fichiers, déjà vu; copiar archivos',
    ];
    for (const text of texts) {
      const ids = (fe.tokenizer(text).input_ids.tolist() as bigint[][])[0]!.map(Number);
      const hidden = await fe(text, { pooling: 'none', normalize: false });
      const data = hidden.data as Float32Array;
      ids.forEach((id, t) => {
        for (let d = 0; d < weights.dims; d++) {
          const want = Math.fround(weights.table[id * weights.dims + d]! * weights.scale[id]!);
          expect(data[t * weights.dims + d]).toBe(want);
        }
      });
    }
  });

  it('tokenizes the seven languages into known pieces, not [UNK]', () => {
    const tokens = (text: string) => fe.tokenizer.tokenize(text);
    for (const text of [
      'Verzeichnisse',
      'répertoires',
      'directorios',
      'каталогов',
      'ディレクトリ',
      '目录',
      'directories',
    ])
      expect(tokens(text)).not.toContain('[UNK]');
  });

  // Topics of our own (not from the training data), each said in seven languages.
  const TOPICS: Record<string, Record<string, string>> = {
    image: {
      en: 'a library to read and write image files',
      de: 'eine Bibliothek zum Lesen und Schreiben von Bilddateien',
      fr: 'une bibliothèque pour lire et écrire des fichiers d’images',
      es: 'una biblioteca para leer y escribir archivos de imagen',
      ru: 'библиотека для чтения и записи файлов изображений',
      ja: '画像ファイルを読み書きするためのライブラリ',
      zh: '用于读写图像文件的库',
    },
    game: {
      en: 'a strategy game with ships in space',
      de: 'ein Strategiespiel mit Schiffen im Weltraum',
      fr: 'un jeu de stratégie avec des vaisseaux dans l’espace',
      es: 'un juego de estrategia con naves en el espacio',
      ru: 'стратегическая игра с кораблями в космосе',
      ja: '宇宙船が登場する戦略ゲーム',
      zh: '一款太空飞船策略游戏',
    },
    mail: {
      en: 'send and receive email messages',
      de: 'E-Mail-Nachrichten senden und empfangen',
      fr: 'envoyer et recevoir des courriels',
      es: 'enviar y recibir mensajes de correo electrónico',
      ru: 'отправка и получение сообщений электронной почты',
      ja: '電子メールを送受信する',
      zh: '发送和接收电子邮件',
    },
  };
  const LANGS = ['de', 'fr', 'es', 'ru', 'ja', 'zh'];

  it.each(LANGS)(
    'puts a text in %s closer to its English translation than to other English topics, both ways',
    async (lang) => {
      const topics = Object.keys(TOPICS);
      const en = await embed(topics.map((t) => TOPICS[t]!.en!));
      const other = await embed(topics.map((t) => TOPICS[t]![lang]!));
      topics.forEach((_, i) => {
        topics.forEach((__, j) => {
          if (i === j) return;
          expect(dot(other[i]!, en[i]!)).toBeGreaterThan(dot(other[i]!, en[j]!));
          expect(dot(en[i]!, other[i]!)).toBeGreaterThan(dot(en[i]!, other[j]!));
        });
      });
    },
  );

  it('ranks English paraphrases above unrelated text (the issue’s example: GloVe alone fails it)', async () => {
    const [car, drive, school, kitten, cat, tax] = await embed([
      'My car is a blue Fiat Panda',
      'what do I drive',
      'Our daughter starts school in September',
      'a kitten rested on the rug',
      'the cat sat on the mat',
      'quarterly tax filing deadline',
    ]);
    expect(dot(drive!, car!)).toBeGreaterThan(dot(drive!, school!));
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, tax!) + 0.2);
  });
});
