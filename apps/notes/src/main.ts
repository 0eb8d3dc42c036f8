import './styles.css';
import {
  connectMemory,
  isAnamnesisError,
  loadSettings,
  recoverMemory,
  saveSettings,
  type LiveRecall,
  type LiveUpdate,
  type MemoryClient,
} from '@anamnesis/client';
import type { ProgressEvent, RecallResult } from '@anamnesis/engine';
import { bytes, h } from './dom.ts';
import { explainDetails } from './explain.ts';
import { PagedList } from './paged-list.ts';
import { titleFromFile, type Note } from './notes.ts';
import { SAMPLE_NOTES } from './sample.ts';
import { searchedWords, snippet } from './snippet.ts';
import { PendingWrites } from './pending-writes.ts';
import {
  downloadFiles,
  loadRuntimeChoice,
  RUNTIME_CHOICES,
  runtimeFiles,
  runtimeOptions,
  saveRuntimeChoice,
  type RuntimeChoice,
} from './runtime-choice.ts';
import { registerWhenAnswered, whenControlled } from './service-worker.ts';
import { newNoteId, NotesStore, searchOptions, type NoteHit } from './store.ts';

const PROFILES = ['default', 'mnemosyne', 'memsense', 'mnestic', 'mnemexa'] as const;

const app = document.getElementById('app')!;

/** Why the model runs where it does, for people. */
const DEVICE_REASONS: Record<string, string> = {
  requested: 'chosen by the app (a static model gains nothing on a GPU)',
  'no-webgpu': 'no WebGPU adapter in this browser',
  'webgpu-failed': 'WebGPU failed to start; fell back to wasm',
  'webgpu-faster': 'WebGPU was faster in a warm-up',
  'wasm-faster': 'wasm was faster than WebGPU in a warm-up',
};

/* ---------- layout ---------- */

const searchInput = h('input', {
  id: 'search',
  type: 'search',
  placeholder: 'Search by words or meaning…',
  autocomplete: 'off',
  spellcheck: false,
});
const profileSelect = h(
  'select',
  { id: 'profile', 'aria-label': 'Profile' },
  ...PROFILES.map((p) => h('option', { value: p }, p)),
);
const resultsList = h('ol', { id: 'results', class: 'results', 'aria-label': 'Results' });
const notesList = h('ul', { id: 'notes', class: 'notes', 'aria-label': 'Notes' });
const emptyState = h('div', { class: 'empty' });
const timing = h('span', { class: 'timing', 'aria-live': 'polite' });

const titleInput = h('input', { id: 'title', type: 'text', placeholder: 'Untitled' });
const bodyInput = h('textarea', {
  id: 'body',
  rows: 16,
  placeholder: 'Write… link other notes with [[Title]]',
});
const tagsInput = h('input', { id: 'tags', type: 'text', placeholder: 'tags, comma separated' });
const saveButton = h('button', { type: 'button', class: 'primary' }, 'Save');
const deleteButton = h('button', { type: 'button', class: 'danger' }, 'Delete');
const editorStatus = h('span', { class: 'status', 'aria-live': 'polite' });
const editor = h(
  'section',
  { class: 'editor', 'aria-label': 'Editor' },
  h('label', { for: 'title' }, 'Title'),
  titleInput,
  h('label', { for: 'body' }, 'Body'),
  bodyInput,
  h('label', { for: 'tags' }, 'Tags'),
  tagsInput,
  h('div', { class: 'actions' }, saveButton, deleteButton, editorStatus),
);

const progress = h('progress', {
  id: 'progress',
  max: 1,
  value: 0,
  hidden: true,
  'aria-label': 'Progress',
});
const progressLabel = h('span', { class: 'progress-label' });
const modelPanel = h('dl', { class: 'kv', 'aria-label': 'Model' });
/** The runtime the person chose (see runtime-choice.ts): ONNX Runtime is downloaded when chosen. */
const runtimeSelect = h(
  'select',
  { id: 'runtime', 'aria-label': 'Runs on' },
  ...RUNTIME_CHOICES.map((c) => h('option', { value: c.value }, c.label)),
);
// No WebGPU in this browser: the choice could only fall back to JavaScript.
if (!('gpu' in navigator))
  runtimeSelect.querySelector('option[value="webgpu"]')?.setAttribute('disabled', '');
