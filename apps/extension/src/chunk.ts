/**
 * Splitting a page's text into memories: paragraphs (blank lines or line breaks) packed into
 * chunks of at most `max` characters; a longer paragraph is cut at sentence ends, then at spaces.
 * Pure (no DOM), so it is unit-tested in Node.
 */
import type { RememberInput } from '@anamnesis/engine';

import type { PageCapture } from './messages.ts';

/** Longest chunk, in characters (about a screen of text: specific enough to explain a hit). */
export const CHUNK_CHARS = 800;
/** At most this many chunks per page (a very long page keeps its first ~200 KB). */
export const MAX_CHUNKS = 250;

/** Splits `text` into trimmed chunks of at most `max` characters, in order. */
export function chunkText(text: string, max = CHUNK_CHARS): string[] {
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
    if (cut <= max / 3) cut = max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * The memories of a capture: kind `'page'`, session = the URL, meta `{ url, title, source, chunk,
 * chunks, savedAt }`. The title leads each chunk's text, so that it is found by its words too.
 */
export function captureToMemories(capture: PageCapture, time: number): RememberInput[] {
  const chunks = chunkText(capture.text).slice(0, MAX_CHUNKS);
  return chunks.map((chunk, i) => ({
    text: capture.title ? `${capture.title}\n${chunk}` : chunk,
    kind: 'page',
    session: capture.url,
    tags: [capture.source],
    meta: {
      url: capture.url,
      title: capture.title,
      source: capture.source,
      chunk: i,
      chunks: chunks.length,
      savedAt: time,
    },
  }));
}
