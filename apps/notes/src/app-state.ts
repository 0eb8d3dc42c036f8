/**
 * The notes app's state, in one object the views share: the store and what the page knows of it,
 * the note in the editor, and where the start is.
 */
import type { LiveRecall, MemoryClient } from '@anamnesis/client';

import type { PendingWrites } from './pending-writes.ts';
import { newNoteId, type NotesStore } from './store.ts';

export class AppState {
  /**
   * The store and the app are usable from the first moment: calls made before the store is open
   * wait in order (see `connectMemory`), and every save and delete is journalled until
   * acknowledged. Set by `connect` (main.ts), again when the store reopens on another runtime.
   */
  memory!: MemoryClient;
  /**
   * The live search of what the search field holds (`memory.live`, started by `connect`): one
   * recall at a time; keystrokes that come while one runs are served by one recall for the newest
   * text when it ends, and every change of the store (a save, a delete, another tab's write, the
   * model ready) runs it again, so the list on screen follows every acknowledged write.
   */
  liveSearch: LiveRecall | undefined;
  /**
   * The passphrase that opened the notes' store while they are locked (kept in this page only, for
   * reopening the store on another runtime; never stored).
   */
  passphrase: string | undefined;
  /** The notes of the store, as the page indexes them. */
  store!: NotesStore;
  /** Saves and deletes, journalled until the store acknowledges them. */
  writes!: PendingWrites;
  /** The note in the editor: an existing note's id, or the id the new note will be saved under. */
  current = newNoteId();
  /** Set once the store's notes are loaded into the page. */
  loaded = false;
  /**
   * Set by the person's first act on the editor (New note, opening a note, typing): from then on
   * the start never replaces what the editor shows with the most recent note.
   */
  editorTouched = false;
  /**
   * Resolves once the store is open and the first page of notes is in the page's index: searches
   * typed before then wait for it (not for the rest of the notes).
   */
  firstPage: Promise<void> = Promise.resolve();
}
