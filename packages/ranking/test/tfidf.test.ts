import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_PATTERN, MIN_SUBTOKEN_LEN } from '../src/identifiers.ts';
import { STOPWORDS } from '../src/stopwords.ts';
import {
  TfidfIndex,
  isStale,
  smoothedIdf,
  tokenize,
  tokenizerConfig,
  type TfidfIndexJSON,
} from '../src/tfidf.ts';
import { sparseCosine, sparseDot } from '../src/sparse-vector.ts';

const invalid = expect.objectContaining({ code: 'INVALID_INPUT' });

// d1: apple x2, banana x1   d2: banana, cherry   d3: cherry x2, durian
const corpus = [
  { id: 'd1', text: 'apple banana apple' },
  { id: 'd2', text: 'banana cherry' },
  { id: 'd3', text: 'cherry cherry durian' },
];

describe('tokenize', () => {
  it('splits camelCase and keeps the whole token; "by" is a stopword', () => {
    expect(STOPWORDS.has('by')).toBe(true);
    expect(tokenize('getUserById')).toEqual(['getuserbyid', 'get', 'user', 'id']);
  });

  it('splits snake_case, dropping sub-parts shorter than 2 characters', () => {
    expect(tokenize('user_name_id')).toEqual(['user_name_id', 'user', 'name', 'id']);
    expect(tokenize('a_b_cd')).toEqual(['a_b_cd', 'cd']);
    expect(tokenize('_private')).toEqual(['_private', 'private']);
    expect(tokenize('isValid')).toEqual(['isvalid', 'valid']); // "is" is a stopword
  });

  it('only splits at a lower-case letter followed by an upper-case one', () => {
    expect(tokenize('HTTPServer')).toEqual(['httpserver']);
    expect(tokenize('parseHTTPResponse')).toEqual(['parsehttpresponse', 'parse', 'httpresponse']);
    expect(tokenize('foo2Bar')).toEqual(['foo2bar']);
  });

  it('needs 3+ identifier characters, drops whole-token stopwords, keeps repetitions', () => {
    expect(tokenize('a an ab x1 The THIS with')).toEqual([]);
    expect(tokenize('123abc 9lives')).toEqual(['abc', 'lives']);
    expect(tokenize('Apple apple APPLE')).toEqual(['apple', 'apple', 'apple']);
    expect(tokenize('naïve café')).toEqual(['caf']); // ASCII identifiers only
  });

  it('rejects non-strings', () => {
    expect(() => tokenize(undefined as unknown as string)).toThrow(invalid);
  });

  it('property: every token is lower-case, non-stopword and at least MIN_SUBTOKEN_LEN long', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const t of tokenize(text)) {
          expect(t).toBe(t.toLowerCase());
          expect(STOPWORDS.has(t)).toBe(false);
          expect(t.length).toBeGreaterThanOrEqual(MIN_SUBTOKEN_LEN);
        }
      }),
    );
  });
});

describe('tokenizerConfig / isStale', () => {
  it('is the canonical stopwords / pattern / min length lines', () => {
    const canonical = [
      `stopwords:${[...STOPWORDS].sort().join(',')}`,
      `pattern:${IDENTIFIER_PATTERN.source}`,
      `min_subtoken_len:${MIN_SUBTOKEN_LEN}`,
    ].join('\n');
    expect(tokenizerConfig()).toBe(canonical);
    // Pinned: SHA-256 computed with Python's hashlib over the same canonical text. A change here
    // means the tokenizer changed and persisted indexes must be rebuilt.
    expect(createHash('sha256').update(tokenizerConfig()).digest('hex')).toBe(
      '6b7b56e67c3cac292fd3af1b0944b18a94883768c5762bb07f6f7b8a89522baf',
    );
  });

  it('flags an index built with another tokenizer', () => {
    const index = TfidfIndex.build(corpus, { tokenizerHash: 'current' });
    expect(index.tokenizerHash).toBe('current');
    expect(isStale(index, 'current')).toBe(false);
    const json = { ...index.toJSON(), tokenizerHash: 'an-older-tokenizer' };
    const old = TfidfIndex.fromJSON(json);
    expect(isStale(old, 'current')).toBe(true);
    expect(old.search('banana').length).toBe(2); // still answers; the owner should rebuild
  });
});

