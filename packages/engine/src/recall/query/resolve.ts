import { queryStopwords } from '../../store/lexical.ts';
import type { Reader } from '../../store/reader.ts';
import { editDistance } from './edit-distance.ts';
import { ftsString, type QuerySlot } from './parse.ts';
import { standSideBySide } from './word-at.ts';
import { WordsMemo } from './words-memo.ts';

/**
 * A query's slots read against the store's own vocabulary (`memories_vocab`: every word the
 * memories hold as written, with the number of memories that hold it):
 *
 * - the word still being typed also searches the store's most common words it begins ("panc" →
 *   "pancake", "pancakes"), or, when it begins none, those it begins with one typo;
 * - a word in the Latin script that no memory matches (as written, stemmed or in its other
 *   spelling) and that the model does not know as a word is read as the store's closest word, one
 *   edit away for words of up to seven letters, two for longer ones ("restaurnt" → "restaurant",
 *   "restuarant" → "restaurant", a swap of two letters counting one), the most common of equally
 *   close ones. A word the store has, or a real word it lacks ("mortgage"), is never corrected:
 *   that would answer a question about something else. Other scripts are indexed as stems or
 *   segments, which edits would only turn into other words.
 */

/** A slot as the store reads it. */
export interface ResolvedSlot extends QuerySlot {
  /** The store's words the prefix begins, searched too (most common first). */
  completions?: string[];
  /** The store's word a word no memory has was read as. */
  correction?: string;
}

/** Completions searched for the word being typed. */
const COMPLETIONS = 8;
/** Shortest word (in characters) that is corrected, and shortest typed prefix that is completed. */
const MIN_CORRECTED = 4;
const MIN_PREFIX = 2;
/** A word in the Latin script with at least one letter. */
const LATIN = /^(?=.*\p{Script=Latin})[\p{Script=Latin}\p{N}\p{M}]+$/u;

/** Whether a word is a real word (the model's vocabulary), where the model can tell. */
export type KnownWord = (word: string) => boolean;

/** Reads each slot against the store (see the module comment). */
export function resolveQuery(
  read: Reader,
  query: string,
  slots: readonly QuerySlot[],
  known: KnownWord = () => false,
  /** The store's words kept by prefix (the recall memo's); default: none kept */
  kept: WordsMemo = new WordsMemo(),
): ResolvedSlot[] {
  const stopwords = queryStopwords(query);
  const words: Vocabulary = { read, kept };
  const resolved = slots.map((s): ResolvedSlot => {
    if (s.kind !== 'word') return s;
    const word = s.words[0]!;
    if (s.prefix) return complete(words, s, word, stopwords);
    const corrigible = Array.from(word).length >= MIN_CORRECTED && LATIN.test(word) && !known(word);
    if (!corrigible || matches(read, s.terms)) return s;
    const [fix] = nearWords(words, word, (w) => [w], stopwords, 1);
    return fix === undefined ? s : { ...s, correction: fix, terms: [ftsString([fix])] };
  });
  return joinWords(words, query, resolved);
}

/**
 * Two words typed apart that the store holds as one ("note book" → "notebook", "7 pm" → "7pm"):
 * the joined word becomes an alternative of both slots, so a memory holding it matches the two.
 * The second may be the word being typed ("note bo" → "notebook"). Only words typed side by side.
 */
function joinWords(words: Vocabulary, query: string, slots: ResolvedSlot[]): ResolvedSlot[] {
  const typed = query.toLowerCase();
  const out = [...slots];
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]!;
    const b = out[i + 1]!;
    if (a.kind !== 'word' || b.kind !== 'word' || a.prefix || a.correction || b.correction)
      continue;
    if (!standSideBySide(typed, a.text, b.text)) continue;
    const start = a.words[0]! + b.words[0]!;
    const joined = b.prefix
      ? words.kept.beginning(words.read, start)[0]?.term
      : words.kept.holds(words.read, start)
        ? start
        : undefined;
    if (joined === undefined) continue;
    const term = ftsString([joined]);
    out[i] = { ...a, terms: [...a.terms, term] };
    out[i + 1] = { ...b, terms: [...b.terms, term] };
  }
  return out;
}

