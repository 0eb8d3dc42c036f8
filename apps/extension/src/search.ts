/**
 * The popup and the full page: search remembered pages as you type, with the explain bars of the
 * notes app; results grouped by page (`group.ts`); a click opens the source page and marks the
 * passage `selected`. The page never owns the store: it forwards to the offscreen document, and
 * may search at once (the query waits for the store).
 */
import { isAnamnesisError } from '@anamnesis/client';
import type { RecallOptions, RecallResult } from '@anamnesis/engine';

import { h } from '../../notes/src/dom.ts';
import { explainView } from '../../notes/src/explain.ts';
import { searchedWords, snippet } from '../../notes/src/snippet.ts';
import { groupByPage, type PageHit } from './group.ts';
import { openPageStore } from './memory.ts';
import { syncPanel } from './sync-panel.ts';

const isPopup = document.body.classList.contains('popup');
const input = document.querySelector<HTMLInputElement>('#q')!;
const list = document.querySelector<HTMLElement>('#results')!;
const status = document.querySelector<HTMLElement>('#status')!;

const memory = openPageStore();
/**
 * What is searched: remembered passages of pages, with their explanation, for a query being typed
 * (its last word also a prefix), weak matches included: the page says "No pages match" itself
 * when every one is weak.
 */
const SEARCH: RecallOptions = {
  topK: 40,
  explain: true,
  filter: { kind: 'page' },
  typing: true,
  minMatch: 0,
};
/** Paints counted up: a paint that finds a newer one started drops what it read. */
let latest = 0;

/**
 * Shows the answer of the live search (see the end of this file) for `query`: a new query as the
 * person types, and again whenever the store changes (a page remembered in another tab, the model
 * ready), without the page asking.
 */
async function paint(results: RecallResult[], query: string): Promise<void> {
  const ticket = ++latest;
  if (query !== input.value) return; // the field holds newer text: its answer is on its way
  // only weak matches: no remembered page is about what was asked
  const found = results.every((r) => r.weak) ? [] : results;
  const pages = groupByPage(found, isPopup ? 6 : 15);
  list.replaceChildren(...pages.map((page) => pageView(page, query)));
  if (query.trim() && pages.length === 0)
    list.append(h('li', { class: 'no-results' }, 'No pages match.'));
  const stats = await memory.stats();
  if (ticket !== latest) return;
  status.textContent = query.trim()
    ? `${pages.length} page${pages.length === 1 ? '' : 's'} · ${stats.memories} passages remembered`
    : `${stats.memories} passages remembered (${stats.backend}). Right-click a page: “Remember this page”.`;
  document.body.dataset.query = query;
  document.body.dataset.ready = 'true';
}

/** A page: its best passage, and its other matching passages folded under it. */
function pageView(page: PageHit, query: string): HTMLElement {
  const view = resultView(page.best, query);
  if (page.more.length > 0) {
    view.append(
      h(
        'details',
        { class: 'more', 'data-testid': 'more' },
        h(
          'summary',
          {},
          `${page.more.length} more passage${page.more.length === 1 ? '' : 's'} from this page`,
        ),
        h(
          'ul',
          {},
          ...page.more.map((hit) =>
            h(
              'li',
              { class: 'snippet', 'data-id': hit.id },
              ...snippet(passageText(hit), searchedWords(query, hit.explain?.query)).map((s) =>
                s.match ? h('mark', {}, s.text) : s.text,
              ),
            ),
          ),
        ),
      ),
    );
  }
  return view;
}

/** A passage's text without the page title it starts with (passages are found by it). */
function passageText(hit: RecallResult): string {
  // a long page shows the passage that matched (recall's `passage`), not its first words
  if (hit.passage) return hit.passage.text;
  const title = typeof hit.meta?.title === 'string' ? hit.meta.title : '';
  return title && hit.text.startsWith(`${title}\n`) ? hit.text.slice(title.length + 1) : hit.text;
}

function resultView(hit: RecallResult, query: string): HTMLElement {
  const meta = hit.meta ?? {};
  const url = typeof meta.url === 'string' ? meta.url : '';
  const title = typeof meta.title === 'string' && meta.title ? meta.title : url;
  const body = passageText(hit);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // not a URL: show it as it is
  }
  return h(
    'li',
    { class: 'result', 'data-testid': 'result', 'data-id': hit.id, 'data-url': url },
    h(
      'a',
      {
        class: 'result-title',
        href: url,
        'data-testid': 'result-link',
        onclick: (e: Event) => void open(e, hit.id, url).catch(showError),
      },
      title,
    ),
    h(
      'span',
      { class: 'result-host' },
      `${host} · ${meta.source === 'selection' ? 'selection' : 'page'}`,
    ),
    h(
      'p',
      { class: 'snippet' },
      ...snippet(body, searchedWords(query, hit.explain?.query)).map((s) =>
        s.match ? h('mark', {}, s.text) : s.text,
      ),
    ),
    h(
      'details',
      { class: 'why', open: !isPopup },
      h('summary', {}, 'why this result'),
      explainView(hit),
    ),
  );
}

async function open(event: Event, id: string, url: string): Promise<void> {
  event.preventDefault();
  await memory.markUsed(id, 'selected');
  await chrome.tabs.create({ url });
  if (isPopup) window.close();
}

document.querySelector('#full')?.addEventListener('click', (e) => {
  e.preventDefault();
  void chrome.tabs.create({
    url: chrome.runtime.getURL(`search.html?q=${encodeURIComponent(input.value)}`),
  });
  if (isPopup) window.close();
});

function showError(error: unknown): void {
  status.textContent = `Error: ${isAnamnesisError(error) ? error.message : String(error)}`;
  document.body.dataset.ready = 'error';
}

// the full page pairs the extension with the person's other devices; the popup only searches
if (!isPopup) document.body.append(syncPanel());

input.value = new URLSearchParams(location.search).get('q') ?? '';
const search = memory.live(
  input.value,
  SEARCH,
  (results, update) => void paint(results, update.query).catch(showError),
  showError,
);
input.addEventListener('input', () => search.set(input.value, SEARCH));
