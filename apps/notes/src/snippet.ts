/** A piece of a snippet: plain text, or a match to highlight. */
export interface Segment {
  text: string;
  match: boolean;
}

/** Lower-cased words of a query worth highlighting (two letters or more). */
export function queryWords(query: string): string[] {
  return [
    ...new Set(
      (query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => w.length >= 2),
    ),
  ];
}

/**
 * A window of `text` around the first query word found (or its start), split into segments with
 * every word that starts with a query word (a cheap stand-in for stemming) marked. The caller
 * renders segments as text nodes and `<mark>`s, never as HTML.
 */
export function snippet(text: string, query: string, width = 180): Segment[] {
  const words = queryWords(query);
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
