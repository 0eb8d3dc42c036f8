/**
 * The notes app's writes, in the order a person made them, kept until the store acknowledges
 * them. Each save or delete is written to `localStorage` (synchronously, so it survives a reload
 * a moment after the click) before it is queued; it leaves the journal once the store has it. At
 * start the app replays what is left: saves are idempotent (a note's id is made in the page), so a
 * write that landed just before the reload is not doubled.
 */
import type { NotesStore } from './store.ts';

/** A save (the editor's content when Save was clicked) or a delete, of one note. */
export type NoteWrite =
  | { kind: 'save'; id: string; title: string; body: string; tags: string[] }
  | { kind: 'delete'; id: string };

type Journal = Record<string, NoteWrite & { seq: number }>;

const KEY = 'anamnesis-notes:pending';

export class PendingWrites {
  readonly #store: NotesStore;
  readonly #storage: Storage | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #seq = Date.now();

  constructor(store: NotesStore, storage: Storage | undefined) {
    this.#store = store;
    this.#storage = storage;
  }

  /** Writes left by an earlier visit, oldest first. */
  pending(): NoteWrite[] {
    return Object.values(this.#read())
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq: _seq, ...write }) => write);
  }

  /** The latest save of this note still waiting, if any: what the editor should show. */
  saving(id: string): Extract<NoteWrite, { kind: 'save' }> | undefined {
    const write = this.#read()[id];
    return write?.kind === 'save' ? write : undefined;
  }

  /** The notes whose latest write still waiting is a delete (one read of the journal). */
  deleting(): Set<string> {
    return new Set(
      Object.values(this.#read())
        .filter((w) => w.kind === 'delete')
        .map((w) => w.id),
    );
  }

  /** Journals the write at once, then runs it after every write queued before it. */
  run(write: NoteWrite): Promise<void> {
    const seq = ++this.#seq;
    const journal = this.#read();
    journal[write.id] = { ...write, seq };
    this.#write(journal);
    const done = this.#tail.then(async () => {
      if (write.kind === 'save') await this.#store.save(write);
      else await this.#store.delete(write.id);
      const after = this.#read();
      if (after[write.id]?.seq === seq)
        this.#write(Object.fromEntries(Object.entries(after).filter(([id]) => id !== write.id)));
    });
    this.#tail = done.catch(() => undefined);
    return done;
  }

  /** Resolves once every write queued so far has run (or failed). */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }

  #read(): Journal {
    try {
      return (JSON.parse(this.#storage?.getItem(KEY) ?? '{}') as Journal | null) ?? {};
    } catch {
      return {};
    }
  }

  #write(journal: Journal): void {
    try {
      if (Object.keys(journal).length === 0) this.#storage?.removeItem(KEY);
      else this.#storage?.setItem(KEY, JSON.stringify(journal));
    } catch {
      // storage full or unavailable: the write still runs, only a reload mid-save could lose it
    }
  }
}
