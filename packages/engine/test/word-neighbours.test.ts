import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeNeighbourTable,
  encodeNeighbourTable,
  MODEL_ID,
  modelRootPath,
  NEIGHBOUR_TABLE_FILE,
  readStaticWeights,
  STATIC_MODEL_FILES,
  weightsFingerprint,
} from '@anamnesis/model-default';
import { describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../src/embedding/static-embedder.ts';
import {
  NEIGHBOUR_MIN_COSINE,
  NEIGHBOURS_PER_WORD,
  WordNeighbours,
} from '../src/embedding/word-neighbours.ts';
import { objectVocabulary } from '../src/embedding/vocabulary.ts';
import { defaultEmbedder } from './helpers.ts';

/** Exact neighbours by brute force over every row (what `WordNeighbours` must return). */
function bruteForce(
  vocab: Record<string, number>,
  table: Int8Array,
  scales: Float32Array,
  dims: number,
  word: string,
): string[] {
  const words = Object.entries(vocab);
  const row = (id: number) => Array.from(table.subarray(id * dims, (id + 1) * dims));
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const id = vocab[word]!;
  const q = row(id);
  return words
    .filter(([w, i]) => i !== id && /^\p{Ll}+$/u.test(w) && scales[i] !== 0 && norm(row(i)) > 0)
    .map(([w, i]) => {
      const r = row(i);
      return [w, i, r.reduce((s, x, k) => s + x * q[k]!, 0) / (norm(r) * norm(q))] as const;
    })
    .filter(([, , c]) => c >= NEIGHBOUR_MIN_COSINE)
    .sort((a, b) => b[2] - a[2] || a[1] - b[1])
    .slice(0, NEIGHBOURS_PER_WORD)
    .map(([w]) => w);
}

describe('WordNeighbours', () => {
  it('returns the exact nearest plain words of a table, as a brute-force scan finds them', () => {
    // clusters of words around a few directions, with noise: many cosines near the floor
    const dims = 24;
    const count = 600;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const centres = Array.from({ length: 12 }, () => Array.from({ length: dims }, rand));
    const table = new Int8Array(count * dims);
    const scales = new Float32Array(count).fill(0.01);
    const vocab: Record<string, number> = {};
    for (let i = 0; i < count; i++) {
      const c = centres[i % centres.length]!;
      for (let d = 0; d < dims; d++)
        table[i * dims + d] = Math.max(
          -127,
          Math.min(127, Math.round((c[d]! + rand() * 0.6) * 90)),
        );
      vocab[
        i % 50 === 3 ? `##x${i}` : `w${String.fromCharCode(97 + (i % 26))}${'q'.repeat(i % 7)}${i}`
      ] = i;
    }
    scales[5] = 0; // a zero row is nobody's neighbour
    // plain words are letters only: rename so that most are
    const plain: Record<string, number> = {};
    for (const [w, i] of Object.entries(vocab))
      plain[w.startsWith('##') ? w : w.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)] = i;
    const n = new WordNeighbours(objectVocabulary(plain), table, scales, dims);
    let nonEmpty = 0;
    for (const word of Object.keys(plain)
      .filter((w) => !w.startsWith('##'))
      .slice(0, 150)) {
      const expected = bruteForce(plain, table, scales, dims, word);
      expect(n.of(word), word).toEqual(plain[word] === 5 ? [] : expected);
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(50);
    expect(n.of('not-a-word')).toEqual([]);
  });

  it('the default model: "accident" has "crash" among its neighbours, a name or an unknown word none', async () => {
    const embedder = await defaultEmbedder();
    expect(embedder.neighbours!('accident')).toContain('crash');
    expect(embedder.neighbours!('accident')).toEqual(embedder.neighbours!('accident'));
    expect(embedder.neighbours!('Accident')).toEqual([]);
    expect(embedder.neighbours!('zzqxv')).toEqual([]);
    for (const w of embedder.neighbours!('holiday')) expect(w).toMatch(/^\p{Ll}+$/u);
  });

  it('knows the plain words of its vocabulary: not a word piece, a special token, an inherited name or a word it lacks', async () => {
    const embedder = await defaultEmbedder();
    expect(embedder.knows!('kitten')).toBe(true);
    expect(embedder.knows!('holiday')).toBe(true);
    // in its vocabulary but not plain words ('##!' a word piece, '.' punctuation); 'toString' and
    // '__proto__' names every object has, not vocabulary entries
    for (const token of [
      '##!',
      '.',
      '[UNK]',
      '[CLS]',
      'Kitten',
      'zzqxv',
      'toString',
      '__proto__',
      '',
    ])
      expect(embedder.knows!(token), token).toBe(false);
  });
});

describe("the default model's shipped neighbour table", () => {
  const read = async (file: string) => readFileSync(join(await modelRootPath(), MODEL_ID, file));
  const load = async () => {
    const weights = readStaticWeights(new Uint8Array(await read(STATIC_MODEL_FILES.weights)));
    const vocab = (
      JSON.parse((await read(STATIC_MODEL_FILES.tokenizer)).toString('utf8')) as {
        model: { vocab: Record<string, number> };
      }
    ).model.vocab;
    const table = decodeNeighbourTable(new Uint8Array(await read(NEIGHBOUR_TABLE_FILE)));
    return { weights, vocab, table };
  };

  it('fits the model and answers as the search over its rows does, on a spread of tokens', async () => {
    const { weights, vocab, table } = await load();
    const shape = {
      rows: weights.vocabSize,
      dims: weights.dims,
      fingerprint: weightsFingerprint(weights),
    };
    expect(WordNeighbours.tableFits(table, shape)).toBe(true);
    const { table: rows, scale, dims } = weights;
    const searched = new WordNeighbours(objectVocabulary(vocab), rows, scale, dims);
    const shipped = new WordNeighbours(objectVocabulary(vocab), rows, scale, dims, table);
    // every 97th token (plain words, pieces, numbers, words without neighbours) and some known ones
    const tokens = Object.keys(vocab).filter((_, i) => i % 97 === 0);
    tokens.push('accident', 'holiday', 'car', 'passport', '2019');
    let withSome = 0;
    for (const token of tokens) {
      const want = searched.of(token);
      expect(shipped.of(token), token).toEqual(want);
      if (want.length > 0) withSome++;
    }
    expect(withSome).toBeGreaterThan(tokens.length / 4);
    expect(withSome).toBeLessThan(tokens.length);
  });

  it('the embedder reads a fitting table, and searches the rows when the table is for other weights or unreadable', async () => {
    const { table } = await load();
    const root = mkdtempSync(join(tmpdir(), 'anamnesis-neighbours-'));
    try {
      cpSync(join(await modelRootPath(), MODEL_ID), join(root, MODEL_ID), { recursive: true });
      const file = join(root, MODEL_ID, NEIGHBOUR_TABLE_FILE);
      const embed = () =>
        createStaticEmbedder({ model: MODEL_ID, localModelPath: root, device: 'cpu' });
      const searched = (await embed()).neighbours!('accident');
      expect(searched).toContain('crash');
      // a table that fits but says otherwise is what the embedder answers from
      const ids = JSON.parse(
        readFileSync(join(root, MODEL_ID, STATIC_MODEL_FILES.tokenizer), 'utf8'),
      ).model.vocab as Record<string, number>;
      const altered = new Map(table.neighbours).set(ids.accident!, [ids.banana!]);
      writeFileSync(file, encodeNeighbourTable({ ...table, neighbours: altered }));
      expect((await embed()).neighbours!('accident')).toEqual(['banana']);
      // the same table for other weights (fingerprint) or other rules is not used
      writeFileSync(
        file,
        encodeNeighbourTable({ ...table, neighbours: altered, fingerprint: table.fingerprint ^ 1 }),
      );
      expect((await embed()).neighbours!('accident')).toEqual(searched);
      writeFileSync(file, encodeNeighbourTable({ ...table, neighbours: altered, perWord: 3 }));
      expect((await embed()).neighbours!('accident')).toEqual(searched);
      writeFileSync(file, new Uint8Array([1, 2, 3]));
      expect((await embed()).neighbours!('accident')).toEqual(searched);
      rmSync(file);
      expect((await embed()).neighbours!('accident')).toEqual(searched);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
