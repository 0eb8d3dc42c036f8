/**
 * Planning what one click stores: the page's text split into passages (`chunkText` of
 * `@anamnesis/ranking`: paragraphs packed into chunks of at most `CHUNK_CHARS` characters, a longer
 * paragraph cut at sentence ends, then at spaces), within the limits of one click. Pure (no DOM),
 * so it is unit-tested in Node.
 */
import { AnamnesisError } from '@anamnesis/client';
import type { MemoryFilter, RememberInput } from '@anamnesis/engine';
import { chunkText, cutText, stripInvisible } from '@anamnesis/ranking';

import type { PageCapture } from './messages.ts';

/** Longest chunk, in characters (about a screen of text: specific enough to explain a hit). */
export const CHUNK_CHARS = 800;
/** At most this many passages (memories) from one click. */
export const MAX_CHUNKS = 250;
/** Longest title kept, in UTF-16 code units; a longer one is cut and ends in `…`. */
export const MAX_TITLE_CHARS = 300;
/** At most this much page text is read per click, in UTF-16 code units (the rest is left out). */
export const MAX_TEXT_CHARS = 200_000;
/** Longest address, in UTF-16 code units (fragment removed); a page at a longer one is refused. */
export const MAX_URL_CHARS = 4096;
/**
 * At most this many bytes stored per click: the UTF-8 text, session and JSON metadata of all its
 * passages together (1 MiB). Passages past it are left out. The store's index and vectors add to
 * this (about 2 KB per passage).
 */
export const MAX_CAPTURE_BYTES = 1_048_576;

/**
 * Text as stored: without the characters a reader does not see (`stripInvisible`: Unicode tag
 * characters, zero-width characters, bidi controls, variation selectors), in which a page can
 * hide an instruction to a model that a person reading the page never sees; lone UTF-16
 * surrogates (which the store refuses) replaced by U+FFFD.
 */
function wellFormed(s: string): string {
  return stripInvisible(s).replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}

/** A page's address as stored: without its fragment (`#…`), which names a place on the page. */
export function pageAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url.replace(/#.*$/s, '');
  }
}

/** A title as compared and stored: whitespace runs made one space, cut to `MAX_TITLE_CHARS`. */
export function pageTitle(title: string): string {
  const t = wellFormed(title.replace(/\s+/g, ' ').trim());
  return t.length <= MAX_TITLE_CHARS ? t : `${cutText(t, MAX_TITLE_CHARS - 1)}…`;
}

/** The tab as the browser reported it when the user clicked (menu, shortcut or popup). */
export interface ClickSnapshot {
  url?: string;
  title?: string;
}

/**
 * Checks that the page read after the click is the page that was clicked: the same address
 * (fragments aside) and the same title. A page that changes them in between (on `contextmenu`, on
 * a timer) would have its text stored under another page's title or address: refused with
 * `INVALID_INPUT`. An untitled page is not compared by title (the browser shows its address).
 */
export function checkSameMoment(click: ClickSnapshot, capture: PageCapture): void {
  if (click.url !== undefined && pageAddress(click.url) !== pageAddress(capture.url)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'the page changed its address after the click; nothing was remembered',
    );
  }
  const title = pageTitle(capture.title);
  if (click.title !== undefined && title !== '' && pageTitle(click.title) !== title) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'the page changed its title after the click; nothing was remembered',
    );
  }
}

/** What one click stores, and what was cut to stay within the limits. */
export interface CapturePlan {
  /** The page's address, without its fragment: the passages' session. */
  url: string;
  /** The passages, in page order. */
  memories: RememberInput[];
  /**
   * The earlier passages this save replaces (a page remembered again replaces its text). A
   * document whose address was changed by the history API (`pushState`, `replaceState`) replaces
   * only what was saved from the same document address, never the passages of the page it now
   * claims to be.
   */
  replace: MemoryFilter | null;
  /** User-facing sentences, one per limit that cut the capture; empty when nothing was cut. */
  cuts: string[];
}

const utf8 = new TextEncoder();
const format = (n: number) => n.toLocaleString('en-US');

/**
 * The memories of a capture: kind `'page'`, session = the address without its fragment, meta
 * `{ url, title, source, chunk, chunks, savedAt }`, plus `loadedUrl` when the history API changed
 * the address after the document loaded. The title leads each chunk's text, so that it is found by
 * its words too. Everything is cut to the limits above (`MAX_*`); an address longer than
 * `MAX_URL_CHARS` is `INVALID_INPUT`.
 */
export function planCapture(capture: PageCapture, time: number): CapturePlan {
  const url = wellFormed(pageAddress(capture.url));
  if (url.length > MAX_URL_CHARS) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `the page's address is longer than ${format(MAX_URL_CHARS)} characters; nothing was remembered`,
    );
  }
  const loaded = capture.loadedUrl === undefined ? url : wellFormed(pageAddress(capture.loadedUrl));
  const loadedUrl = loaded !== url && loaded.length <= MAX_URL_CHARS ? loaded : undefined;
  const cuts: string[] = [];
  const title = pageTitle(capture.title);
  if (capture.title.replace(/\s+/g, ' ').trim().length > MAX_TITLE_CHARS) {
    cuts.push(`title shortened to ${format(MAX_TITLE_CHARS)} characters`);
  }
  let text = wellFormed(capture.text);
  if (text.length > MAX_TEXT_CHARS || capture.textCut) {
    text = cutText(text, MAX_TEXT_CHARS);
    cuts.push(`only the first ${format(MAX_TEXT_CHARS)} characters of text kept`);
  }
  let chunks = chunkText(text, CHUNK_CHARS);
  if (chunks.length > MAX_CHUNKS) {
    chunks = chunks.slice(0, MAX_CHUNKS);
    cuts.push(`only the first ${format(MAX_CHUNKS)} passages kept`);
  }
  const memories: RememberInput[] = [];
  let bytes = 0;
  for (const [i, chunk] of chunks.entries()) {
    const memory: RememberInput = {
      text: title ? `${title}\n${chunk}` : chunk,
      kind: 'page',
      session: url,
      tags: [capture.source],
      meta: {
        url,
        title,
        source: capture.source,
        chunk: i,
        chunks: chunks.length,
        savedAt: time,
        ...(loadedUrl === undefined ? {} : { loadedUrl }),
      },
    };
    bytes += memoryBytes(memory);
    if (bytes > MAX_CAPTURE_BYTES) {
      cuts.push(`passages after the first ${format(MAX_CAPTURE_BYTES / 1024)} KB left out`);
      break;
    }
    memories.push(memory);
  }
  const chunkCount = memories.length;
  for (const m of memories) m.meta!.chunks = chunkCount;
  const replace: MemoryFilter | null =
    capture.source !== 'page'
      ? null
      : {
          kind: 'page',
          session: url,
          meta: loadedUrl === undefined ? { source: 'page' } : { source: 'page', loadedUrl },
        };
  return { url, memories, replace, cuts };
}

/** A memory's stored size, as `MAX_CAPTURE_BYTES` counts it. */
export function memoryBytes(m: RememberInput): number {
  return (
    utf8.encode(m.text).length +
    utf8.encode(m.session ?? '').length +
    utf8.encode(JSON.stringify(m.meta ?? {})).length
  );
}