describe('TfidfIndex weights', () => {
  const index = TfidfIndex.build(corpus);

  it('computes the smoothed IDF ln((N+1)/(df+1)) + 1 with N = 3', () => {
    expect(index.corpusSize).toBe(3);
    expect(index.documentFrequency('apple')).toBe(1);
    expect(index.documentFrequency('banana')).toBe(2);
    expect(index.idf('apple')).toBeCloseTo(Math.log(2) + 1, 15); // 1.6931471805599454
    expect(index.idf('banana')).toBeCloseTo(Math.log(4 / 3) + 1, 15); // 1.2876820724517808
    expect(index.idf('nothing')).toBeUndefined();
    expect(smoothedIdf(3, 2)).toBe(index.idf('banana'));
  });

  it('computes augmented TF 0.5 + 0.5 count/max_count times IDF', () => {
    const d1 = index.vector('d1')!;
    expect(d1.get('apple')).toBeCloseTo(1.6931471805599454, 15); // tf = 1 (2 of max 2)
    expect(d1.get('banana')).toBeCloseTo(0.9657615543388356, 15); // tf = 0.75
    const d3 = index.vector('d3')!;
    expect(d3.get('cherry')).toBeCloseTo(1.2876820724517808, 15);
    expect(d3.get('durian')).toBeCloseTo(1.269860385419959, 15);
    expect([...index.vector('d2')!.keys()]).toEqual(['banana', 'cherry']);
  });

  it('vectorizes queries over the vocabulary; unknown terms still count towards max_count', () => {
    const q = index.vectorize('banana zebra zebra');
    expect([...q.keys()]).toEqual(['banana']);
    expect(q.get('banana')).toBeCloseTo(0.75 * 1.2876820724517808, 15);
    expect(index.vectorize('').size).toBe(0);
  });

  it('uses N = max(1, documents) for an empty corpus', () => {
    const empty = TfidfIndex.build([]);
    expect(empty.corpusSize).toBe(1);
    expect(empty.vocabularySize).toBe(0);
    expect(empty.search('anything')).toEqual([]);
  });
});

describe('TfidfIndex vocabulary', () => {
  it('keeps the rarest terms under maxFeatures, ties broken by term', () => {
    // df: apple 1, durian 1, banana 2, cherry 2
    expect(TfidfIndex.build(corpus, { maxFeatures: 2 }).vocabulary()).toEqual(['apple', 'durian']);
    expect(TfidfIndex.build(corpus, { maxFeatures: 3 }).vocabulary()).toEqual([
      'apple',
      'durian',
      'banana',
    ]);
    expect(TfidfIndex.build(corpus).vocabulary()).toEqual(['apple', 'durian', 'banana', 'cherry']);
  });

  it('drops terms below minDf', () => {
    expect(TfidfIndex.build(corpus, { minDf: 2 }).vocabulary()).toEqual(['banana', 'cherry']);
    expect(TfidfIndex.build(corpus, { minDf: 3 }).vocabulary()).toEqual([]);
  });

  it('counts document frequency once per document', () => {
    const index = TfidfIndex.build([
      { id: 'a', text: 'alpha alpha alpha' },
      { id: 'b', text: 'beta' },
    ]);
    expect(index.documentFrequency('alpha')).toBe(1);
  });

  it('is independent of document order (deterministic capping)', () => {
    const reversed = TfidfIndex.build([...corpus].reverse(), { maxFeatures: 3 });
    expect(reversed.vocabulary()).toEqual(['apple', 'durian', 'banana']);
  });

  it('handles identifiers that are Object.prototype names', () => {
    const index = TfidfIndex.build([
      { id: 'x', text: 'constructor __proto__ toString hasOwnProperty' },
      { id: 'y', text: 'plain words' },
    ]);
    expect(index.vocabulary()).toContain('__proto__');
    expect(index.search('constructor')[0]?.id).toBe('x');
    expect(index.search('__proto__')[0]?.id).toBe('x');
  });
});

