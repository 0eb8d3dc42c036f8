import { cp, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MODEL_ID, modelRootPath } from '@anamnesis/model-default';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embedding/embedder.ts';
import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';
import { createModelEmbedder } from '../src/embedding/model-embedder.ts';
import { createStaticEmbedder, isStaticModel } from '../src/embedding/static-embedder.ts';
import { rejectsWith } from './helpers.ts';

/** LoCoMo dev conversations (the repo's shared data), when this machine has them. */
const LOCOMO_DIR = process.env.ANAMNESIS_LOCOMO_DEV ?? '/work/shared/data/locomo-dev';

/** Texts meant to break a tokenizer or a pooling: empty, odd scripts, controls, over-long. */
const HOSTILE = [
  '',
  ' ',
  '\n\t\r ',
  '😀🎉👩‍👩‍👧‍👦 emoji only 🧠',
  '東京で会いましょう。明日は雨です',
  '中文文本没有空格',
  '한국어 문장입니다',
  'Café naïve résumé Ångström Øresund façade',
  'e\u0301 combining accents a\u0308',
  'ΑΒΓ αβγ Ελληνικά',
  'مرحبا بالعالم',
  'שלום עולם',
  'Привет, мир',
  '!!!???...,,,;;;:::---___***',
  '()[]{}<>@#$%^&*+=|\\/~`"\'',
  '\u0000\u0001\u0007\u001b[31m control',
  '\u200b\u200c\u200d\ufeff zero width',
  'lone surrogates \ud800 \udfff',
  '[CLS] [SEP] [MASK] [PAD] [UNK] special tokens in text',
  '<script>alert(1)</script> <b>bold</b>',
  'https://example.com/a/b?c=d&e=f#g user@example.com',
  '3.14159 1,000,000 2024-01-02 12:30',
  'HELLO World MiXeD CaSe',
  'a'.repeat(101),
  'antidisestablishmentarianism supercalifragilisticexpialidocious',
  'word '.repeat(600),
  'the quick brown fox jumps over the lazy dog. '.repeat(60),
  '東'.repeat(700),
  '🙂'.repeat(600),
  'x'.repeat(5000),
];

interface Turn {
  speaker: string;
  text: string;
}

/** Every turn of the LoCoMo dev conversations, as `speaker: text` and as the bare text. */
async function locomoTexts(): Promise<string[]> {
  let files: string[];
  try {
    files = (await readdir(LOCOMO_DIR)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const file of files) {
    const data = JSON.parse(await readFile(join(LOCOMO_DIR, file), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(data)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const turn of value as Turn[]) out.push(`${turn.speaker}: ${turn.text}`, turn.text);
    }
  }
  return out;
}

let root: string;
let onnx: Embedder;
let plain: Embedder;
let temp: string;

beforeAll(async () => {
  root = await modelRootPath();
  temp = await mkdtemp(join(tmpdir(), 'anamnesis-static-'));
  onnx = await createTransformersEmbedder({ model: MODEL_ID, localModelPath: root, threads: 1 });
  plain = await createStaticEmbedder({ model: MODEL_ID, localModelPath: root });
});
afterAll(async () => {
  await onnx?.dispose?.();
  await rm(temp, { recursive: true, force: true });
});

/** Largest absolute difference between two lists of vectors (Infinity on a shape mismatch). */
function maxAbsDiff(a: Float32Array[], b: Float32Array[]): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  a.forEach((v, i) => {
    const w = b[i]!;
    if (v.length !== w.length) max = Infinity;
    for (let d = 0; d < v.length; d++) max = Math.max(max, Math.abs(v[d]! - w[d]!));
  });
  return max;
}

/** How many vectors differ in at least one bit. */
function differingVectors(a: Float32Array[], b: Float32Array[]): number {
  return a.filter((v, i) => Buffer.compare(Buffer.from(v.buffer), Buffer.from(b[i]!.buffer)) !== 0)
    .length;
}

