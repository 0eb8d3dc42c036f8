import type { QueryReading } from '@anamnesis/client';

/** A piece of a snippet: plain text, or a match to highlight. */
export interface Segment {
  text: string;
  match: boolean;
}

/**
 * The words a search looked for, as recall read the query (`explain.query`): each word (or the
 * word a typo was read as, and the words a prefix being typed begins), a phrase's or code's words,
 * an emoji itself. Stop words the search dropped ("the", "what") are not among them, so they are
 * never highlighted. Without a reading (a result not explained), the query's words of two letters
 * or more.
 */
export function searchedWords(
  query: string,
  reading: readonly QueryReading[] | undefined,
): string[] {
  if (!reading) return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])];
  const out = new Set<string>();
  for (const r of reading) {
    if (r.kind === 'emoji') {
      out.add(r.text);
      continue;
    }
    if (r.kind === 'site') continue; // an address's words are in the page's address, not its text
    for (const w of r.words) out.add(w);
    if (r.correction) out.add(r.correction);
    for (const w of r.completions ?? []) out.add(w);
    if (r.prefix) out.add(r.text.toLowerCase());
  }
  return [...out].filter((w) => w.length > 0);
}

/**
 * A window of `text` around the first searched word found (or its start), split into segments
 * with every word that starts with a searched word (a cheap stand-in for stemming) marked. The
 * caller renders segments as text nodes and `<mark>`s, never as HTML.
 */
export function snippet(text: string, words: readonly string[], width = 180): Segment[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let start = 0;
  for (const w of words) {
    const at = lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(w)}`, 'u'));
    if (at >= 0) {
      start = Math.max(0, at - Math.floor(width / 3));
      break;
    }
  }
  let piece = flat.slice(start, start + width);
  if (start > 0) piece = `…${piece.replace(/^\S*\s/, '')}`;
  if (start + width < flat.length) piece = `${piece.replace(/\s\S*$/, '')}…`;
  if (words.length === 0) return [{ text: piece, match: false }];
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})[\\p{L}\\p{N}]*`,
    'giu',
  );
  const out: Segment[] = [];
  let last = 0;
  for (const m of piece.matchAll(re)) {
    if (m.index > last) out.push({ text: piece.slice(last, m.index), match: false });
    out.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < piece.length) out.push({ text: piece.slice(last), match: false });
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
