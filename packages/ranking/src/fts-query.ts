import { AnamnesisError } from '@anamnesis/errors';
import { STOPWORDS } from './stopwords.ts';

/** Options of {@link prepareFtsQuery}. */
export interface FtsQueryOptions {
  /** Tokens shorter than this many characters are dropped. Default 2. */
  minLength?: number;
  /**
   * Keep numbers of any length (`7` in "room 7"), which `minLength` would drop: a number that
   * differs is a different thing. Default false (seed 002).
   */
  keepNumbers?: boolean;
  /** Words dropped from the query (compared lower-cased). Default: the shared 60 {@link STOPWORDS}. */
  stopwords?: ReadonlySet<string>;
  /** At most this many distinct terms are kept, in order of first appearance. Default 64. */
  maxTerms?: number;
  /** How terms are joined. Default `'OR'` (seed 002: AND is too strict for recall). */
  operator?: 'OR' | 'AND';
  /**
   * Splits the text into words, as the index was given them. Default {@link ftsTokens} (what
   * FTS5's `unicode61` does); each word is split by `ftsTokens` again, so no special character
   * survives whatever this returns.
   */
  words?: (text: string) => string[];
}

/**
 * Splits text the way FTS5's `unicode61` tokenizer does: runs of letters, numbers and private-use
 * characters are tokens; everything else (including every FTS5 special character
 * `" ' ( ) * : ^ - + { } ,`) separates them.
 */
export function ftsTokens(text: string): string[] {
  return text.match(/[\p{L}\p{M}\p{N}\p{Co}]+/gu) ?? [];
}

/**
 * FTS5 query preparation of seed 002: the user's text is split into tokens (which removes every
 * FTS5 special character), stopwords and tokens shorter than `minLength` are dropped, duplicates
 * are removed, each remaining term is quoted as an FTS5 string (so `AND`, `NEAR`, column names and
 * the like are plain words), and the terms are joined with `OR`.
 *
 * The result is always a valid FTS5 MATCH expression, or `''` when nothing is left (the caller
 * then skips the FTS leg).
 */
export function prepareFtsQuery(text: string, options: FtsQueryOptions = {}): string {
  if (typeof text !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', 'query text must be a string');
  }
  const minLength = options.minLength ?? 2;
  const stopwords = options.stopwords ?? STOPWORDS;
  const maxTerms = options.maxTerms ?? 64;
  const operator = options.operator ?? 'OR';
  if (!Number.isInteger(minLength) || minLength < 1) {
    throw new AnamnesisError('INVALID_INPUT', 'minLength must be a positive integer');
  }
  if (!Number.isInteger(maxTerms) || maxTerms < 1) {
    throw new AnamnesisError('INVALID_INPUT', 'maxTerms must be a positive integer');
  }
  if (operator !== 'OR' && operator !== 'AND') {
    throw new AnamnesisError('INVALID_INPUT', "operator must be 'OR' or 'AND'");
  }
  const terms = new Set<string>();
  const words = options.words ? options.words(text).flatMap(ftsTokens) : ftsTokens(text);
  for (const token of words) {
    const term = token.toLowerCase();
    const short =
      Array.from(term).length < minLength && !(options.keepNumbers && /^\p{N}+$/u.test(term));
    if (short || stopwords.has(term)) continue;
    terms.add(term);
    if (terms.size >= maxTerms) break;
  }
  return [...terms].map((t) => `"${t}"`).join(` ${operator} `);
}
