import type { Engine, RecallOptions, RecallResult } from '@anamnesis/engine';
import {
  chunkId,
  foldByNote,
  noteMemories,
  savedPageOf,
  toNote,
  wikiLinks,
  type Note,
  type NoteMemory,
  type SavedPage,
} from './notes.ts';

/** The memory API the notes app uses: the engine's own methods, as the client forwards them. */
export type MemoryApi = Pick<
  Engine,
  | 'get'
  | 'remember'
  | 'rememberMany'
  | 'update'
  | 'forget'
  | 'list'
  | 'link'
  | 'unlink'
  | 'markUsed'
  | 'recall'
  | 'export'
  | 'import'
  | 'stats'
>;

/** A new note's id, made in the page so that a save replayed after a reload is the same note. */
export function newNoteId(): string {
  return `note-${crypto.randomUUID()}`;
}

/** Results always shown, however weak. */
const MIN_SHOWN = 3;
/** Cosine from which a meaning-only match is shown (the default model's related texts score above). */
const MEANING_FLOOR = 0.3;

/**
 * Notes read before the first screen is shown (the most recently updated): a store with more shows
 * them at once and reads the rest behind them (see {@link NotesStore.loadFirst}).
 */
export const FIRST_PAGE = 100;

/**
 * A search hit folded to its note (`noteId`), or to the page another app saved (`page`, with
 * `noteId` `page:` and its address).
 */
export type NoteHit = RecallResult & { noteId: string; page?: SavedPage };

/**
 * What a search asks the store for, by a scoring profile: 30 results, explained, for a query
 * being typed (its last word also a prefix), weak ones included: the app says "No notes match"
 * itself when every result is weak (see {@link NotesStore.hits}).
 */
export function searchOptions(profile: string): RecallOptions {
  return { profile, topK: 30, explain: true, typing: true, minMatch: 0 };
}

/** Notes on top of a memory store: every note's memories share the note id as their session. */
export class NotesStore {
  readonly #memory: MemoryApi;
  readonly #onChange: () => void;
  #notes = new Map<string, Note>();
  /** Loads started so far: only the latest one started may replace the index. */
  #loads = 0;
  /** True while the index holds only the first page (see {@link loadFirst}). */
  #partial = false;
  /** The full load started behind the first page, while {@link #partial}. */
  #rest: Promise<void> | undefined;

  /** `onChange` is called whenever a load replaces the in-page index (to re-render). */
  constructor(memory: MemoryApi, onChange: () => void = () => undefined) {
    this.#memory = memory;
    this.#onChange = onChange;
  }

  /**
   * Loads every note (heads and chunks) into the in-page index. Loads overlap (a start, a save, a
   * search each start one): a load that finishes after a later one started is dropped, since the
   * later one read the store after it and sees every write this client made before it began.
   */
  async load(): Promise<void> {
    const load = ++this.#loads;
    const notes = await this.#read();
    if (load !== this.#loads) return;
    this.#notes = notes;
    this.#partial = false;
    this.#onChange();
  }

  /**
   * Loads the {@link FIRST_PAGE} most recently updated notes with their chunks (whole notes: the
   * editor may open any of them), then, when the store has more, starts loading every note behind
   * them and returns without waiting: the list shows the first page at once and the rest when it
   * is read (`onChange`). Until then {@link complete} waits for it, and saves and searches do.
   */
  async loadFirst(limit = FIRST_PAGE): Promise<void> {
    const load = ++this.#loads;
    const heads = await this.#memory.list({ filter: { kind: 'note' }, limit, order: 'updated' });
    if (heads.length < limit) return this.load();
    const chunks = await this.#all(
      'chunk',
      heads.map((h) => h.id),
    );
    if (load !== this.#loads) return;
    this.#notes = this.#index(heads, chunks);
    this.#partial = true;
    this.#onChange();
    this.#startRest();
  }

  /** Starts the full load behind a partial index (again, when a write invalidated the last one). */
  #startRest(): void {
    const rest = this.load();
    this.#rest = rest;
    // A failed load leaves the first page; the next search or save tries again.
    rest.catch((e: unknown) => console.error('loading the notes failed', e));
  }

  /** Whether the index holds every note (false while the rest is read behind the first page). */
  get complete(): boolean {
    return !this.#partial;
  }

  /** Resolves once the index holds every note (at once unless the rest is still being read). */
  async whenComplete(): Promise<void> {
    while (this.#partial) {
      const rest = this.#rest;
      await rest?.catch(() => undefined);
      if (this.#partial && this.#rest === rest) {
        // that load failed or was dropped: read again
        this.#startRest();
      }
    }
  }

