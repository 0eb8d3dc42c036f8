/**
 * Search as you type: the live search's answers painted as results (title, score, a snippet with
 * the words recall searched highlighted, the explanation), "No notes match." when none is strong
 * enough, and the timings benchmarks read (`search-recall`, `type-to-paint`,
 * `data-search-painted`).
 */
import { saveSettings, type LiveUpdate } from '@anamnesis/client';
import type { RecallResult } from '@anamnesis/engine';

import type { AppState } from './app-state.ts';
import { h } from './dom.ts';
import { explainDetails } from './explain.ts';
import { messageOf } from './feedback.ts';
import type { Ui } from './layout.ts';
import type { NotesView } from './notes-view.ts';
import { searchedWords, snippet } from './snippet.ts';
import type { SavedPage } from './notes.ts';
import { searchOptions, type NoteHit } from './store.ts';

export class SearchView {
  readonly #state: AppState;
  readonly #ui: Ui;
  readonly #notes: NotesView;
  /** When each keystroke in the search field came (event time) whose results are not painted yet. */
  #unpainted: number[] = [];
  /** Result lists painted so far (`data-search-painted`, for tests and benchmarks to wait on). */
  #painted = 0;
  /** Paints counted up: one that finds a newer one started drops what it read. */
  #paints = 0;

  constructor(state: AppState, ui: Ui, notes: NotesView) {
    this.#state = state;
    this.#ui = ui;
    this.#notes = notes;
  }

