/**
 * `weak` is a match below 0.3 (issue 71): results whose match sits just below and just above it,
 * in absolute numbers, so that a changed `WEAK_MATCH` fails here (a test that compares results
 * with the constant itself moves with it). Made-up words and an embedder with no vectors: meaning
 * is 0 and each match is the lexical share of the query a memory holds, computed by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../src/embedding/embedder.ts';
import { createEngine, WEAK_MATCH, type Engine } from '../src/index.ts';

/** No meaning at all: every text's vector is zero, so match is lexical coverage alone. */
const noVectors: Embedder = {
  id: 'no-vectors-4d',
  dims: 4,
  device: 'cpu',
  truncated: 0,
  embed: async (texts) => texts.map(() => new Float32Array(4)),
};

/** A word's weight in the coverage: its idf among `total` memories, `n` of which hold it. */
const idf = (total: number, n: number) => Math.log(1 + (total - n + 0.5) / (n + 0.5));

const open: Engine[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

describe('weak: a match below 0.3', () => {
  it('0.2993 is weak, 0.3026 is not', async () => {
    // 19 memories: "florp" in 6, "zindle" in 1, "quaxo" in 9, "brimt" in 3, each with a word of
    // its own. A memory holding florp alone covers idf(6) / (idf(6) + idf(1)) of "florp zindle",
    // one holding quaxo alone idf(9) / (idf(9) + idf(3)) of "quaxo brimt".
    const above = idf(19, 6) / (idf(19, 6) + idf(19, 1));
    const below = idf(19, 9) / (idf(19, 9) + idf(19, 3));
    expect(above).toBeCloseTo(0.3026, 4);
    expect(below).toBeCloseTo(0.2993, 4);
    const own = (i: number) => `vel${String.fromCharCode(97 + i)}ok`;
    const engine = await createEngine({ storage: 'memory', embedder: noVectors });
    open.push(engine);
    await engine.rememberMany(
      [
        ...Array.from({ length: 6 }, (_, i) => `florp ${own(i)}`),
        `zindle ${own(6)}`,
        ...Array.from({ length: 9 }, (_, i) => `quaxo ${own(7 + i)}`),
        ...Array.from({ length: 3 }, (_, i) => `brimt ${own(16 + i)}`),
      ].map((text) => ({ text })),
    );
    const holding = async (query: string, word: string) => {
      const rs = await engine.recall(query, { topK: 50, minMatch: 0, explain: true });
      return rs.filter((r) => r.text.startsWith(`${word} `));
    };
    const strong = await holding('florp zindle', 'florp');
    const weak = await holding('quaxo brimt', 'quaxo');
    expect(strong).toHaveLength(6);
    expect(weak).toHaveLength(9);
    for (const r of strong) {
      expect(r.explain!.match).toMatchObject({ meaning: 0 });
      expect(r.match).toBeCloseTo(above, 10);
      expect(r.weak).toBeUndefined();
    }
    for (const r of weak) {
      expect(r.explain!.match).toMatchObject({ meaning: 0 });
      expect(r.match).toBeCloseTo(below, 10);
      expect(r.weak).toBe(true);
    }
    // the threshold the docs give (`RecallResult.weak`, recall and profiles)
    expect(WEAK_MATCH).toBe(0.3);
  });
});
