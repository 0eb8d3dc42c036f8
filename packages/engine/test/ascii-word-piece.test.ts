import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { MODEL_ID, modelRootPath, STATIC_MODEL_FILES } from '@anamnesis/model-default';
import { mulberry32 } from '@anamnesis/ranking';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  asciiWordPiece,
  packWordPiece,
  readWordPiece,
  unpackWordPiece,
} from '../src/embedding/ascii-word-piece.ts';

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
  shortcut = asciiWordPiece(readWordPiece(json, config)!);
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
/** Letters and digits a random word is drawn from, so WordPiece splits words it has never seen. */
const LETTERS = 'etaoinshrdlucmfwypvbgkjqxzETAOIN0123456789'.split('');

describe('asciiWordPiece', () => {
  it('gives the ids of Tokenizer.encode on random ASCII text', () => {
    const random = mulberry32(20261126);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    let checked = 0;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const parts = 1 + Math.floor(random() * 40);
      for (let p = 0; p < parts; p++) {
        const r = random();
        if (r < 0.35) text += pick(WORDS);
        else if (r < 0.6)
          text += Array.from({ length: 1 + Math.floor(random() * 14) }, () => pick(LETTERS)).join(
            '',
          );
        else text += pick(ALPHABET);
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

  it('reads a BertProcessing post-processor and a vocabulary of its own as the tokenizer does', () => {
    const model = json.model as Record<string, unknown>;
    const vocab = { ...(model.vocab as Record<string, number>), constructor: 50081, '##zz': 50082 };
    const other = {
      ...json,
      model: { ...model, vocab, max_input_chars_per_word: 12 },
      post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
    };
    const full = new Tokenizer(other, config);
    const fast = asciiWordPiece(readWordPiece(other, config)!);
    for (const text of [
      'the constructor of toString',
      'hasOwnProperty __proto__ valueOf',
      'xqzz buzz fizzbuzzzz',
      'abcdefghijkl abcdefghijklm',
      'Hello, World!',
    ])
      expect(fast(text), text).toEqual(full.encode(text).ids);
  });

  it('declines tokenizers of another kind', () => {
    const other = { ...json, normalizer: { ...(json.normalizer as object), lowercase: false } };
    expect(readWordPiece(other, config)).toBeUndefined();
    expect(readWordPiece({ ...json, pre_tokenizer: null }, config)).toBeUndefined();
    expect(readWordPiece(json, { ...config, remove_space: true })).toBeUndefined();
    const model = json.model as Record<string, unknown>;
    expect(
      readWordPiece({ ...json, model: { ...model, unk_token: '[NOPE]' } }, config),
    ).toBeUndefined();
    const post = { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[X]' } }] };
    expect(readWordPiece({ ...json, post_processor: post }, config)).toBeUndefined();
  });

  it('reads the same ids from its packed form, and refuses packed bytes that are cut or altered', () => {
    const prepared = readWordPiece(json, config)!;
    const packed = packWordPiece(prepared)!;
    const unpacked = unpackWordPiece(packed)!;
    expect(unpacked.shortcut).toEqual(prepared.shortcut);
    const fast = asciiWordPiece(unpacked);
    const random = mulberry32(20261208);
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 30) }, () =>
        random() < 0.5
          ? WORDS[Math.floor(random() * WORDS.length)]!
          : LETTERS[Math.floor(random() * LETTERS.length)]!,
      ).join(random() < 0.5 ? ' ' : '');
      expect(fast(text), text).toEqual(shortcut(text)); // undefined alike on an added token
    }
    expect(unpackWordPiece(packed.subarray(0, packed.length - 1))).toBeUndefined();
    expect(unpackWordPiece(packed.subarray(0, 3))).toBeUndefined();
    const altered = packed.slice();
    altered[4] = 0x7b + 1; // the shortcut's JSON no longer parses
    expect(unpackWordPiece(altered)).toBeUndefined();
  });
});