/** `text` with the characters a regular expression reads specially escaped. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The prefix slot with the store's words it begins (or, with none, begins with one typo). */
function complete(
  words: Vocabulary,
  s: QuerySlot,
  prefix: string,
  stopwords: ReadonlySet<string>,
): ResolvedSlot {
  const own = stopwords.has(prefix) ? [] : s.terms;
  if (Array.from(prefix).length < MIN_PREFIX) return { ...s, terms: own };
  let completions = words.kept
    .beginning(words.read, prefix)
    .filter((w) => w.term !== prefix && !stopwords.has(w.term))
    .slice(0, COMPLETIONS)
    .map((w) => w.term);
  if (
    completions.length === 0 &&
    own.length > 0 &&
    Array.from(prefix).length >= MIN_CORRECTED &&
    LATIN.test(prefix) &&
    !matches(words.read, own)
  ) {
    // the candidate's beginnings one letter shorter and longer too: a letter dropped or doubled
    // while typing shifts the rest ("pasport" begins "passport" with one typo)
    const length = Array.from(prefix).length;
    completions = nearWords(
      words,
      prefix,
      (w) => {
        const chars = Array.from(w);
        return [length - 1, length, length + 1].map((n) => chars.slice(0, n).join(''));
      },
      stopwords,
      3,
    );
  }
  if (completions.length === 0) return { ...s, terms: own };
  return { ...s, completions, terms: [...own, ...completions.map((w) => ftsString([w]))] };
}

/** Whether any memory matches one of the terms. */
function matches(read: Reader, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  return (
    read.all(
      'SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1',
      [terms.join(' OR ')],
      () => 1,
    ).length > 0
  );
}

/** The store's vocabulary: how it is read, and what is kept of it. */
interface Vocabulary {
  read: Reader;
  kept: WordsMemo;
}

/**
 * Up to `n` of the store's words one of whose `views` (the word, or its beginnings) is within the
 * edit distance a word of this length allows of `word`: the closest first, then the most common.
 * Candidates begin with the word's first letter or, for a swap of the first two, its second.
 */
function nearWords(
  words: Vocabulary,
  word: string,
  views: (candidate: string) => readonly string[],
  stopwords: ReadonlySet<string>,
  n: number,
): string[] {
  const chars = Array.from(word);
  const max = chars.length <= 7 ? 1 : 2;
  const starts = new Set([chars[0]!, chars[1]!]);
  const found: { term: string; doc: number; d: number }[] = [];
  for (const start of starts) {
    for (const { term, doc } of words.kept.beginning(words.read, start)) {
      if (term === word || stopwords.has(term)) continue;
      const d = Math.min(...views(term).map((v) => editDistance(word, v, max)));
      if (d <= max) found.push({ term, doc, d });
    }
  }
  return found
    .sort((a, b) => a.d - b.d || b.doc - a.doc || (a.term < b.term ? -1 : 1))
    .slice(0, n)
    .map((f) => f.term);
}

/**
 * The query as the model should read it: each corrected word replaced by the word it was read as
 * ("restaurnt booking" → "restaurant booking"), so that meaning search looks for what lexical
 * search found rather than for a typo. (A word still being typed stays as typed: read as the
 * store's most common completion, the typing simulation's MRR fell from 0.535 to 0.525 on notes
 * and 0.458 to 0.450 on pages.)
 */
export function modelQuery(query: string, slots: readonly ResolvedSlot[]): string {
  let text = query;
  for (const s of slots) {
    const to = s.correction;
    if (to === undefined) continue;
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(s.text)}(?![\\p{L}\\p{N}])`, 'giu');
    text = text.replace(word, to);
  }
  return text;
}