  #resultItem(hit: NoteHit, query: string): HTMLElement {
    if (hit.page) return this.#pageItem(hit, hit.page, query);
    const note = this.#state.store.get(hit.noteId)!;
    return h(
      'li',
      { class: 'result', 'data-note': hit.noteId },
      h(
        'button',
        {
          type: 'button',
          class: 'result-open',
          onclick: () => void this.#openResult(hit.noteId),
        },
        h('span', { class: 'result-title' }, note.title || 'Untitled'),
        h('span', { class: 'result-score' }, hit.score.toFixed(3)),
      ),
      h(
        'p',
        { class: 'snippet' },
        // a long note shows the passage that matched, not its first words
        ...snippet(
          hit.passage?.text ?? hit.text.slice(note.title.length),
          searchedWords(query, hit.explain?.query),
        ).map((s) => (s.match ? h('mark', {}, s.text) : s.text)),
      ),
      ...this.#replacedBy(hit),
      explainDetails(hit),
    );
  }

  /**
   * A page the person saved in their browser (the extension, synced here): its title, "Saved
   * page", the passage that matched, and its address, which opens in a new tab when clicked (a web
   * address only).
   */
  #pageItem(hit: NoteHit, page: SavedPage, query: string): HTMLElement {
    const title = `${page.title}\n`;
    const text = hit.text.startsWith(title) ? hit.text.slice(title.length) : hit.text;
    return h(
      'li',
      { class: 'result result-page', 'data-page': page.url },
      h(
        'p',
        { class: 'result-open' },
        h('span', { class: 'result-title' }, page.title),
        h('span', { class: 'result-kind' }, 'Saved page'),
        h('span', { class: 'result-score' }, hit.score.toFixed(3)),
      ),
      h(
        'p',
        { class: 'snippet' },
        ...snippet(hit.passage?.text ?? text, searchedWords(query, hit.explain?.query)).map((s) =>
          s.match ? h('mark', {}, s.text) : s.text,
        ),
      ),
      h(
        'p',
        { class: 'result-address' },
        // a link only to a web address (never `javascript:` or `data:`, whoever saved the page)
        /^https?:\/\//i.test(page.url)
          ? h('a', { href: page.url, target: '_blank', rel: 'noopener noreferrer' }, page.url)
          : page.url,
      ),
      explainDetails(hit),
    );
  }

  /**
   * "Replaced by a newer note" under a note the engine found superseded (a newer one states a new
   * value for the same fact: a new wifi password, a new address), with a button that opens it.
   */
  #replacedBy(hit: NoteHit): HTMLElement[] {
    const by = hit.explain?.supersededBy;
    if (!by) return [];
    const newer = this.#state.store.get(by.id);
    const when = new Date(by.at).toLocaleDateString(undefined, { dateStyle: 'medium' });
    return [
      h(
        'p',
        { class: 'replaced-by', 'data-testid': 'replaced-by', 'data-newer': by.id },
        'Replaced by a newer note',
        newer
          ? h(
              'button',
              {
                type: 'button',
                class: 'replaced-by-open',
                onclick: () => void this.#openResult(by.id),
              },
              newer.title || 'Untitled',
            )
          : '',
        ` on ${when}`,
      ),
    ];
  }

  async #openResult(noteId: string): Promise<void> {
    this.#notes.openByPerson(noteId);
    await this.#state.store.opened(noteId);
  }

  /** Asks for the results of the field's text as it is now, by the chosen profile. */
  runSearch(): void {
    const { searchInput, profileSelect } = this.#ui;
    this.#state.liveSearch?.set(searchInput.value, searchOptions(profileSelect.value));
    // An emptied field shows the notes at once (its recall answers nothing anyway).
    if (searchInput.value.trim() === '') this.#showNoSearch(performance.now());
  }

  /** No search: the list of notes instead of results. */
  #showNoSearch(at: number): void {
    this.#notes.pages.hidden = false;
    this.#ui.resultsList.replaceChildren();
    this.#ui.resultsList.dataset.query = '';
    this.#ui.timing.textContent = '';
    this.#unpainted = this.#unpainted.filter((t) => t > at);
    this.#notes.renderNotes();
  }

  /** Shows a live search's answer, unless the field holds newer text (whose answer comes next). */
  async paint(results: RecallResult[], update: LiveUpdate): Promise<void> {
    const { searchInput, resultsList, timing } = this.#ui;
    const ticket = ++this.#paints;
    const { query, startedAt: start, cause } = update;
    if (query !== searchInput.value) return;
    // The worker's share of what was typed (recall and the round trip), apart from the page's
    // rendering; runs again after a store change are not a person's search.
    if (cause === 'query' || cause === 'start')
      performance.measure('search-recall', { start, end: performance.now() });
    if (query.trim() === '') {
      this.#showNoSearch(start);
      return;
    }
    this.#notes.pages.hidden = true;
    let hits: NoteHit[];
    try {
      await this.#state.firstPage; // typed before the store opened: its notes are needed to show results
      hits = await this.#state.store.hits(results);
    } catch (e) {
      if (ticket === this.#paints) timing.textContent = `search failed: ${messageOf(e)}`;
      return;
    }
    if (ticket !== this.#paints || query !== searchInput.value) return; // a newer answer paints
    const deleting = this.#state.writes.deleting();
    hits = hits.filter((hit) => !deleting.has(hit.noteId));
    const byWords = hits.some((hit) => hit.partial) ? ' (by words: the model is loading)' : '';
    resultsList.replaceChildren(...hits.map((hit) => this.#resultItem(hit, query)));
    resultsList.dataset.query = query;
    resultsList.dataset.partial = String(byWords !== '');
    if (hits.length === 0) resultsList.append(h('li', { class: 'no-results' }, 'No notes match.'));
    requestAnimationFrame(() => {
      const now = performance.now();
      timing.textContent = `${hits.length} in ${(now - start).toFixed(1)} ms${byWords}`;
      // Keystroke to results painted, as User Timing measures benchmarks can read: one for every
      // keystroke these results include (those coalesced into this search too).
      for (const typedAt of this.#unpainted.filter((t) => t <= start))
        performance.measure('type-to-paint', { start: typedAt, end: now });
      this.#unpainted = this.#unpainted.filter((t) => t > start);
      document.body.dataset.searchPainted = String(++this.#painted);
    });
  }

  /** Listens to the search field and the profile choice. */
  listen(): void {
    const { searchInput, profileSelect } = this.#ui;
    searchInput.addEventListener('input', (e) => {
      this.#unpainted.push(e.timeStamp);
      this.runSearch();
    });
    profileSelect.addEventListener('change', () => {
      void saveSettings({ profile: profileSelect.value }, { name: 'notes' });
      this.runSearch();
    });
  }
}