describe('TfidfIndex.search', () => {
  const index = TfidfIndex.build(corpus);

  it('ranks by accumulated partial dot products, best first', () => {
    const hits = index.search('banana');
    expect(hits.map((h) => h.id)).toEqual(['d2', 'd1']);
    expect(hits[0]!.score).toBeCloseTo(1.6581251197137132, 14);
    expect(hits[1]!.score).toBeCloseTo(1.2435938397852848, 14);
  });

  it('sums contributions of every query term and only returns matching documents', () => {
    const hits = index.search('apple durian');
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd3']);
    const q = index.vectorize('apple durian');
    expect(hits[0]!.score).toBeCloseTo(sparseDot(q, index.vector('d1')!), 14);
    expect(index.search('nothing matches')).toEqual([]);
    // searchVector takes the vectorised query: what the engine's TF-IDF leg prepares once.
    expect(index.searchVector(q)).toEqual(hits);
    expect(index.searchVector(q, { topK: 1 })).toEqual(hits.slice(0, 1));
  });

  it('breaks score ties by ascending id and honours topK', () => {
    const tied = TfidfIndex.build([
      { id: 'b', text: 'same words here' },
      { id: 'c', text: 'same words here' },
      { id: 'a', text: 'same words here' },
      { id: 'z', text: 'other stuff' },
    ]);
    expect(tied.search('words').map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(tied.search('words', { topK: 2 }).map((h) => h.id)).toEqual(['a', 'b']);
    expect(tied.search('words', { topK: 0 })).toEqual([]);
  });

  it('rejects bad topK and queries', () => {
    expect(() => index.search('banana', { topK: -1 })).toThrow(invalid);
    expect(() => index.search('banana', { topK: 1.5 })).toThrow(invalid);
    expect(() => index.search(7 as unknown as string)).toThrow(invalid);
  });

  it('defaults to 20 results', () => {
    const many = TfidfIndex.build(
      Array.from({ length: 30 }, (_, i) => ({
        id: `m${String(i).padStart(2, '0')}`,
        text: 'shared',
      })),
    );
    expect(many.search('shared')).toHaveLength(20);
  });
});

describe('TfidfIndex add / remove', () => {
  it('adds against the frozen vocabulary and IDF, and removes from the postings', () => {
    const index = TfidfIndex.build(corpus);
    index.add({ id: 'd4', text: 'durian durian melon' });
    expect(index.size).toBe(4);
    expect(index.corpusSize).toBe(3); // IDF is not refitted
    expect([...index.vector('d4')!.keys()]).toEqual(['durian']); // melon is not in the vocabulary
    expect(index.search('durian').map((h) => h.id)).toEqual(['d4', 'd3']);

    expect(index.remove('d4')).toBe(true);
    expect(index.remove('d4')).toBe(false);
    expect(index.search('durian').map((h) => h.id)).toEqual(['d3']);
  });

  it('add replaces an existing document', () => {
    const index = TfidfIndex.build(corpus);
    index.add({ id: 'd1', text: 'cherry' });
    expect(index.size).toBe(3);
    expect(index.search('apple')).toEqual([]);
    expect(index.search('cherry').map((h) => h.id)).toContain('d1');
  });

  it('rejects malformed documents', () => {
    const index = TfidfIndex.build(corpus);
    expect(() =>
      index.add({ id: 5, text: 'x' } as unknown as { id: string; text: string }),
    ).toThrow(invalid);
    expect(() => index.add(null as unknown as { id: string; text: string })).toThrow(invalid);
  });
});

describe('TfidfIndex build validation', () => {
  it('rejects duplicate ids, bad documents and bad options', () => {
    expect(() =>
      TfidfIndex.build([
        { id: 'a', text: 'x' },
        { id: 'a', text: 'y' },
      ]),
    ).toThrow(invalid);
    expect(() =>
      TfidfIndex.build([{ id: 'a', text: 3 } as unknown as { id: string; text: string }]),
    ).toThrow(invalid);
    expect(() => TfidfIndex.build('docs' as unknown as [])).toThrow(invalid);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => TfidfIndex.build(corpus, { maxFeatures: bad })).toThrow(invalid);
      expect(() => TfidfIndex.build(corpus, { minDf: bad })).toThrow(invalid);
    }
  });
});

