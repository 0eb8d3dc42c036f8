import {
  ENGLISH_MODEL_ID,
  englishModelRootPath,
  MODEL_ID,
  modelRootPath,
} from '@anamnesis/model-default';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { createStaticEmbedder } from '../src/embedding/static-embedder.ts';
import { createEngine, createModelEmbedder, defaultEmbedderOptions } from '../src/index.ts';
import { modelShare } from '../src/recall/model-share.ts';
import { rejectsWith } from './helpers.ts';

describe('modelShare: the share of a query the model reads', () => {
  it('takes a model that names no language for an English one: Latin words only, numbers by choice', () => {
    expect(modelShare(['copy', 'files'], false)).toBe(1);
    expect(modelShare(['复制', '文件', 'cp'], false)).toBeCloseTo(1 / 3);
    expect(modelShare(['копировать', 'файлы'], false)).toBe(0);
    expect(modelShare(['ticket', '4711'], false)).toBe(0.5);
    expect(modelShare(['ticket', '4711'], true)).toBe(1);
    expect(modelShare(['naïve', 'mp3'], false)).toBe(1);
    expect(modelShare([], false)).toBe(1);
  });

  it("reads the scripts of the model's languages", () => {
    const multi = ['en', 'de', 'fr', 'es', 'ru', 'ja', 'zh_CN'];
    expect(modelShare(['копировать', 'файлы', 'cp'], false, multi)).toBe(1);
    expect(modelShare(['ファイル', 'コピー', 'する'], false, multi)).toBe(1);
    expect(modelShare(['复制', '文件'], false, multi)).toBe(1);
    // Chinese alone reads Han, not kana, nor Cyrillic
    expect(modelShare(['复制', 'コピー', 'файлы'], false, ['zh'])).toBeCloseTo(1 / 3);
    // a language it does not map is taken as written in Latin
    expect(modelShare(['kopioi', 'tiedostot'], false, ['fi'])).toBe(1);
    expect(modelShare(['Ελλάδα'], false, ['el'])).toBe(1);
    expect(modelShare(['Ελλάδα'], false, ['en'])).toBe(0);
  });
});

describe("a static model's languages come from its config.json", () => {
  it('the default model names its seven', async () => {
    const embedder = await createStaticEmbedder({
      model: MODEL_ID,
      localModelPath: await modelRootPath(),
    });
    expect(embedder.languages).toEqual(['en', 'de', 'fr', 'es', 'ru', 'ja', 'zh_CN']);
  });

  it('the English model names none (English)', async () => {
    const embedder = await createStaticEmbedder({
      model: ENGLISH_MODEL_ID,
      localModelPath: await englishModelRootPath(),
    });
    expect(embedder.languages).toBeUndefined();
  });
});

describe("an ONNX model's languages and word table come from its config.json", () => {
  it('a local model that is not static names its languages for recall', async () => {
    // The default model's files with another kind in config.json: transformers.js runs the graph.
    const root = mkdtempSync(join(tmpdir(), 'anamnesis-onnx-model-'));
    const copy = async (
      id: string,
      anamnesis: (named: Record<string, unknown>) => Record<string, unknown>,
    ) => {
      const folder = join(root, id);
      cpSync(join(await modelRootPath(), MODEL_ID), folder, { recursive: true });
      const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as {
        anamnesis: Record<string, unknown>;
      };
      config.anamnesis = anamnesis(config.anamnesis);
      writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
      return createModelEmbedder({ model: id, localModelPath: root });
    };
    try {
      const multi = await copy('test/onnx-multi', (named) => ({ ...named, kind: 'onnx-test' }));
      expect(multi.selection?.reason).not.toBe('static');
      expect(multi.languages).toEqual(['en', 'de', 'fr', 'es', 'ru', 'ja', 'zh_CN']);
      await multi.dispose?.();
      // no word table of its own: no neighbours (the expansion leg), no known words
      expect(typeof multi.neighbours).toBe('undefined');
      expect(typeof multi.knows).toBe('undefined');
      const english = await copy('test/onnx-english', () => ({ kind: 'onnx-test' }));
      expect(english.selection?.reason).not.toBe('static');
      expect(english.languages).toBeUndefined();
      await english.dispose?.();
      // one that borrows the default model's word table (the same tokenizer), served beside it
      cpSync(join(await modelRootPath(), MODEL_ID), join(root, MODEL_ID), { recursive: true });
      const borrowing = await copy('test/onnx-borrowing', () => ({
        kind: 'onnx-test',
        word_table: MODEL_ID,
      }));
      const table = await createStaticEmbedder({ model: MODEL_ID, localModelPath: root });
      expect(borrowing.selection?.reason).not.toBe('static');
      expect(borrowing.knows?.('house')).toBe(true);
      expect(borrowing.knows?.('qzxvw')).toBe(false);
      expect(borrowing.neighbours?.('doctor')).toEqual(table.neighbours?.('doctor'));
      expect(borrowing.neighbours?.('doctor')).toContain('physician');
      // its own languages, none named: English (the word table's are not its own)
      expect(borrowing.languages).toBeUndefined();
      await borrowing.dispose?.();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the languages option', () => {
  it('names the languages of a model, checked', async () => {
    const options = await defaultEmbedderOptions();
    const named = await createStaticEmbedder({ ...options, languages: ['en', 'zh_CN'] });
    expect(named.languages).toEqual(['en', 'zh_CN']);
    for (const languages of [[], [''], ['english language'], 'en', [1]])
      await rejectsWith(
        createStaticEmbedder({ ...options, languages: languages as string[] }),
        'INVALID_INPUT',
      );
  });

  it("weighs the vector leg by the share of a query in the model's scripts", async () => {
    const vectorWeight = async (languages?: string[]) => {
      const options = await defaultEmbedderOptions();
      const embedder = await createStaticEmbedder({
        ...options,
        ...(languages ? { languages } : {}),
      });
      const engine = await createEngine({ storage: 'memory', embedder });
      try {
        await engine.remember({ text: '复制文件和目录 copy files' });
        const [top] = await engine.recall('复制 文件 copy', { explain: true, noCache: true });
        return top!.explain!.contributions.find((c) => c.component === 'rrf:vector')?.weight;
      } finally {
        await engine.close();
      }
    };
    const english = await vectorWeight(['en']);
    const chinese = await vectorWeight(['en', 'zh']);
    // one word of three is Latin: an English model's vector leg counts a third of its weight
    expect(english).toBeCloseTo(chinese! / 3, 6);
    expect(chinese).toBeGreaterThan(0);
    // the default model names Chinese among its languages (config.json): it reads all three
    expect(await vectorWeight()).toBeCloseTo(chinese!, 6);
  });
});