const runtimeProgress = h('progress', {
  id: 'runtime-progress',
  max: 1,
  value: 0,
  hidden: true,
  'aria-label': 'Runtime download',
});
const runtimeStatus = h('span', { class: 'progress-label', 'aria-live': 'polite' });
const storagePanel = h('dl', { class: 'kv', 'aria-label': 'Storage' });
const persistButton = h('button', { type: 'button' }, 'Keep my notes (ask for persistent storage)');
const importInput = h('input', {
  id: 'import',
  type: 'file',
  multiple: true,
  accept: '.md,.markdown,.txt,.jsonl,.ndjson',
  hidden: true,
});
const folderInput = h('input', { id: 'import-folder', type: 'file', multiple: true, hidden: true });
folderInput.setAttribute('webkitdirectory', '');
const exportButton = h('button', { type: 'button' }, 'Export (JSON Lines)');
/**
 * Shown when the store could not use OPFS (a private window, a browser without it): notes then
 * live in memory only, and the user must know before writing any.
 */
const memoryBanner = h(
  'div',
  { class: 'banner', role: 'status', 'aria-label': 'Storage warning', hidden: true },
  h('strong', {}, 'Notes are not being saved. '),
  'This browser gives the app no on-disk storage (OPFS; a private window, for one), so notes ' +
    'live in memory only and will not be kept after this tab closes. Export them to keep a copy.',
);

app.replaceChildren(
  memoryBanner,
  h(
    'header',
    { class: 'top' },
    h('h1', {}, h('span', { class: 'logo' }, 'a'), ' anamnesis notes'),
    h('span', { class: 'tagline' }, 'private, on this device, search by meaning'),
    h(
      'button',
      { type: 'button', class: 'primary', id: 'new-note', onclick: () => openByPerson() },
      'New note',
    ),
  ),
  h(
    'main',
    { class: 'layout' },
    h(
      'aside',
      { class: 'sidebar' },
      h(
        'div',
        { class: 'search-row' },
        h('label', { for: 'search', class: 'visually-hidden' }, 'Search'),
        searchInput,
      ),
      h(
        'div',
        { class: 'search-meta' },
        h('label', { for: 'profile' }, 'Ranking '),
        profileSelect,
        timing,
      ),
      resultsList,
      emptyState,
      notesList,
    ),
    editor,
  ),
  h(
    'footer',
    { class: 'panels' },
    h(
      'section',
      { class: 'panel' },
      h('h2', {}, 'Model'),
      modelPanel,
      h('div', { class: 'row' }, h('label', { for: 'runtime' }, 'Runs on '), runtimeSelect),
      h('div', { class: 'row' }, runtimeProgress, runtimeStatus),
    ),
    h('section', { class: 'panel' }, h('h2', {}, 'Storage'), storagePanel, persistButton),
    h(
      'section',
      { class: 'panel' },
      h('h2', {}, 'Import and export'),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', onclick: () => importInput.click() }, 'Import files'),
        h('button', { type: 'button', onclick: () => folderInput.click() }, 'Import a folder'),
        exportButton,
      ),
      importInput,
      folderInput,
      h('div', { class: 'row' }, progress, progressLabel),
    ),
  ),
);

/* ---------- state ---------- */

/**
 * The store and the app are usable from the first moment: calls made before the store is open
 * wait in order (see `connectMemory`), and every save and delete is journalled until acknowledged.
 */
let memory: MemoryClient;
/**
 * The live search of what the search field holds (`memory.live`, started in {@link connect}): one
 * recall at a time; keystrokes that come while one runs are served by one recall for the newest
 * text when it ends, and every change of the store (a save, a delete, another tab's write, the
 * model ready) runs it again, so the list on screen follows every acknowledged write.
 */
let liveSearch: LiveRecall | undefined;
let store: NotesStore;
let writes: PendingWrites;
/** The note in the editor: an existing note's id, or the id the new note will be saved under. */
let current = newNoteId();
/** Set once the store's notes are loaded into the page. */
let loaded = false;
/**
 * Set by the person's first act on the editor (New note, opening a note, typing): from then on
 * the start never replaces what the editor shows with the most recent note.
 */
