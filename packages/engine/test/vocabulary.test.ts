import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { MODEL_ID, modelRootPath, STATIC_MODEL_FILES } from '@anamnesis/model-default';
import { describe, expect, it } from 'vitest';

import { objectVocabulary, packVocabulary, unpackVocabulary } from '../src/embedding/vocabulary.ts';

describe('a packed vocabulary', () => {
  it("answers every token of the default model's vocabulary as the parsed object does", async () => {
    const json = JSON.parse(
      await readFile(join(await modelRootPath(), MODEL_ID, STATIC_MODEL_FILES.tokenizer), 'utf8'),
    ) as { model: { vocab: Record<string, number> } };
    const vocab = json.model.vocab;
    const parsed = objectVocabulary(vocab);
    const packed = unpackVocabulary(packVocabulary(parsed)!)!;
    expect(packed.size).toBe(Object.keys(vocab).length);
    for (const [token, id] of Object.entries(vocab)) {
      expect(packed.idOf(token), token).toBe(id);
      expect(packed.tokenOf(id)).toBe(token);
    }
    // not tokens: near misses, the empty string, what an object has of its own
    for (const word of ['', 'zzzzzzzzzz', 'constructor', '__proto__', 'toString', 'the ', '##'])
      expect(packed.idOf(word), word).toBe(parsed.idOf(word));
    expect(packed.tokenOf(-1)).toBeUndefined();
    expect(packed.tokenOf(packed.size)).toBeUndefined();
    expect(packed.tokenOf(1.5)).toBeUndefined();
  });

  it('keeps tokens in any script, sorted as JavaScript compares strings, from an unaligned copy', () => {
    const tokens = ['b', 'a', 'ä', 'Ω', '日本', '😀', '##x', 'B', '', 'ab'];
    const parsed = objectVocabulary(Object.fromEntries(tokens.map((t, i) => [t, i])));
    const bytes = packVocabulary(parsed)!;
    const unaligned = new Uint8Array(bytes.length + 1).fill(9);
    unaligned.set(bytes, 1);
    const packed = unpackVocabulary(unaligned.subarray(1))!;
    tokens.forEach((t, i) => {
      expect(packed.idOf(t), t).toBe(i);
      expect(packed.tokenOf(i)).toBe(t);
    });
    expect(packed.idOf('c')).toBeUndefined();
  });

  it('is not packed where ids skip or a token would not survive UTF-8, and refuses bytes that are not one', () => {
    expect(packVocabulary(objectVocabulary({ a: 0, b: 2 }))).toBeUndefined();
    expect(packVocabulary(objectVocabulary({ a: 0, '\ud800': 1 }))).toBeUndefined();
    const bytes = packVocabulary(objectVocabulary({ a: 0, bc: 1, d: 2 }))!;
    expect(unpackVocabulary(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(unpackVocabulary(new Uint8Array(4))).toBeUndefined();
    const outOfRange = bytes.slice();
    new DataView(outOfRange.buffer).setUint32(8 + 4 * 4, 7, true); // the first sorted id
    expect(unpackVocabulary(outOfRange)).toBeUndefined();
    const backwards = bytes.slice();
    new DataView(backwards.buffer).setUint32(8 + 4, 4, true); // token 1 starting after token 2
    expect(unpackVocabulary(backwards)).toBeUndefined();
  });
});
