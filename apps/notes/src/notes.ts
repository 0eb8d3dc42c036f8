/**
 * Notes as memories. A note is one memory (kind `note`, its title in `meta.title`); a long body is
 * split into extra memories (kind `chunk`, `meta.note` naming the note) so each piece is embedded
 * within the model's length, and search results are folded back to their note.
 */

/** A note as the app shows it. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
}

/** The subset of a memory the app reads back. */
export interface NoteMemory {
  id: string;
  text: string;
  kind: string;
  tags: string[];
  meta: Record<string, string | number | boolean | null>;
  createdAt: number;
  updatedAt: number;
}

/** Characters per chunk: about 250 words, well inside the default model's 512 tokens. */
export const CHUNK_CHARS = 1500;

/**
 * Splits a body into chunks at paragraph, then sentence, then word boundaries (a hard cut in a
 * line without any). Lossless: the chunks are exact slices, `chunks.join('') === body`.
 */
export function chunkBody(body: string, size = CHUNK_CHARS): string[] {
  if (body.length <= size) return [body];
  const chunks: string[] = [];
  let rest = body;
  while (rest.length > size) {
    const window = rest.slice(0, size);
    const cut = Math.max(
      window.lastIndexOf('\n\n'),
      window.lastIndexOf('. '),
      window.lastIndexOf(' '),
    );
    let at = cut > size / 2 ? cut + 1 : size;
    // Never between the two halves of a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[at - 1]!)) at--;
    chunks.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  chunks.push(rest);
  return chunks;
}

/** The text embedded and indexed for a note's first memory: title, then the first chunk. */
export function noteText(title: string, firstChunk: string): string {
  return firstChunk ? `${title}\n\n${firstChunk}` : title;
}

/** `[[Title]]` references in a body, distinct, in order. */
export function wikiLinks(body: string): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(/\[\[([^[\]\n]{1,200})\]\]/g)) out.add(m[1]!.trim());
  return [...out].filter((t) => t.length > 0);
}

/** The memories that store a note: the note itself and its extra chunks. */
export function noteMemories(note: { title: string; body: string; tags: string[] }): {
  head: {
    text: string;
    kind: 'note';
    tags: string[];
    meta: { title: string; chunks: number; exact: true };
  };
  chunks: { text: string; index: number }[];
} {
  const [first = '', ...rest] = chunkBody(note.body);
  return {
    head: {
      text: noteText(note.title, first),
      kind: 'note',
      tags: note.tags,
      // exact: the chunks are exact slices of the body (notes saved before were trimmed pieces
      // joined by a blank line).
      meta: { title: note.title, chunks: rest.length, exact: true },
    },
    chunks: rest.map((text, i) => ({ text: `${note.title}\n\n${text}`, index: i + 1 })),
  };
}

/** Id of the memory holding chunk `index` (≥ 1) of a note. */
export function chunkId(noteId: string, index: number): string {
  return `${noteId}~${index}`;
}

/**
 * A page another app of the person saved (the browser extension: kind `page`, its address in
 * `meta.url`, its title in `meta.title`), which a search finds beside the notes once they sync.
 */
export interface SavedPage {
  url: string;
  title: string;
}

/** The page a memory is a passage of, when it is one ({@link SavedPage}). */
export function savedPageOf(memory: Pick<NoteMemory, 'kind' | 'meta'>): SavedPage | undefined {
  const { url, title } = memory.meta;
  if (memory.kind !== 'page' || typeof url !== 'string' || url === '') return undefined;
  return { url, title: typeof title === 'string' && title.trim() !== '' ? title : url };
}

/**
 * The note a memory belongs to: a chunk's note, or the memory itself; the passages of a saved page
 * all belong to `page:` and its address.
 */
export function noteIdOf(memory: Pick<NoteMemory, 'id' | 'kind' | 'meta'>): string {
  if (memory.kind === 'chunk' && typeof memory.meta.note === 'string') return memory.meta.note;
  const page = savedPageOf(memory);
  return page ? `page:${page.url}` : memory.id;
}

/** Rebuilds a note from its head memory (the body without the title line). */
export function toNote(head: NoteMemory, extraChunks: readonly string[] = []): Note {
  const title = typeof head.meta.title === 'string' ? head.meta.title : head.text.split('\n')[0]!;
  const first = head.text.startsWith(title)
    ? head.text.slice(title.length).replace(/^\n\n/, '')
    : head.text;
  return {
    id: head.id,
    title,
    body:
      head.meta.exact === true
        ? [first, ...extraChunks.map((c) => c.slice(title.length + 2))].join('')
        : [first, ...extraChunks.map((c) => c.slice(title.length).replace(/^\n\n/, ''))]
            .filter(Boolean)
            .join('\n\n'),
    tags: head.tags,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
  };
}

/** Keeps the best-scored result per note, in score order. */
export function foldByNote<T extends Pick<NoteMemory, 'id' | 'kind' | 'meta'> & { score: number }>(
  results: readonly T[],
): (T & { noteId: string })[] {
  const best = new Map<string, T & { noteId: string }>();
  for (const r of results) {
    const noteId = noteIdOf(r);
    const seen = best.get(noteId);
    if (!seen || r.score > seen.score) best.set(noteId, { ...r, noteId });
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/** A title from a file name: no folder, no extension. */
export function titleFromFile(name: string): string {
  return (name.split('/').pop() ?? name).replace(/\.(md|markdown|txt)$/i, '');
}
