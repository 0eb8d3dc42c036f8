/**
 * The notes list and the editor: opening a note, a new note, saving and deleting (each through the
 * journal of pending writes, so a reload never loses an unacknowledged one).
 */
import { h } from './dom.ts';
import { messageOf, type Feedback } from './feedback.ts';
import type { AppState } from './app-state.ts';
import type { Ui } from './layout.ts';
import type { Note } from './notes.ts';
import { PagedList } from './paged-list.ts';
import { newNoteId } from './store.ts';

/** What the notes view asks of the rest of the app. */
export interface NotesViewHooks {
  /** Shows the store's figures again (after a write). */
  refreshStats(): Promise<void>;
  /** Saves the sample notes (the empty list's button). */
  loadSample(): Promise<void>;
}

export class NotesView {
  readonly #state: AppState;
  readonly #ui: Ui;
  readonly #feedback: Feedback;
  readonly #hooks: NotesViewHooks;
  /** The notes list: a page of rows at a time (thousands of notes cost a page, not thousands). */
  readonly pages: PagedList<Note>;

  constructor(state: AppState, ui: Ui, feedback: Feedback, hooks: NotesViewHooks) {
    this.#state = state;
    this.#ui = ui;
    this.#feedback = feedback;
    this.#hooks = hooks;
    this.pages = new PagedList(ui.notesList, (n) => this.#noteItem(n));
  }

  /** A row of the notes list. */
  #noteItem(n: Note): HTMLElement {
    return h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          class: n.id === this.#state.current ? 'note-link active' : 'note-link',
          onclick: () => this.openByPerson(n.id),
        },
        h('span', { class: 'note-title' }, n.title || 'Untitled'),
        h('span', { class: 'note-tags' }, n.tags.map((t) => `#${t}`).join(' ')),
      ),
    );
  }

  renderNotes(): void {
    const { store, writes, loaded } = this.#state;
    const { emptyState, searchInput } = this.#ui;
    const deleting = writes.deleting();
    const notes = store.all().filter((n) => !deleting.has(n.id));
    this.pages.render(notes);
    emptyState.replaceChildren();
    if (!loaded) {
      emptyState.append(h('p', {}, 'Loading your notes…'));
    } else if (notes.length === 0) {
      emptyState.append(
        h('p', {}, 'No notes yet. Write one, import a folder, or try the sample.'),
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            onclick: this.#feedback.act(() => this.#hooks.loadSample()),
          },
          'Load sample notes',
        ),
      );
    }
    this.pages.hidden = searchInput.value.trim() !== '';
  }

  /** The person opens a note (or a new one): the editor is theirs from now on. */
  openByPerson(id?: string): void {
    this.#state.editorTouched = true;
    this.openEditor(id);
  }

  openEditor(id?: string): void {
    const { store, writes } = this.#state;
    const { titleInput, bodyInput, tagsInput, deleteButton, editorStatus } = this.#ui;
    this.#state.current = id ?? newNoteId();
    // A save of this note still on its way shows what it saves, not the store's older text.
    const note = id ? (writes.saving(id) ?? store.get(id)) : undefined;
    titleInput.value = note?.title ?? '';
    bodyInput.value = note?.body ?? '';
    tagsInput.value = note?.tags.join(', ') ?? '';
    deleteButton.disabled = !note;
    editorStatus.textContent = !note
      ? 'new note'
      : 'updatedAt' in note
        ? `edited ${new Date(note.updatedAt).toLocaleString()}`
        : 'saving…';
    this.renderNotes();
    titleInput.focus();
  }

  /** The editor's content, as a save would store it. */
  #draft(): { id: string; title: string; body: string; tags: string[] } {
    const { titleInput, bodyInput, tagsInput } = this.#ui;
    return {
      id: this.#state.current,
      title: titleInput.value.trim() || 'Untitled',
      body: bodyInput.value,
      tags: tagsInput.value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    };
  }

  /**
   * Saves what the editor shows now. Saves run one after another in click order; the editor stays
   * editable (a later edit is saved by the next click), and the status says "saved" only once the
   * store has acknowledged this save and the editor still shows what it saved.
   */
  save(): void {
    const { titleInput, bodyInput, deleteButton, editorStatus } = this.#ui;
    if (!bodyInput.value.trim() && !titleInput.value.trim()) {
      editorStatus.textContent = 'write something first';
      return;
    }
    const snapshot = this.#draft();
    editorStatus.textContent = 'saving…';
    deleteButton.disabled = false;
    this.#state.writes.run({ kind: 'save', ...snapshot }).then(
      async () => {
        if (this.#state.current === snapshot.id) {
          const now = this.#draft();
          const same = now.title === snapshot.title && now.body === snapshot.body;
          editorStatus.textContent = same ? 'saved' : 'unsaved changes';
        }
        this.renderNotes();
        await this.#hooks.refreshStats();
      },
      (e: unknown) => {
        if (this.#state.current === snapshot.id)
          editorStatus.textContent = `not saved: ${messageOf(e)}`;
      },
    );
  }

  /** Deletes the note in the editor (after any save of it still running) and opens a new one. */
  remove(): void {
    const id = this.#state.current;
    this.openEditor();
    this.#state.writes.run({ kind: 'delete', id }).then(
      async () => {
        this.renderNotes();
        await this.#hooks.refreshStats();
      },
      (e: unknown) => {
        this.#ui.editorStatus.textContent = `not deleted: ${messageOf(e)}`;
        this.renderNotes();
      },
    );
    this.renderNotes();
  }

  /** Listens to the editor's buttons and fields, and to New note. */
  listen(): void {
    const { newNoteButton, saveButton, deleteButton, titleInput, bodyInput, tagsInput } = this.#ui;
    newNoteButton.addEventListener('click', () => this.openByPerson());
    saveButton.addEventListener('click', () => this.save());
    deleteButton.addEventListener('click', () => this.remove());
    for (const field of [titleInput, bodyInput, tagsInput])
      field.addEventListener('input', () => (this.#state.editorTouched = true));
    bodyInput.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 's') {
        e.preventDefault();
        this.save();
      }
    });
  }
}
