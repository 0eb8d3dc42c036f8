import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { MODEL_ID, modelRootPath, STATIC_MODEL_FILES } from '@anamnesis/model-default';
import { mulberry32 } from '@anamnesis/ranking';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';

import { asciiWordPiece } from '../src/ascii-word-piece.ts';

let json: Record<string, unknown>;
let config: Record<string, unknown>;
let tokenizer: Tokenizer;
let shortcut: (text: string) => number[] | undefined;

beforeAll(async () => {
  const dir = join(await modelRootPath(), MODEL_ID);
  const read = async (file: string) =>
    JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
  json = await read(STATIC_MODEL_FILES.tokenizer);
  config = await read(STATIC_MODEL_FILES.tokenizerConfig);
  tokenizer = new Tokenizer(json, config);
  shortcut = asciiWordPiece(tokenizer, json, config)!;
});

/** Characters a random text is drawn from: printable ASCII (more spaces), tab, line feed, CR. */
const ALPHABET = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
];
const WORDS = ['the', 'Meeting', 'unaffable', 'xqzzv', 'CLS', 'SEP', '[', ']', "don't", 'e-mail'];

describe('asciiWordPiece', () => {
  it('gives the ids of Tokenizer.encode on random ASCII text', () => {
    const random = mulberry32(20261126);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    let checked = 0;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const parts = 1 + Math.floor(random() * 40);
      for (let p = 0; p < parts; p++) {
        text += random() < 0.5 ? pick(WORDS) : pick(ALPHABET);
        if (random() < 0.1) text += 'x'.repeat(Math.floor(random() * 130)); // over WordPiece's 100
        if (random() < 0.003) text += '[CLS]';
      }
      const fast = shortcut(text);
      if (fast === undefined) continue;
      checked++;
      expect(fast, JSON.stringify(text)).toEqual(tokenizer.encode(text).ids);
    }
    expect(checked).toBeGreaterThan(1600);
  }, 120_000);

  it('leaves to the tokenizer what is not plain ASCII, or holds an added token', () => {
    for (const text of [
      'Café',
      'tab\u000bvertical',
      'nul\u0000',
      'del\u007f',
      'emoji 😀',
      'nbsp\u00a0here',
      '[CLS] a',
      'a [MASK]',
      '[UNK]',
    ])
      expect(shortcut(text), text).toBeUndefined();
    for (const text of ['', 'a', '  ', 'Hello, World!', '[cls]', 'x'.repeat(500)])
      expect(shortcut(text), text).toEqual(tokenizer.encode(text).ids);
  });

  it('declines tokenizers of another kind', () => {
    const other = { ...json, normalizer: { ...(json.normalizer as object), lowercase: false } };
    expect(asciiWordPiece(tokenizer, other, config)).toBeUndefined();
    expect(asciiWordPiece(tokenizer, { ...json, pre_tokenizer: null }, config)).toBeUndefined();
    expect(asciiWordPiece(tokenizer, json, { ...config, remove_space: true })).toBeUndefined();
  });
});