let editorTouched = false;

/**
 * Marks a phase of the start on `<body>` (`data-ready="true"`, `data-store="open"`,
 * `data-model="ready"`) and, at the frame that shows it (as `type-to-paint` ends), as a User
 * Timing mark `notes:<phase>` that benchmarks read.
 */
/** Resolves when the first store opened, and when its model is ready (for the service worker). */
let storeWasOpened: () => void;
const storeOpen = new Promise<void>((resolve) => (storeWasOpened = resolve));
let modelWasReady: () => void;
const modelReady = new Promise<void>((resolve) => (modelWasReady = resolve));

function reached(phase: 'ready' | 'store' | 'model', value: string): void {
  if (phase === 'store') storeWasOpened();
  if (phase === 'model') modelWasReady();
  document.body.dataset[phase] = value;
  requestAnimationFrame(() => performance.mark(`notes:${phase}`));
}

function connect(): void {
  const choice = loadRuntimeChoice(globalThis.localStorage);
  runtimeSelect.value = choice;
  memory = connectMemory({
    name: 'notes',
    ...runtimeOptions(choice),
    onProgress: (e) => showProgress(e),
    // The store opens beside the model: until the model is ready, search finds by words only.
    onReady: (part) => {
      if (part !== 'model') return;
      reached('model', 'ready');
      showProgress(undefined);
      void refreshStats(); // the live search runs again by itself: the model's readiness is a change
    },
  });
  store = new NotesStore(memory, () => {
    // `data-listed`: 'all' once every note is in the list, 'first' while only the most recent are.
    document.body.dataset.listed = store.complete ? 'all' : 'first';
    if (loaded) renderNotes();
  });
  writes = new PendingWrites(store, globalThis.localStorage);
  liveSearch?.close();
  liveSearch = memory.live(
    searchInput.value,
    searchOptions(profileSelect.value),
    (results, update) => void paint(results, update),
    (e) => (timing.textContent = `search failed: ${messageOf(e)}`),
  );
}
connect();

/** What a person is told when something fails: the catalogued message, never a raw TypeError. */
function messageOf(e: unknown): string {
  return isAnamnesisError(e) ? e.message : 'something went wrong; your text is still here';
}

/** An event handler for an async action: a failure is shown to the person, never dropped. */
function act(task: () => Promise<unknown>): () => void {
  return () => {
    task().catch((e: unknown) => {
      progress.hidden = true;
      progressLabel.textContent = messageOf(e);
    });
  };
}

function showProgress(event: ProgressEvent | undefined, label = ''): void {
  if (!event || (event.total > 0 && event.loaded >= event.total)) {
    progress.hidden = true;
    progressLabel.textContent = label;
    return;
  }
  progress.hidden = false;
  progress.max = event.total || 1;
  progress.value = event.loaded;
  progressLabel.textContent = `${label || event.phase} ${event.loaded}${event.total ? ` / ${event.total}` : ''}`;
}

/* ---------- notes list and editor ---------- */

/** A row of the notes list. */
function noteItem(n: Note): HTMLElement {
  return h(
    'li',
    {},
    h(
      'button',
      {
        type: 'button',
        class: n.id === current ? 'note-link active' : 'note-link',
        onclick: () => openByPerson(n.id),
      },
      h('span', { class: 'note-title' }, n.title || 'Untitled'),
      h('span', { class: 'note-tags' }, n.tags.map((t) => `#${t}`).join(' ')),
    ),
  );
}

/** The notes list: a page of rows at a time (thousands of notes cost a page, not thousands). */
const notesPages = new PagedList(notesList, noteItem);

function renderNotes(): void {
  const deleting = writes.deleting();
  const notes = store.all().filter((n) => !deleting.has(n.id));
  notesPages.render(notes);
  emptyState.replaceChildren();
  if (!loaded) {
    emptyState.append(h('p', {}, 'Loading your notes…'));
  } else if (notes.length === 0) {
    emptyState.append(
      h('p', {}, 'No notes yet. Write one, import a folder, or try the sample.'),
      h(
        'button',
        { type: 'button', class: 'primary', onclick: act(loadSample) },
        'Load sample notes',
      ),
    );
  }
  notesPages.hidden = searchInput.value.trim() !== '';
}

