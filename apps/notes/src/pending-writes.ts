/**
 * The notes app's writes, in the order a person made them, kept until the store acknowledges
 * them. Each save or delete is written to `localStorage` (synchronously, so it survives a reload
 * a moment after the click) before it is queued; it leaves the journal once the store has it. At
 * start the app replays what is left: saves are idempotent (a note's id is made in the page), so a
 * write that landed just before the reload is not doubled.
 *
 * While the notes are locked the journal is sealed (`journal-seal.ts`): until the seal's key is
 * derived (a second or so after the passphrase is given), writes are held in this page only.
 */
import type { JournalSeal } from './journal-seal.ts';
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
  /** Locked notes: the seal, once derived. */
  #seal: JournalSeal | undefined;
  /** Locked notes, until the seal is derived: the journal, in this page only. */
  #held: Journal | undefined;
  readonly #ready: Promise<void>;

  /**
   * @param seal the locked notes' journal seal, being derived; none for notes that are not locked
   *   (the journal is then plain JSON).
   */
  constructor(store: NotesStore, storage: Storage | undefined, seal?: Promise<JournalSeal>) {
    this.#store = store;
    this.#storage = storage;
    if (!seal) {
      this.#ready = Promise.resolve();
      return;
    }
    this.#held = {};
    this.#ready = seal.then(
      (s) => {
        const held = this.#held ?? {};
        this.#seal = s;
        this.#held = undefined;
        // what the last visit left, and what was written here meanwhile (newer)
        if (Object.keys(held).length > 0) this.#write({ ...this.#read(), ...held });
      },
      (e: unknown) => console.error('the journal of locked notes cannot be sealed', e),
    );
  }

  /** Resolves once the journal can be read (locked notes: once its seal is derived). */
  ready(): Promise<void> {
    return this.#ready;
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
    if (this.#held) return this.#held;
    try {
      const stored = this.#storage?.getItem(KEY) ?? '{}';
      // a sealed journal is hex; one written before the notes were locked is JSON
      const text = this.#seal && !stored.startsWith('{') ? this.#seal.open(stored) : stored;
      return (JSON.parse(text ?? '{}') as Journal | null) ?? {};
    } catch {
      return {};
    }
  }

  #write(journal: Journal): void {
    if (this.#held) {
      this.#held = journal;
      return;
    }
    try {
      const text = JSON.stringify(journal);
      if (Object.keys(journal).length === 0) this.#storage?.removeItem(KEY);
      else this.#storage?.setItem(KEY, this.#seal ? this.#seal.seal(text) : text);
    } catch {
      // storage full or unavailable: the write still runs, only a reload mid-save could lose it
    }
  }
}
