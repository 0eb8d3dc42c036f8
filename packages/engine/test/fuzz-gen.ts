/**
 * Seeded, reproducible generators of hostile input for the fuzz, injection and corruption tests.
 * `ANAMNESIS_FUZZ_SEED` picks the seed (default {@link DEFAULT_SEED}) and `ANAMNESIS_FUZZ_CASES`
 * the total case budget of a run (default {@link DEFAULT_CASES}); a failure names both and the case
 * index, so `ANAMNESIS_FUZZ_SEED=<seed> pnpm exec vitest run <file>` replays it exactly.
 */
import { mulberry32 } from '@anamnesis/ranking';

/** The seed of the default (CI) run. */
export const DEFAULT_SEED = 20260126;
/** The case budget of the default (CI) run, shared by the properties of a file. */
export const DEFAULT_CASES = 5000;

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/** The seed of this run. */
export const FUZZ_SEED = envInt('ANAMNESIS_FUZZ_SEED', DEFAULT_SEED);
/** The total number of cases of this run. */
export const FUZZ_CASES = envInt('ANAMNESIS_FUZZ_CASES', DEFAULT_CASES);

/** Mixes a run seed, a property name and a case index into the seed of one case. */
export function caseSeed(seed: number, property: string, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const c of `${property}#${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

const FTS_SYNTAX = [
  'AND',
  'OR',
  'NOT',
  'NEAR(',
  'NEAR(a b, 2)',
  '(',
  ')',
  '"',
  '""',
  '*',
  '^',
  ':',
  '+',
  '-',
  '{text tags}:',
  '{text}',
  'text:',
  'tags:',
  'memories_fts',
  'rank MATCH',
  "memories_fts MATCH '*'",
  'bm25(memories_fts)',
  'highlight(',
  'rowid',
  ',',
  '.',
];

const SQL_SYNTAX = [
  "'; DROP TABLE memories; --",
  "a') OR 1=1 --",
  '" OR 1=1',
  'x"; DROP TABLE memories; --',
  '/*',
  '*/',
  '--',
  ';',
  "'",
  'json_each(',
  'json_extract(m.meta, ',
  '$.a',
  '$[0]',
  'UNION SELECT * FROM sqlite_master',
  'ATTACH DATABASE',
  'PRAGMA writable_schema=1',
  '?',
  '?1',
  ':name',
  '@x',
  '%',
  '_',
  '\\',
  'NULL',
];

const WORDS = [
  'kitten',
  'luna',
  'tax',
  'deadline',
  'trail',
  'sourdough',
  'meeting',
  'the',
  'and',
  'memory',
  'café',
  'naïve',
  'Straße',
  'ﬁle', // a ligature: NFKC gives "file"
  '①',
  'ｆｕｌｌｗｉｄｔｈ',
];

/** Code points (or single UTF-16 units) that break naive text handling. */
const ODD_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\t',
  '\n',
  '\r',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b', // zero-width space
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff', // BOM
  '\u202e', // RTL override
  '\u200f',
  '\u0301', // combining acute
  '\u0308',
  '\u20dd',
  'ש',
  'ل',
  'ﷺ',
  '漢',
  '字',
  '𝕏',
  '😀',
  '👩‍👩‍👧',
  '🏳️‍🌈',
  '\u{10ffff}',
  '\u{e0001}',
  '\ufffd',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
];

/** A seeded source of hostile values. */
export class Gen {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.#next();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.#next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  /** A random code point from a random plane (BMP, astral, private use), surrogates included. */
  codePoint(): string {
    switch (this.int(5)) {
      case 0:
        return String.fromCharCode(0x20 + this.int(0x5f));
      case 1:
        return String.fromCharCode(this.int(0x10000)); // any UTF-16 unit, lone surrogates too
      case 2:
        return String.fromCodePoint(0x10000 + this.int(0x100000));
      case 3:
        return String.fromCharCode(this.int(0x20));
      default:
        return this.pick(ODD_CHARS);
    }
  }

  /** A string of up to `max` pieces mixing words, FTS5 and SQL syntax and odd characters. */
  text(max = 12): string {
    const n = this.int(max + 1);
    let s = '';
    for (let i = 0; i < n; i++) {
      switch (this.int(6)) {
        case 0:
          s += this.pick(WORDS);
          break;
        case 1:
          s += this.pick(FTS_SYNTAX);
          break;
        case 2:
          s += this.pick(SQL_SYNTAX);
          break;
        case 3:
          s += this.codePoint();
          break;
        case 4:
          s += this.pick(ODD_CHARS);
          break;
        default:
          s += this.pick([' ', '  ', '\t', '\n', '', '\u3000']);
      }
      if (this.chance(0.5)) s += ' ';
    }
    return s;
  }

  /** A string that is often hostile, sometimes blank, sometimes very long (`long` characters). */
  string(long = 5000): string {
    switch (this.int(10)) {
      case 0:
        return this.pick(['', ' ', '\t\n ', '\u3000', '\u200b']);
      case 1:
        return 'x'.repeat(long + this.int(long));
      case 2:
        return this.pick(SQL_SYNTAX);
      case 3:
        return this.pick(FTS_SYNTAX);
      default:
        return this.text();
    }
  }

  /** Any value: strings, numbers (NaN, ±Infinity, -0, huge), null, undefined, objects, arrays… */
  any(depth = 2): unknown {
    switch (this.int(depth > 0 ? 14 : 11)) {
      case 0:
        return this.string();
      case 1:
        return this.pick([
          0,
          -0,
          1,
          -1,
          0.5,
          1.5,
          1e300,
          -1e300,
          2 ** 53,
          NaN,
          Infinity,
          -Infinity,
        ]);
      case 2:
        return this.int(2000) - 1000;
      case 3:
        return null;
      case 4:
        return undefined;
      case 5:
        return this.chance(0.5);
      case 6:
        return this.pick([10n, () => 1, Symbol('s'), new Date(NaN), new Date(0), new Map()]);
      case 7:
        return {};
      case 8:
        return [];
      case 9:
        return this.text(4);
      case 10:
        return this.float();
      case 11:
        return Array.from({ length: this.int(4) }, () => this.any(depth - 1));
      case 12: {
        const o: Record<string, unknown> = {};
        for (let i = this.int(4); i > 0; i--) o[this.key()] = this.any(depth - 1);
        return o;
      }
      default:
        return JSON.parse('{"__proto__": {"x": 1}, "constructor": 1}') as unknown;
    }
  }

  /** An object key: identifiers, SQL, JSON-path syntax, prototype names. */
  key(): string {
    return this.pick([
      'a',
      'source',
      'n',
      '_x',
      '__proto__',
      'constructor',
      'toString',
      'x y',
      "a') OR 1=1 --",
      '$.a',
      'a.b',
      'a[0]',
      '"',
      '',
      '1a',
      'é',
      'x'.repeat(65),
      this.text(2),
    ]);
  }

  /** Usually the value `good()`, sometimes anything at all. */
  maybe(good: () => unknown, pBad = 0.2): unknown {
    return this.chance(pBad) ? this.any() : good();
  }
}

/** The message a failed case reports: enough to replay it. */
export function replay(property: string, seed: number, index: number, detail: string): string {
  return `fuzz ${property}: seed ${seed}, case ${index} (ANAMNESIS_FUZZ_SEED=${seed} replays it): ${detail}`;
}