/** The person opens a note (or a new one): the editor is theirs from now on. */
function openByPerson(id?: string): void {
  editorTouched = true;
  openEditor(id);
}

function openEditor(id?: string): void {
  current = id ?? newNoteId();
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
  renderNotes();
  titleInput.focus();
}

/** The editor's content, as a save would store it. */
function draft(): { id: string; title: string; body: string; tags: string[] } {
  return {
    id: current,
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
function save(): void {
  if (!bodyInput.value.trim() && !titleInput.value.trim()) {
    editorStatus.textContent = 'write something first';
    return;
  }
  const snapshot = draft();
  editorStatus.textContent = 'saving…';
  deleteButton.disabled = false;
  writes.run({ kind: 'save', ...snapshot }).then(
    async () => {
      if (current === snapshot.id) {
        const now = draft();
        const same = now.title === snapshot.title && now.body === snapshot.body;
        editorStatus.textContent = same ? 'saved' : 'unsaved changes';
      }
      renderNotes();
      await refreshStats();
    },
    (e: unknown) => {
      if (current === snapshot.id) editorStatus.textContent = `not saved: ${messageOf(e)}`;
    },
  );
}

/** Deletes the note in the editor (after any save of it still running) and opens a new one. */
function remove(): void {
  const id = current;
  openEditor();
  writes.run({ kind: 'delete', id }).then(
    async () => {
      renderNotes();
      await refreshStats();
    },
    (e: unknown) => {
      editorStatus.textContent = `not deleted: ${messageOf(e)}`;
      renderNotes();
    },
  );
  renderNotes();
}

saveButton.addEventListener('click', save);
deleteButton.addEventListener('click', remove);
for (const field of [titleInput, bodyInput, tagsInput])
  field.addEventListener('input', () => (editorTouched = true));
bodyInput.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 's') {
    e.preventDefault();
    save();
  }
});

/* ---------- search as you type ---------- */

function resultItem(hit: NoteHit, query: string): HTMLElement {
  const note = store.get(hit.noteId)!;
  return h(
    'li',
    { class: 'result', 'data-note': hit.noteId },
    h(
      'button',
      { type: 'button', class: 'result-open', onclick: () => void openResult(hit.noteId) },
      h('span', { class: 'result-title' }, note.title || 'Untitled'),
      h('span', { class: 'result-score' }, hit.score.toFixed(3)),
    ),
    h(
      'p',
      { class: 'snippet' },
      ...snippet(hit.text.slice(note.title.length), searchedWords(query, hit.explain?.query)).map(
        (s) => (s.match ? h('mark', {}, s.text) : s.text),
      ),
    ),
    explainDetails(hit),
  );
}

async function openResult(noteId: string): Promise<void> {
  openByPerson(noteId);
  await store.opened(noteId);
}

/** When each keystroke in the search field came (event time) whose results are not painted yet. */
let unpainted: number[] = [];
/** Result lists painted so far (`data-search-painted`, for tests and benchmarks to wait on). */
let painted = 0;

/** Asks for the results of the field's text as it is now, by the chosen profile. */
function runSearch(): void {
  liveSearch?.set(searchInput.value, searchOptions(profileSelect.value));
  // An emptied field shows the notes at once (its recall answers nothing anyway).
  if (searchInput.value.trim() === '') showNoSearch(performance.now());
}

/** No search: the list of notes instead of results. */
function showNoSearch(at: number): void {
  notesPages.hidden = false;
  resultsList.replaceChildren();
  resultsList.dataset.query = '';
  timing.textContent = '';
  unpainted = unpainted.filter((t) => t > at);
  renderNotes();
}

/** Paints counted up: one that finds a newer one started drops what it read. */
let paints = 0;