describe('createStaticEmbedder (the default model without ONNX Runtime)', () => {
  it('describes itself as the default model, in plain JavaScript', () => {
    expect(plain).toMatchObject({ id: MODEL_ID, dims: onnx.dims, device: 'cpu', runtime: 'js' });
    expect(plain.selection).toEqual({ requested: 'auto', device: 'cpu', reason: 'static' });
    expect(onnx.runtime).toBe('onnx');
  });

  it('gives bit-identical vectors to the ONNX pipeline on every LoCoMo dev turn and hostile text', async () => {
    const texts = [...(await locomoTexts()), ...HOSTILE];
    expect(texts.length).toBeGreaterThan(HOSTILE.length);
    const truncatedBefore = [onnx.truncated, plain.truncated];
    const expected = await onnx.embed(texts);
    const actual = await plain.embed(texts);
    const diff = maxAbsDiff(expected, actual);
    console.log(
      `static vs ONNX: ${texts.length} texts, max |diff| ${diff}, ` +
        `${differingVectors(expected, actual)} vectors differ in any bit`,
    );
    expect(diff).toBe(0);
    expect(differingVectors(expected, actual)).toBe(0);
    // Both count the same texts as truncated (over 512 tokens).
    expect(plain.truncated - truncatedBefore[1]!).toBe(onnx.truncated - truncatedBefore[0]!);
    expect(plain.truncated - truncatedBefore[1]!).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('embeds hostile texts to unit-length or zero vectors, never NaN', async () => {
    for (const v of await plain.embed(HOSTILE)) {
      expect(v).toHaveLength(plain.dims);
      expect(v.every(Number.isFinite)).toBe(true);
      const norm = Math.hypot(...v);
      expect(norm === 0 || Math.abs(norm - 1) < 1e-5).toBe(true);
    }
  });

  it('gives the same vector for a text alone as in a batch, in input order', async () => {
    const texts = ['dinner with Anna on friday', ...HOSTILE.slice(0, 10), 'my cat sleeps all day'];
    const batch = await plain.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await plain.embed([text]);
      expect(Buffer.from(alone!.buffer).equals(Buffer.from(batch[i]!.buffer))).toBe(true);
    }
    expect(await plain.embed([])).toEqual([]);
  });

  it('truncates as transformers.js does: the first 512 tokens count, the rest is ignored', async () => {
    const head = 'apple '.repeat(510);
    const [a, b] = await plain.embed([`${head}banana`, `${head}banana cherry grape melon`]);
    expect(Buffer.from(a!.buffer).equals(Buffer.from(b!.buffer))).toBe(true);
  });

  it('rejects bad input and options with INVALID_INPUT', async () => {
    await rejectsWith(plain.embed([42 as unknown as string]), 'INVALID_INPUT');
    await rejectsWith(createStaticEmbedder({ model: '' }), 'INVALID_INPUT');
    await rejectsWith(createStaticEmbedder({ model: MODEL_ID }), 'INVALID_INPUT');
    await rejectsWith(
      createStaticEmbedder({ model: MODEL_ID, localModelPath: root, device: 'webgpu' }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      createStaticEmbedder({ model: MODEL_ID, localModelPath: root, batchSize: 0 }),
      'INVALID_INPUT',
    );
  });

  it.each([
    ['tokenizer.json', undefined, 'missing'],
    ['tokenizer_config.json', undefined, 'missing'],
    ['onnx/model_quantized.onnx', undefined, 'missing'],
    ['tokenizer.json', 'not json', 'corrupt'],
    ['onnx/model_quantized.onnx', 'not a protobuf at all', 'corrupt'],
  ] as const)('%s %s gives MODEL_LOAD_FAILED naming the file', async (file, content, reason) => {
    const dir = join(temp, `${file.replace(/\W/g, '_')}-${reason}`);
    await cp(root, dir, { recursive: true });
    const path = join(dir, MODEL_ID, file);
    if (content === undefined) await unlink(path);
    else await writeFile(path, content);
    const error = await rejectsWith(
      createStaticEmbedder({ model: MODEL_ID, localModelPath: dir }),
      'MODEL_LOAD_FAILED',
    );
    expect(error.details).toMatchObject({ model: MODEL_ID, file, reason });
  });
  it('builds the full tokenizer only for a text the ASCII shortcut leaves to it, and a tokenizer.json it cannot build fails that call', async () => {
    const dir = join(temp, 'bad-decoder');
    await cp(root, dir, { recursive: true });
    const path = join(dir, MODEL_ID, 'tokenizer.json');
    const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...json, decoder: { type: 'Nope' } }));
    const embedder = await createStaticEmbedder({ model: MODEL_ID, localModelPath: dir });
    const [ascii] = await embedder.embed(['plain ascii text, as most notes are']);
    const [expected] = await plain.embed(['plain ascii text, as most notes are']);
    expect(Buffer.from(ascii!.buffer).equals(Buffer.from(expected!.buffer))).toBe(true);
    const error = await rejectsWith(embedder.embed(['café au lait']), 'MODEL_LOAD_FAILED');
    expect(error.details).toMatchObject({
      model: MODEL_ID,
      file: 'tokenizer.json',
      reason: 'corrupt',
    });
    await rejectsWith(embedder.embed(['naïve']), 'MODEL_LOAD_FAILED');
  });
});

describe('createModelEmbedder', () => {
  it('runs the default model in plain JavaScript unless ONNX is asked for', async () => {
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: root })).toBe(true);
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: root, device: 'wasm' })).toBe(
      true,
    );
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: root, runtime: 'onnx' })).toBe(
      false,
    );
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: root, device: 'webgpu' })).toBe(
      false,
    );
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: root, dtype: 'fp32' })).toBe(
      false,
    );
    expect(await isStaticModel({ model: MODEL_ID })).toBe(false);
    expect(await isStaticModel({ model: 'no/such-model', localModelPath: root })).toBe(false);

    const auto = await createModelEmbedder({ model: MODEL_ID, localModelPath: root });
    expect(auto.runtime).toBe('js');
    const forced = await createModelEmbedder({
      model: MODEL_ID,
      localModelPath: root,
      runtime: 'onnx',
      threads: 1,
    });
    expect(forced.runtime).toBe('onnx');
    const text = ['a note about the garden'];
    expect(await auto.embed(text)).toEqual(await forced.embed(text));
    await forced.dispose?.();
  });

  it('leaves a model whose config.json is missing to the ONNX path and its errors', async () => {
    const dir = join(temp, 'no-config');
    await cp(root, dir, { recursive: true });
    await unlink(join(dir, MODEL_ID, 'config.json'));
    expect(await isStaticModel({ model: MODEL_ID, localModelPath: dir })).toBe(false);
    const error = await rejectsWith(
      createModelEmbedder({ model: MODEL_ID, localModelPath: dir }),
      'MODEL_LOAD_FAILED',
    );
    expect(error.details).toMatchObject({ file: 'config.json' });
  });
});
