/**
 * The popup and the full page: search remembered pages as you type, with the explain bars of the
 * notes app; a click opens the source page and marks the passage `selected`.
 */
import type { RecallResult } from '@anamnesis/engine';

import { h } from '../../notes/src/dom.ts';
import { explainView } from '../../notes/src/explain.ts';
import { snippet } from '../../notes/src/snippet.ts';
import { openStore } from './memory.ts';

const isPopup = document.body.classList.contains('popup');
const input = document.querySelector<HTMLInputElement>('#q')!;
const list = document.querySelector<HTMLElement>('#results')!;
const status = document.querySelector<HTMLElement>('#status')!;

const memoryReady = openStore();
let latest = 0;

async function search(query: string): Promise<void> {
  const ticket = ++latest;
  const memory = await memoryReady;
  const hits = query.trim()
    ? await memory.recall(query, {
        topK: isPopup ? 8 : 20,
        explain: true,
        filter: { kind: 'page' },
      })
    : [];
  if (ticket !== latest) return; // a newer query is on its way
  list.replaceChildren(...hits.map((hit) => resultView(hit, query)));
  const stats = await memory.stats();
  status.textContent = query.trim()
    ? `${hits.length} result${hits.length === 1 ? '' : 's'} · ${stats.memories} passages remembered`
    : `${stats.memories} passages remembered (${stats.backend}). Right-click a page: “Remember this page”.`;
  document.body.dataset.query = query;
  document.body.dataset.ready = 'true';
}

function resultView(hit: RecallResult, query: string): HTMLElement {
  const meta = hit.meta ?? {};
  const url = typeof meta.url === 'string' ? meta.url : '';
  const title = typeof meta.title === 'string' && meta.title ? meta.title : url;
  // Each passage starts with the page title (so it is found by it): leave it out of the snippet.
  const body =
    title && hit.text.startsWith(`${title}\n`) ? hit.text.slice(title.length + 1) : hit.text;
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
        onclick: (e: Event) => open(e, hit.id, url),
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
      ...snippet(body, query).map((s) => (s.match ? h('mark', {}, s.text) : s.text)),
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
  const memory = await memoryReady;
  await memory.markUsed(id, 'selected');
  await chrome.tabs.create({ url });
  if (isPopup) window.close();
}

input.addEventListener('input', () => void search(input.value).catch(showError));
document.querySelector('#full')?.addEventListener('click', (e) => {
  e.preventDefault();
  void chrome.tabs.create({
    url: chrome.runtime.getURL(`search.html?q=${encodeURIComponent(input.value)}`),
  });
  if (isPopup) window.close();
});

function showError(error: unknown): void {
  status.textContent = `Error: ${String(error)}`;
  document.body.dataset.ready = 'error';
}

input.value = new URLSearchParams(location.search).get('q') ?? '';
void search(input.value).catch(showError);
