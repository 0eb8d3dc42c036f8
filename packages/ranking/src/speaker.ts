import { ftsTokens } from './fts-query.ts';
import { STOPWORDS } from './stopwords.ts';

/**
 * Speaker focus. A conversation stored turn by turn knows who said each turn, and a question about
 * a person ("What activities does Melanie partake in?") is answered by what that person said,
 * often in words the question does not share. The speaker is given by the app (a chat app, the
 * LoCoMo loader) as the memory's `meta.speaker`; it is never parsed from the text, so a note
 * titled "Meeting: parking lot" has none.
 */

/** The metadata key that names who said a memory. */
export const SPEAKER_META_KEY = 'speaker';

/** A speaker as {@link namesSpeaker} compares it: trimmed, lower-cased; `null` for none or blank. */
export function normalizeSpeaker(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim().toLowerCase();
  return s === '' ? null : s;
}

/**
 * Whether a query names a speaker: one of the speaker's name words (three letters or more, not a
 * stopword) is a word of the query, compared case-insensitively ("Melanie's kids" names
 * `melanie`).
 */
export function namesSpeaker(queryWords: ReadonlySet<string>, speaker: string): boolean {
  for (const word of ftsTokens(speaker)) {
    const w = word.toLowerCase();
    if (Array.from(w).length >= 3 && !STOPWORDS.has(w) && queryWords.has(w)) return true;
  }
  return false;
}

/** The lower-cased words of a query, as {@link namesSpeaker} compares them. */
export function queryWords(query: string): Set<string> {
  return new Set(ftsTokens(query).map((w) => w.toLowerCase()));
}