/** Shows a live search's answer, unless the field holds newer text (whose answer comes next). */
async function paint(results: RecallResult[], update: LiveUpdate): Promise<void> {
  const ticket = ++paints;
  const { query, startedAt: start, cause } = update;
  if (query !== searchInput.value) return;
  // The worker's share of what was typed (recall and the round trip), apart from the page's
  // rendering; runs again after a store change are not a person's search.
  if (cause === 'query' || cause === 'start')
    performance.measure('search-recall', { start, end: performance.now() });
  if (query.trim() === '') {
    showNoSearch(start);
    return;
  }
  notesPages.hidden = true;
  let hits: NoteHit[];
  try {
    await firstPage; // typed before the store opened: its notes are needed to show results
    hits = await store.hits(results);
  } catch (e) {
    if (ticket === paints) timing.textContent = `search failed: ${messageOf(e)}`;
    return;
  }
  if (ticket !== paints || query !== searchInput.value) return; // a newer answer paints
  const deleting = writes.deleting();
  hits = hits.filter((hit) => !deleting.has(hit.noteId));
  const byWords = hits.some((hit) => hit.partial) ? ' (by words: the model is loading)' : '';
  resultsList.replaceChildren(...hits.map((hit) => resultItem(hit, query)));
  resultsList.dataset.query = query;
  resultsList.dataset.partial = String(byWords !== '');
  if (hits.length === 0) resultsList.append(h('li', { class: 'no-results' }, 'No notes match.'));
  requestAnimationFrame(() => {
    const now = performance.now();
    timing.textContent = `${hits.length} in ${(now - start).toFixed(1)} ms${byWords}`;
    // Keystroke to results painted, as User Timing measures benchmarks can read: one for every
    // keystroke these results include (those coalesced into this search too).
    for (const typedAt of unpainted.filter((t) => t <= start))
      performance.measure('type-to-paint', { start: typedAt, end: now });
    unpainted = unpainted.filter((t) => t > start);
    document.body.dataset.searchPainted = String(++painted);
  });
}

searchInput.addEventListener('input', (e) => {
  unpainted.push(e.timeStamp);
  runSearch();
});
profileSelect.addEventListener('change', () => {
  void saveSettings({ profile: profileSelect.value }, { name: 'notes' });
  runSearch();
});

/* ---------- sample, import, export ---------- */

async function loadSample(): Promise<void> {
  showProgress({ phase: 'import', loaded: 0, total: SAMPLE_NOTES.length }, 'sample');
  for (const [i, n] of SAMPLE_NOTES.entries()) {
    await writes.run({ kind: 'save', id: newNoteId(), ...n });
    showProgress({ phase: 'import', loaded: i + 1, total: SAMPLE_NOTES.length }, 'sample');
  }
  renderNotes();
  await refreshStats();
}

async function importFiles(files: FileList | null): Promise<void> {
  if (!files || files.length === 0) return;
  const list = [...files];
  let done = 0;
  for (const file of list) {
    const text = await file.text();
    if (/\.(jsonl|ndjson)$/i.test(file.name)) {
      await memory.import(text, {
        onConflict: 'skip',
        onProgress: (e) => showProgress(e, file.name),
      });
    } else if (/\.(md|markdown|txt)$/i.test(file.name) && text.trim()) {
      await writes.run({
        kind: 'save',
        id: newNoteId(),
        title: titleFromFile(file.webkitRelativePath || file.name),
        body: text,
        tags: ['imported'],
      });
    }
    showProgress({ phase: 'import', loaded: ++done, total: list.length }, 'import');
  }
  await store.load();
  renderNotes();
  await refreshStats();
}

