/**
 * Long text as passages: paragraphs (blank lines or line breaks) packed into chunks of at most a
 * given number of characters, a longer paragraph cut at sentence ends, then at spaces. A passage is
 * what a memory should hold: specific enough to explain a hit, short enough to fit a prompt's
 * budget whole. The browser extension cuts pages with it, the CLI text files.
 */
import { AnamnesisError } from '@anamnesis/errors';

/** Default longest passage, in UTF-16 code units (about a screen of text). */
export const PASSAGE_CHARS = 800;

/**
 * Splits `text` into trimmed passages of at most `max` UTF-16 code units (default
 * {@link PASSAGE_CHARS}), in order: paragraphs packed together, whitespace runs inside a paragraph
 * made one space, blank text dropped. `INVALID_INPUT` for a `max` that is not an integer ≥ 8.
 */
export function chunkText(text: string, max = PASSAGE_CHARS): string[] {
  if (typeof text !== 'string') throw new AnamnesisError('INVALID_INPUT', 'text must be a string');
  if (!Number.isInteger(max) || max < 8)
    throw new AnamnesisError('INVALID_INPUT', `max must be an integer ≥ 8, got ${String(max)}`);
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n+/)
    .map((p) => p.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter((p) => p.length > 0);
  const pieces = paragraphs.flatMap((p) => splitLong(p, max));
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + 1 + piece.length > max) {
      chunks.push(current);
      current = piece;
    } else current = current ? `${current}\n${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Cuts one paragraph longer than `max` at sentence ends, then at spaces, then anywhere. */
function splitLong(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const out: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(
      window.lastIndexOf('. '),
      window.lastIndexOf('! '),
      window.lastIndexOf('? '),
    );
    if (cut > max / 3) cut += 1;
    else cut = window.lastIndexOf(' ');
    if (cut <= max / 3) cut = cutText(rest, max).length;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * `s` cut to at most `max` UTF-16 code units, never between the two halves of a surrogate pair.
 */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  const last = s.charCodeAt(max - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
