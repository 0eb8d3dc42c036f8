import { ftsTokens } from './fts-query.ts';
import { STOPWORDS } from './stopwords.ts';

/**
 * Speaker focus. A conversation stored turn by turn names its speaker at the start of each turn
 * ("Melanie: I just signed up for a pottery class"), and a question about a person ("What
 * activities does Melanie partake in?") is answered by what that person said, often in words the
 * question does not share. The speaker is read from the text, so nothing needs to be declared;
 * memories outside a session, or that open with no `Name:`, have none.
 */

/** The longest speaker prefix read, in characters (the name and its colon). */
export const SPEAKER_PREFIX_CHARS = 40;

/**
 * The speaker of a turn: its text's opening `Name:` (one to three words, then a colon and a space),
 * lower-cased, or `null`. `'Melanie: hi'` → `'melanie'`; `'Dr. Ada Lovelace: hi'` →
 * `'dr. ada lovelace'`; `'Note to self - buy milk'`, `'10:30 call'` and `'https://x'` → `null`.
 */
export function speakerOf(text: string): string | null {
  const m = /^\s*(\p{L}[\p{L}\p{M}\p{N}'’.-]*(?: \p{L}[\p{L}\p{M}\p{N}'’.-]*){0,2}):\s/u.exec(
    text.slice(0, SPEAKER_PREFIX_CHARS + 1),
  );
  return m ? m[1]!.toLowerCase() : null;
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