describe('TfidfIndex persistence', () => {
  it('round-trips through JSON exactly', () => {
    const index = TfidfIndex.build(corpus, { maxFeatures: 3 });
    index.add({ id: 'd9', text: 'apple banana' });
    const restored = TfidfIndex.fromJSON(JSON.parse(JSON.stringify(index)));
    expect(restored.toJSON()).toEqual(index.toJSON());
    expect(restored.maxFeatures).toBe(3);
    expect(restored.idf('banana')).toBe(index.idf('banana'));
    expect(restored.search('apple banana')).toEqual(index.search('apple banana'));
    expect(restored.vectorize('durian banana')).toEqual(index.vectorize('durian banana'));
  });

  it('rejects malformed JSON with INVALID_INPUT', () => {
    const good = TfidfIndex.build(corpus).toJSON();
    const bad: unknown[] = [
      null,
      'text',
      { ...good, format: 'other' },
      { ...good, version: 2 },
      { ...good, tokenizerHash: 1 },
      { ...good, corpusSize: 0 },
      { ...good, vocabulary: {} },
      { ...good, vocabulary: [['apple', 0]] },
      { ...good, vocabulary: [['apple', 9]] }, // df > corpusSize
      {
        ...good,
        vocabulary: [
          ['apple', 1],
          ['apple', 1],
        ],
      },
      { ...good, documents: [['d1', [['unknown', 1]]]] },
      { ...good, documents: [['d1', [['apple', -1]]]] },
      { ...good, documents: [['d1', [['apple', 'x']]]] },
      {
        ...good,
        documents: [
          ['d1', []],
          ['d1', []],
        ],
      },
      { ...good, documents: [['d1']] },
    ];
    for (const json of bad) expect(() => TfidfIndex.fromJSON(json)).toThrow(invalid);
  });

  it('has a stable, documented shape', () => {
    const json: TfidfIndexJSON = TfidfIndex.build(corpus.slice(0, 1)).toJSON();
    expect(json).toEqual({
      format: 'anamnesis.tfidf',
      version: 1,
      tokenizerHash: '',
      maxFeatures: 10_000,
      minDf: 1,
      corpusSize: 1,
      vocabulary: [
        ['apple', 1],
        ['banana', 1],
      ],
      documents: [
        [
          'd1',
          [
            ['apple', 1],
            ['banana', 0.75],
          ],
        ],
      ],
    });
  });
});

describe('sparseCosine', () => {
  it('divides the intersection dot product by the full norms', () => {
    const a = new Map([
      ['x', 1],
      ['y', 2],
    ]);
    const b = new Map([
      ['y', 2],
      ['z', 2],
    ]);
    expect(sparseCosine(a, b)).toBeCloseTo(4 / Math.sqrt(5 * 8), 15);
    expect(sparseCosine(a, a)).toBeCloseTo(1, 15);
  });

  it('is 0 for empty vectors or no shared term', () => {
    expect(sparseCosine(new Map(), new Map([['x', 1]]))).toBe(0);
    expect(sparseCosine(new Map([['x', 1]]), new Map([['y', 1]]))).toBe(0);
  });

  it('rejects non-maps and non-finite weights', () => {
    expect(() => sparseCosine({ x: 1 } as unknown as Map<string, number>, new Map())).toThrow(
      invalid,
    );
    expect(() => sparseCosine(new Map([['x', Number.NaN]]), new Map([['x', 1]]))).toThrow(invalid);
  });

  it('property: symmetric and within [0, 1] for TF-IDF vectors', () => {
    const index = TfidfIndex.build(corpus);
    const word = fc.constantFrom('apple', 'banana', 'cherry', 'durian', 'melon');
    fc.assert(
      fc.property(fc.array(word), fc.array(word), (w1, w2) => {
        const a = index.vectorize(w1.join(' '));
        const b = index.vectorize(w2.join(' '));
        const c = sparseCosine(a, b);
        expect(c).toBeCloseTo(sparseCosine(b, a), 14);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });
});