importInput.addEventListener(
  'change',
  act(() => importFiles(importInput.files)),
);
folderInput.addEventListener(
  'change',
  act(() => importFiles(folderInput.files)),
);
/** Saves JSON Lines as a download. */
function download(text: string, what: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  h('a', {
    href: url,
    download: `anamnesis-notes-${what}-${new Date().toISOString().slice(0, 10)}.jsonl`,
  }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

exportButton.addEventListener(
  'click',
  act(async () => download(await memory.export(), 'export')),
);

/* ---------- model and storage panels ---------- */

function kv(panel: HTMLElement, rows: [string, string][]): void {
  panel.replaceChildren(...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/**
 * What runs the model: as the worker reported it when it knows at open (a model loaded before the
 * store), else the person's choice (a WebGPU choice that fell back runs in JavaScript).
 */
function runtimeShown(): string {
  const info = memory.info;
  const onnx =
    info?.runtime !== undefined
      ? info.runtime === 'onnx'
      : !info?.fellBackFrom && loadRuntimeChoice(globalThis.localStorage) !== 'js';
  return onnx ? 'ONNX Runtime' : 'JavaScript';
}

async function refreshStats(): Promise<void> {
  let s: Awaited<ReturnType<MemoryClient['stats']>>;
  try {
    s = await memory.stats();
  } catch {
    return; // the store is not open (a failed start says why in its own banner)
  }
  const reason = memory.info?.selection?.reason;
  const why = reason ? (DEVICE_REASONS[reason] ?? reason) : undefined;
  kv(modelPanel, [
    ['model', s.model.id],
    ['device', s.model.device === 'webgpu' ? 'WebGPU' : s.model.device],
    ['why', why ?? '—'],
    ['runtime', runtimeShown()],
    ['dimensions', String(s.model.dims)],
  ]);
  kv(storagePanel, [
    [
      'backend',
      s.backend === 'opfs'
        ? 'OPFS (on disk)'
        : `in memory${s.backendReason ? `: ${s.backendReason}` : ''}`,
    ],
    ['notes', String(store.size)],
    ['store size', bytes(s.bytes)],
    ['origin usage', `${bytes(s.usage)} of ${bytes(s.quota)}`],
    [
      'persisted',
      s.persisted === null ? 'unknown' : s.persisted ? 'yes' : 'no: the browser may evict it',
    ],
  ]);
  persistButton.hidden = s.persisted === true || s.backend !== 'opfs';
  memoryBanner.hidden = s.backend !== 'memory';
}

// Not awaited before anything else: Firefox answers only once the person answers its prompt.
persistButton.addEventListener('click', () => {
  void navigator.storage
    ?.persist?.()
    .catch(() => false)
    .then(refreshStats);
});

/**
 * The person picks what runs the model: ONNX Runtime's files are downloaded first (with progress;
 * the service worker keeps them for offline use), then the store is opened again on the new
 * runtime. A failed download (offline) keeps the runtime as it was and says why.
 */
async function switchRuntime(choice: RuntimeChoice): Promise<void> {
  const before = loadRuntimeChoice(globalThis.localStorage);
  if (choice === before) return;
  runtimeSelect.disabled = true;
  try {
    const files = runtimeFiles(choice);
    if (files.length > 0) {
      runtimeStatus.textContent = 'downloading ONNX Runtime…';
      await whenControlled();
      runtimeProgress.hidden = false;
      await downloadFiles(files, ({ loaded, total }) => {
        runtimeProgress.max = total || 1;
        runtimeProgress.value = loaded;
        runtimeStatus.textContent = `downloading ONNX Runtime ${bytes(loaded)} / ${bytes(total)}`;
      });
    }
  } catch (e) {
    console.warn('downloading ONNX Runtime failed', e);
    runtimeSelect.value = before;
    runtimeProgress.hidden = true;
    runtimeStatus.textContent = 'ONNX Runtime could not be downloaded (offline?); nothing changed';
    runtimeSelect.disabled = false;
    return;
  }
  runtimeProgress.hidden = true;
  runtimeStatus.textContent = 'reopening the store…';
  saveRuntimeChoice(globalThis.localStorage, choice);
  try {
    await firstPage.catch(() => undefined);
    await memory.close();
    loaded = false;
    delete document.body.dataset.model;
    connect();
    firstPage = memory.ready.then(() => store.loadFirst());
    await firstPage;
    loaded = true;
    renderNotes();
    runtimeStatus.textContent = '';
    void refreshStats();
  } finally {
    runtimeSelect.disabled = false;
  }
}

runtimeSelect.addEventListener(
  'change',
  act(() => switchRuntime(runtimeSelect.value as RuntimeChoice)),
);

/* ---------- start ---------- */

/**
 * Resolves once the store is open and the first page of notes is in the page's index: searches
 * typed before then wait for it (not for the rest of the notes).
 */
let firstPage: Promise<void> = Promise.resolve();

/**
 * Starts the app. It is interactive (`data-ready`) as soon as the person's saved settings are
 * applied: the search field, the editor and the buttons work from then on, and what is typed is
 * kept; searches and saves made before the store is open wait for it, in order. `data-store`
 * says when the store is open and the most recent notes are listed; the rest are listed behind
 * them (`data-listed`), the model after (`data-model`).
 */
async function start(): Promise<void> {
  openEditor();
  firstPage = memory.ready.then(() => store.loadFirst());
  const settings = loadSettings({ name: 'notes' }).then((saved) => {
    if (
      saved.profile &&
      saved.profile !== profileSelect.value &&
      (PROFILES as readonly string[]).includes(saved.profile)
    ) {
      profileSelect.value = saved.profile;
      runSearch(); // anything typed already is searched by it
    }
  });
  showProgress({ phase: 'model', loaded: 0, total: 0 }, 'loading the model');
  // What an earlier visit saved or deleted without an acknowledgement (a reload right after a
  // click): run again, first, in its order.
  for (const write of writes.pending()) {
    writes.run(write).then(
      () => renderNotes(),
      // kept in the journal: tried again at the next start
      (e: unknown) => console.error(`a ${write.kind} left by the last visit failed`, e),
    );
  }
  await settings;
  reached('ready', 'true');
  // The most recent notes first: the rest are read behind them and listed when they arrive.
  await firstPage;
  loaded = true;
  if (memory.readiness.model) showProgress(undefined);
  else
    showProgress(
      { phase: 'model', loaded: 0, total: 0 },
      'loading the model; search finds by words',
    );
  // The most recent note, unless the person already acted on the editor.
  if (!editorTouched && store.all()[0]) openEditor(store.all()[0]!.id);
  else renderNotes();
  app.setAttribute('aria-busy', 'false');
  reached('store', 'open');
  void refreshStats();
}

/**
 * A damaged store (`STORE_CORRUPT` at open): offer to salvage it. The damaged file is kept in
 * OPFS, what could be read is downloaded as a copy and becomes the new store, and the app starts.
 */
function offerRecovery(e: unknown): void {
  const status = h('span', { class: 'recovery-status' });
  const button = h('button', { type: 'button', class: 'primary' }, 'Recover notes');
  const alert = h(
    'div',
    { class: 'fatal', role: 'alert' },
    h('p', {}, `The notes store is damaged: ${(e as Error).message}`),
    h(
      'p',
      {},
      'Recovering reads every note that is still readable, downloads them as a file, keeps a copy ' +
        'of the damaged store and starts again from the notes recovered.',
    ),
    button,
    status,
  );
  button.addEventListener(
    'click',
    act(async () => {
      button.disabled = true;
      status.textContent = ' recovering…';
      try {
        const result = await recoverMemory({ name: 'notes', restore: true });
        download(result.jsonl, 'recovered');
        alert.remove();
        app.prepend(
          h(
            'p',
            { class: 'banner', role: 'status', 'aria-label': 'Recovery' },
            `Recovered ${result.recovered} notes` +
              (result.unreadable > 0 ? `; ${result.unreadable} could not be read` : '') +
              `. The damaged store is kept as ${result.backup ?? 'a copy'}.`,
          ),
        );
        connect();
        await start();
      } catch (err) {
        button.disabled = false;
        status.textContent = ` recovery failed: ${messageOf(err)}`;
      }
    }),
  );
  app.prepend(alert);
}

function startFailed(e: unknown): void {
  app.setAttribute('aria-busy', 'false');
  document.body.dataset.ready = 'error';
  if (isAnamnesisError(e, 'STORE_CORRUPT')) {
    offerRecovery(e);
    return;
  }
  app.prepend(
    h('p', { class: 'fatal', role: 'alert' }, `anamnesis could not start: ${(e as Error).message}`),
  );
}

start().catch(startFailed);

// Offline use: the service worker, once the app has answered (see service-worker.ts).
registerWhenAnswered(modelReady, storeOpen);