  /** Every note, built from the store (not swapped in). */
  async #read(): Promise<Map<string, Note>> {
    const heads = await this.#all('note');
    const chunks = await this.#all('chunk');
    return this.#index(heads, chunks);
  }

  /** The index of notes from their heads and chunks (built aside and swapped in by the caller). */
  #index(heads: NoteMemory[], chunks: NoteMemory[]): Map<string, Note> {
    const byNote = new Map<string, NoteMemory[]>();
    for (const c of chunks) {
      const id = String(c.meta.note);
      byNote.set(id, [...(byNote.get(id) ?? []), c]);
    }
    // Built aside and swapped in: a render during the load sees the old index, never half.
    const notes = new Map<string, Note>();
    for (const h of heads) {
      const extra = (byNote.get(h.id) ?? []).sort(
        (a, b) => Number(a.meta.chunk) - Number(b.meta.chunk),
      );
      notes.set(
        h.id,
        toNote(
          h,
          extra.map((c) => c.text),
        ),
      );
    }
    return notes;
  }

  async #all(kind: string, session?: string[]): Promise<NoteMemory[]> {
    const out: NoteMemory[] = [];
    const filter = session ? { kind, session } : { kind };
    for (let offset = 0; ; offset += 1000) {
      const page = await this.#memory.list({ filter, limit: 1000, offset });
      out.push(...page);
      if (page.length < 1000) return out;
    }
  }

  /** Notes, most recently updated first. */
  all(): Note[] {
    return [...this.#notes.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  get(id: string): Note | undefined {
    return this.#notes.get(id);
  }

  get size(): number {
    return this.#notes.size;
  }

  /**
   * Saves a new or edited note: its memories, its chunks and its `[[links]]`. Returns its id.
   * Idempotent for a given id and content: saving it again (a save replayed after a reload) ends in
   * the same store, whichever of its writes had landed before.
   */
  async save(draft: { id?: string; title: string; body: string; tags: string[] }): Promise<string> {
    // Links are resolved by title over every note, and the load that ends the save must not race
    // the one behind the first page.
    await this.whenComplete();
    const { head, chunks } = noteMemories(draft);
    const id = draft.id ?? newNoteId();
    const stored = await this.#memory.get(id);
    const before = this.#notes.get(id);
    if (stored) {
      await this.#memory.update(id, { text: head.text, tags: head.tags, meta: head.meta });
      await this.#memory.forget({ session: id, kind: 'chunk' });
    } else {
      await this.#memory.remember({ ...head, id, session: id, allowDuplicate: true });
    }
    if (chunks.length > 0) {
      await this.#memory.rememberMany(
        chunks.map((c) => ({
          id: chunkId(id, c.index),
          text: c.text,
          kind: 'chunk',
          session: id,
          tags: head.tags,
          meta: { note: id, chunk: c.index },
          allowDuplicate: true,
        })),
      );
    }
    await this.#syncLinks(id, before?.body ?? '', draft.body);
    await this.load();
    return id;
  }

  async #syncLinks(id: string, oldBody: string, newBody: string): Promise<void> {
    const byTitle = new Map(this.all().map((n) => [n.title.toLowerCase(), n.id]));
    const target = (t: string) => byTitle.get(t.toLowerCase());
    const oldTargets = new Set(
      wikiLinks(oldBody)
        .map(target)
        .filter((x): x is string => !!x),
    );
    const newTargets = new Set(
      wikiLinks(newBody)
        .map(target)
        .filter((x): x is string => !!x && x !== id),
    );
    for (const t of oldTargets)
      if (!newTargets.has(t)) await this.#memory.unlink(id, t, 'wikilink');
    for (const t of newTargets)
      if (!oldTargets.has(t)) await this.#memory.link(id, t, { kind: 'wikilink' });
  }

  /** Whether the store has a note with this id (in this page's index). */
  has(id: string): boolean {
    return this.#notes.has(id);
  }

  /** Deletes a note and all its memories (their links go with them). */
  async delete(id: string): Promise<void> {
    // A load behind the first page that read the note before it was forgotten would bring it back.
    await this.whenComplete();
    await this.#memory.forget({ session: id });
    await this.#memory.forget([id]);
    this.#notes.delete(id);
  }

  /** Searches by a profile; results are folded to notes, best first, with their explanation. */
  async search(query: string, profile: string): Promise<NoteHit[]> {
    return this.hits(await this.#memory.recall(query, searchOptions(profile)));
  }

  /** A search's results (a recall with {@link searchOptions}) folded to notes, best first. */
  async hits(results: RecallResult[]): Promise<NoteHit[]> {
    const folded = foldByNote(results);
    // A note another tab wrote: refresh the in-page index once (or wait for the rest behind the
    // first page, which reads it).
    if (folded.some((r) => !this.#notes.has(r.noteId) && !savedPageOf(r))) {
      if (this.#partial) await this.whenComplete();
      else await this.load();
    }
    const hits: NoteHit[] = folded.flatMap((r) => {
      if (this.#notes.has(r.noteId)) return [r];
      const page = savedPageOf(r);
      return page ? [{ ...r, page }] : [];
    });
    // Only weak matches: no note is about what was asked ("No notes match"), rather than noise.
    if (hits.every((r) => r.weak)) return [];
    // Every note is some distance from any query: beyond the best few, show only notes that
    // matched words or links, or are close in meaning.
    return hits
      .filter(
        (r, i) =>
          i < MIN_SHOWN ||
          r.similarity >= MEANING_FLOOR ||
          r.explain!.legs.some((l) => l.leg !== 'vector'),
      )
      .slice(0, 20);
  }

  /** Records that the user opened a note from the results. */
  async opened(id: string): Promise<void> {
    await this.#memory.markUsed(id, 'selected');
  }
}
