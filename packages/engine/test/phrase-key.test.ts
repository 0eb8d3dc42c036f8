import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phraseKey, porterStem } from '../src/recall/phrase-key.ts';
import { loadSqlite } from '../src/store/sqlite.ts';

/** Every word of lower-case ASCII letters and digits in the English model's vocabulary (~50k). */
function vocabularyWords(): string[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@anamnesis/model-default/package.json'));
  const tokenizer = JSON.parse(
    readFileSync(join(root, 'english/anamnesis/glove-100d-sif/tokenizer.json'), 'utf8'),
  ) as { model: { vocab: Record<string, number> } };
  return Object.keys(tokenizer.model.vocab).filter((w) => /^[a-z0-9]+$/.test(w));
}

/**
 * Made-up words that reach every rule: short stems of vowels, `y` and consonants (the letters the
 * conditions look at) before every suffix the steps know, seeded.
 */
function madeUpWords(count: number): string[] {
  const suffixes =
    'eed ed ing at bl iz ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti biliti ical ness icate iciti ful ative alize al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize sses ies ss s y e ll'.split(
      ' ',
    );
  // digits too: a year, an amount or a code is one token, and FTS5's porter takes a digit for a
  // consonant ("1990s": 1990)
  const letters = 'aeiouybcdlmnstwxz0129';
  let seed = 42;
  // mulberry32
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let stem = '';
    const length = Math.floor(next() * 7);
    for (let j = 0; j < length; j++) stem += letters[Math.floor(next() * letters.length)]!;
    const suffix = suffixes[Math.floor(next() * suffixes.length)]!;
    out.push(
      next() < 0.2
        ? stem + suffix + suffixes[Math.floor(next() * suffixes.length)]!
        : stem + suffix,
    );
  }
  // around the longest token porter stems (64 letters)
  for (const n of [62, 63, 64, 65, 66]) out.push('ab'.repeat(n).slice(0, n - 3) + 'ing');
  return out.filter((w) => w.length > 0);
}

/** Each word's token as FTS5's `porter unicode61` tokenizer writes it (SQLite-WASM's FTS5). */
async function fts5Stems(words: readonly string[]): Promise<string[]> {
  const sqlite3 = await loadSqlite();
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')");
    db.exec('CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)');
    db.transaction(() => {
      words.forEach((w, i) =>
        db.exec({ sql: 'INSERT INTO t(rowid, x) VALUES (?, ?)', bind: [i + 1, w] }),
      );
    });
    const stems = new Array<string>(words.length);
    for (const [doc, term] of db.selectArrays('SELECT doc, term FROM v') as [number, string][])
      stems[doc - 1] = term;
    return stems;
  } finally {
    db.close();
  }
}

describe('porterStem', () => {
  it("stems every word as FTS5's porter tokenizer does", async () => {
    const words = [...new Set([...vocabularyWords(), ...madeUpWords(40_000)])];
    expect(words.length).toBeGreaterThan(60_000);
    const truth = await fts5Stems(words);
    const wrong = words.filter((w, i) => porterStem(w) !== truth[i]);
    expect(wrong.slice(0, 10).map((w) => [w, porterStem(w), truth[words.indexOf(w)]])).toEqual([]);
  });

  it('stems the textbook examples', () => {
    expect(
      [
        'caresses',
        'ponies',
        'agreed',
        'hopping',
        'happy',
        'relational',
        'triplicate',
        'adjustment',
        'controll',
        'sayyed',
      ].map(porterStem),
    ).toEqual([
      'caress',
      'poni',
      'agre',
      'hop',
      'happi',
      'relat',
      'triplic',
      'adjust',
      'control',
      'sai',
    ]);
  });
});

describe('phraseKey', () => {
  it('gives the forms of one stem one key, and another stem another', () => {
    expect(phraseKey('"official"')).toBe(phraseKey('"officials"'));
    expect(phraseKey('"include"')).toBe(phraseKey('"included"'));
    expect(phraseKey('"include"')).not.toBe(phraseKey('"official"'));
  });

  it('keeps any other phrase as it is, and never equal to a stem key', () => {
    for (const phrase of ['"Official"', '"new york"', '"café"', 'offici*', '"a-1"', '("a" OR "b")'])
      expect(phraseKey(phrase)).toBe(phrase);
    expect(phraseKey('"offici"')).not.toBe('offici');
    // a word of digits, or of letters and digits, is a token too
    expect(phraseKey('"2024"')).not.toBe('"2024"');
    expect(phraseKey('"1990s"')).toBe(phraseKey('"1990"'));
  });
});
