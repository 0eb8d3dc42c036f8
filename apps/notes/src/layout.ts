/**
 * The notes app's page: every element it shows, built once and mounted in `#app`. The views
 * (`notes-view.ts`, `search-view.ts`, `panels-view.ts`, `transfer-view.ts`) fill them and listen to
 * them; nothing here holds state.
 */
import { h } from './dom.ts';
import { RUNTIME_CHOICES } from './runtime-choice.ts';

/** The ranking profiles a person can pick. */
export const PROFILES = ['default', 'mnemosyne', 'memsense', 'mnestic', 'mnemexa'] as const;

/** Builds the page's elements and mounts them in `app`; returns them by name. */
export function buildLayout(app: HTMLElement) {
  const newNoteButton = h(
    'button',
    { type: 'button', class: 'primary', id: 'new-note' },
    'New note',
  );
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

  // autocomplete off: the browser then keeps no copy of what is typed in its form history or in
  // the tab's saved state (Chromium's session files), where locked notes would be readable.
  const titleInput = h('input', {
    id: 'title',
    type: 'text',
    placeholder: 'Untitled',
    autocomplete: 'off',
  });
  const bodyInput = h('textarea', {
    id: 'body',
    rows: 16,
    placeholder: 'Write… link other notes with [[Title]]',
    autocomplete: 'off',
  });
  const tagsInput = h('input', {
    id: 'tags',
    type: 'text',
    placeholder: 'tags, comma separated',
    autocomplete: 'off',
  });
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
  // No WebGPU in this browser at all: the choice could only fall back to wasm (see `gpuBanner`).
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
  const persistButton = h(
    'button',
    { type: 'button' },
    'Keep my notes (ask for persistent storage)',
  );
  const importInput = h('input', {
    id: 'import',
    type: 'file',
    multiple: true,
    accept: '.md,.markdown,.txt,.jsonl,.ndjson',
    hidden: true,
  });
  const folderInput = h('input', {
    id: 'import-folder',
    type: 'file',
    multiple: true,
    hidden: true,
  });
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
  /**
   * Shown when the person chose WebGPU under "Runs on" and the model runs without it (no WebGPU
   * here, or it failed to start): filled by `panels-view.ts`.
   */
  const gpuBanner = h('div', {
    class: 'banner',
    role: 'status',
    'aria-label': 'WebGPU notice',
    hidden: true,
  });

  /** The Lock panel's body: filled by `lock-view.ts` (lock, change the passphrase, remove it). */
  const lockPanel = h('div', { class: 'lock' });
  /** The Sync panel's body: filled by `sync-view.ts` (pair with a code, the sync's status). */
  const syncPanel = h('div', { class: 'sync' });

  app.replaceChildren(
    memoryBanner,
    gpuBanner,
    h(
      'header',
      { class: 'top' },
      h('h1', {}, h('span', { class: 'logo' }, 'a'), ' anamnesis notes'),
      h('span', { class: 'tagline' }, 'private, on this device, search by meaning'),
      newNoteButton,
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
      h('section', { class: 'panel', 'aria-label': 'Lock' }, h('h2', {}, 'Lock'), lockPanel),
      h('section', { class: 'panel', 'aria-label': 'Sync' }, h('h2', {}, 'Sync'), syncPanel),
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

  return {
    app,
    newNoteButton,
    searchInput,
    profileSelect,
    resultsList,
    notesList,
    emptyState,
    timing,
    titleInput,
    bodyInput,
    tagsInput,
    saveButton,
    deleteButton,
    editorStatus,
    progress,
    progressLabel,
    modelPanel,
    runtimeSelect,
    runtimeProgress,
    runtimeStatus,
    storagePanel,
    persistButton,
    lockPanel,
    syncPanel,
    importInput,
    folderInput,
    exportButton,
    memoryBanner,
    gpuBanner,
  };
}

/** The page's elements, by name. */
export type Ui = ReturnType<typeof buildLayout>;
