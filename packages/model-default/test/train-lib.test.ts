import { describe, expect, it } from 'vitest';

import { exp, prng, shuffle, toBags } from '../scripts/lib/contrastive.ts';
import { parseSources, parseTranslation } from '../scripts/lib/ddtp.ts';
import { probesOf, textsWithPassages } from '../scripts/lib/leakage.ts';
import { tokenizerJson } from '../scripts/lib/model.ts';
import { kindOf, scriptRuns } from '../scripts/lib/multi-vocab.ts';
import { splitOf } from '../scripts/lib/training-data.ts';
import { definitionOf, parseWordNetData, plainWord } from '../scripts/lib/wordnet.ts';
import { checkAgainstLibrary, WordPiece } from '../scripts/lib/wordpiece.ts';

describe('the training script’s parts', () => {
  it('parses DDTP stanzas: short and long descriptions, paragraphs, CJK lines joined without a space', () => {
    const text = [
      'Package: demo',
      'Description-md5: 0123456789abcdef0123456789abcdef',
      'Description-ja: デモ パッケージ',
      ' 本パッケージは、',
      ' 基本的なツールを収録しています。',
      ' .',
      ' Second paragraph',
      ' continues here.',
      '',
      'Package: broken',
      'Description-md5: ffff',
      '',
    ].join('\n');
    expect(parseTranslation(text, 'ja')).toEqual([
      {
        package: 'demo',
        md5: '0123456789abcdef0123456789abcdef',
        short: 'デモ パッケージ',
        long: '本パッケージは、基本的なツールを収録しています。\nSecond paragraph continues here.',
      },
    ]);
    const sources = parseSources('Package: a\nSource: b (1.0)\n\nPackage: c\nVersion: 1\n');
    expect([...sources]).toEqual([
      ['a', 'b'],
      ['c', 'c'],
    ]);
  });

  it('finds a passage of the evaluation quoted inside a training text, and nothing else', () => {
    const passage = {
      corpus: 'notes',
      id: 'n-demo',
      text: 'demo tool\n\nDemo is a tool to convert, resize and annotate pictures in many file formats quickly.',
    };
    expect(probesOf(passage.text)).toHaveLength(1);
    const found = textsWithPassages(
      [passage],
      [
        'An unrelated description of a text editor.',
        'Python bindings. Demo is a tool to convert,   resize and annotate pictures in many file formats quickly. More.',
      ],
    );
    expect([...found.keys()]).toEqual([1]);
  });

  it('splits by source package, the same way every time', () => {
    const counts = { train: 0, validation: 0, test: 0 };
    for (let i = 0; i < 2000; i++) counts[splitOf(`pkg${i}`, 'salt')]++;
    expect(counts.test / 2000).toBeGreaterThan(0.07);
    expect(counts.test / 2000).toBeLessThan(0.13);
    expect(counts.validation / 2000).toBeGreaterThan(0.03);
    expect(splitOf('coreutils', 'salt')).toBe(splitOf('coreutils', 'salt'));
  });

  it('computes exp from exact operations, within 2 ulp of Math.exp', () => {
    for (const x of [-700, -50, -10.5, -1, -1e-9, 0, 0.3, 1, 20, 300]) {
      const got = exp(x);
      expect(Math.abs(got - Math.exp(x)) / Math.exp(x)).toBeLessThan(5e-16);
    }
    expect(exp(-800)).toBe(0);
  });

  it('shuffles deterministically from a seed', () => {
    const a = Int32Array.from({ length: 50 }, (_, i) => i);
    const b = Int32Array.from({ length: 50 }, (_, i) => i);
    shuffle(a, prng(7));
    shuffle(b, prng(7));
    expect([...a]).toEqual([...b]);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect([...a]).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('makes bags of trainable tokens with their counts', () => {
    const bags = toBags(
      [
        [5, 6, 5, 1],
        [1, 1],
      ],
      (id) => id !== 1,
    );
    expect([...bags.start]).toEqual([0, 2, 2]);
    expect([...bags.ids]).toEqual([5, 6]);
    expect([...bags.counts]).toEqual([2, 1]);
  });

  it('cuts words at script changes and gives zero rows to letters, punctuation and specials', () => {
    expect(scriptRuns('パッケージは')).toEqual(['パッケージ', 'は']);
    expect(scriptRuns('gnomeの')).toEqual(['gnome', 'の']);
    expect(kindOf('[CLS]', false)).toBe('zero');
    expect(kindOf('##x', false)).toBe('zero');
    expect(kindOf('я', false)).toBe('zero');
    expect(kindOf('の', false)).toBe('new');
    expect(kindOf('目', false)).toBe('new');
    expect(kindOf('##ungen', false)).toBe('new');
    expect(kindOf('house', true)).toBe('glove');
  });

  it('tokenises as @huggingface/tokenizers does, in every script', () => {
    const vocab = [
      '[PAD]',
      '[UNK]',
      '[CLS]',
      '[SEP]',
      '[MASK]',
      'verzeichnis',
      '##se',
      'каталог',
      '##ов',
      'ハッケーシ', // パッケージ as the normaliser leaves it (voicing marks stripped with the accents)
      '##は',
      '目',
      '录',
      'cafe',
      ',',
    ];
    const wordPiece = new WordPiece(vocab);
    expect(wordPiece.encode('Verzeichnisse, каталогов')).toEqual([5, 6, 14, 7, 8]);
    expect(wordPiece.encode('パッケージは 目录 CAFÉ zzz')).toEqual([9, 10, 11, 12, 13, 1]);
    checkAgainstLibrary(wordPiece, tokenizerJson(vocab), { model_max_length: 512 }, [
      'Verzeichnisse, каталогов',
      'パッケージは 目录 CAFÉ zzz',
      'x'.repeat(150),
    ]);
    expect(() =>
      checkAgainstLibrary(new WordPiece(vocab.slice(0, 6)), tokenizerJson(vocab), {}, [
        'Verzeichnisse',
      ]),
    ).toThrow(/mismatch/);
  });

  it("reads WordNet's data lines: words, hypernyms, gloss, definition", () => {
    const text = [
      '  1 This software and database is being provided to you, the LICENSEE, by  ',
      '10006177 18 n 02 dermatologist 0 skin_doctor 0 002 @ 10632576 n 0000 + 06049500 n 0101 | a doctor who specializes in the physiology and pathology of the skin  ',
      '00012345 00 s 01 galore(ip) 0 001 & 00011111 a 0000 | in great numbers; "there were daffodils galore"  ',
    ].join('\n');
    const [doctor, galore, ...rest] = parseWordNetData(text);
    expect(rest).toEqual([]);
    expect(doctor).toEqual({
      key: '10006177n',
      words: ['dermatologist', 'skin_doctor'],
      hypernyms: ['10632576n'],
      gloss: 'a doctor who specializes in the physiology and pathology of the skin',
    });
    expect(doctor!.words.map(plainWord)).toEqual(['dermatologist', 'skin doctor']);
    expect(galore!.hypernyms).toEqual(['00011111a']);
    expect(plainWord(galore!.words[0]!)).toBe('galore');
    expect(definitionOf(galore!.gloss)).toBe('in great numbers');
    expect(definitionOf(doctor!.gloss)).toBe(doctor!.gloss);
  });
});
