/**
 * The notes app: an offline PWA over `@anamnesis/client`. This module starts it: the page
 * (`layout.ts`), the state the views share (`app-state.ts`), the views (`notes-view.ts`,
 * `search-view.ts`, `panels-view.ts`, `runtime-view.ts`, `transfer-view.ts`), the connection to
 * the store and the start.
 */
import './styles.css';
import { connectMemory, loadSettings } from '@anamnesis/client';

import { AppState } from './app-state.ts';
import { Feedback, messageOf } from './feedback.ts';
import { buildLayout, PROFILES } from './layout.ts';
import { modelReady, reached, storeOpen } from './milestones.ts';
import { NotesView } from './notes-view.ts';
import { PanelsView } from './panels-view.ts';
import { journalSeal } from './journal-seal.ts';
import { PendingWrites } from './pending-writes.ts';
import { startFailed } from './recovery-view.ts';
import { answerTabs, isLocked, LOCKED_STORE, PLAIN_STORE } from './lock.ts';
import { LockView } from './lock-view.ts';
import { loadRuntimeChoice, runtimeOptions } from './runtime-choice.ts';
import { RuntimeView } from './runtime-view.ts';
import { SearchView } from './search-view.ts';
import { SyncView } from './sync-view.ts';
import { registerWhenAnswered } from './service-worker.ts';
import { NotesStore, searchOptions } from './store.ts';
import { TransferView } from './transfer-view.ts';

const ui = buildLayout(document.getElementById('app')!);
const state = new AppState();
const feedback = new Feedback(ui);
const panels = new PanelsView(state, ui);
const refreshStats = () => panels.refreshStats();
const notes: NotesView = new NotesView(state, ui, feedback, {
  refreshStats,
  loadSample: () => transfer.loadSample(),
});
const renderNotes = () => notes.renderNotes();
const transfer = new TransferView(state, ui, feedback, { renderNotes, refreshStats });
const search = new SearchView(state, ui, notes);
const runtime = new RuntimeView(state, ui, feedback, {
  reconnect: () => {
    connect();
    void sync.restart(); // on the new client
  },
  renderNotes,
  refreshStats,
});

const lock = new LockView(state, ui, { reconnect: reopen, refreshStats });
const sync = new SyncView(
  state,
  ui,
  () => (isLocked(globalThis.localStorage) ? LOCKED_STORE : PLAIN_STORE),
  // notes from another device: the list is read again (its `onChange` renders it)
  () => void state.store.load().catch((e: unknown) => console.error('listing synced notes', e)),
);

/**
 * Connects to the notes' store (again, when it reopens on another runtime, after a recovery, or
 * after the notes were locked or unlocked): the encrypted one, with the passphrase this page was
 * given, while the notes are locked.
 */
function connect(): void {
  const choice = loadRuntimeChoice(globalThis.localStorage);
  ui.runtimeSelect.value = choice;
  const locked = isLocked(globalThis.localStorage);
  state.memory = connectMemory({
    name: locked ? LOCKED_STORE : PLAIN_STORE,
    ...(locked && state.passphrase !== undefined
      ? { encryption: { passphrase: state.passphrase } }
      : {}),
    ...runtimeOptions(choice),
    // Notes embedded with another model (the English model, the default before issue 67) are
    // embedded again with the app's model once, as the store opens, rather than refused.
    onModelMismatch: 'reembed',
    onProgress: (e) => feedback.showProgress(e),
    // The store opens beside the model: until the model is ready, search finds by words only.
    onReady: (part) => {
      if (part !== 'model') return;
      reached('model', 'ready');
      feedback.showProgress(undefined);
      void refreshStats(); // the live search runs again by itself: the model's readiness is a change
    },
  });
  const store = new NotesStore(state.memory, () => {
    // `data-listed`: 'all' once every note is in the list, 'first' while only the most recent are.
    document.body.dataset.listed = state.store.complete ? 'all' : 'first';
    if (state.loaded) renderNotes();
  });
  state.store = store;
  state.writes = new PendingWrites(
    store,
    globalThis.localStorage,
    locked && state.passphrase !== undefined
      ? journalSeal(state.passphrase, globalThis.localStorage)
      : undefined,
  );
  state.liveSearch?.close();
  state.liveSearch = state.memory.live(
    ui.searchInput.value,
    searchOptions(ui.profileSelect.value),
    (results, update) => void search.paint(results, update),
    (e) => (ui.timing.textContent = `search failed: ${messageOf(e)}`),
  );
}
/** Opens the store again (its old client closed) and lists its notes once it is open. */
async function reopen(passphrase: string | undefined): Promise<void> {
  state.passphrase = passphrase;
  state.loaded = false;
  connect();
  state.firstPage = state.memory.ready.then(() => state.store.loadFirst());
  await state.firstPage.catch(() => undefined);
  state.loaded = true;
  renderNotes();
  // the sync ran over the old client: on the new one now
  await sync.restart();
}

// Locked notes open once the person gives the passphrase (see `boot`).
if (!isLocked(globalThis.localStorage)) connect();
lock.render();
sync.render();
answerTabs();

notes.listen();
search.listen();
transfer.listen();
panels.listen();
runtime.listen();

/**
 * Starts the app. It is interactive (`data-ready`) as soon as the person's saved settings are
 * applied: the search field, the editor and the buttons work from then on, and what is typed is
 * kept; searches and saves made before the store is open wait for it, in order. `data-store`
 * says when the store is open and the most recent notes are listed; the rest are listed behind
 * them (`data-listed`), the model after (`data-model`).
 */
async function start(): Promise<void> {
  notes.openEditor();
  state.firstPage = state.memory.ready.then(() => state.store.loadFirst());
  const settings = loadSettings({ name: 'notes' }).then((saved) => {
    if (
      saved.profile &&
      saved.profile !== ui.profileSelect.value &&
      (PROFILES as readonly string[]).includes(saved.profile)
    ) {
      ui.profileSelect.value = saved.profile;
      search.runSearch(); // anything typed already is searched by it
    }
  });
  feedback.showProgress({ phase: 'model', loaded: 0, total: 0 }, 'loading the model');
  // What an earlier visit saved or deleted without an acknowledgement (a reload right after a
  // click): run again, first, in its order (locked notes: once the journal's seal is derived).
  await state.writes.ready();
  for (const write of state.writes.pending()) {
    state.writes.run(write).then(
      () => renderNotes(),
      // kept in the journal: tried again at the next start
      (e: unknown) => console.error(`a ${write.kind} left by the last visit failed`, e),
    );
  }
  await settings;
  reached('ready', 'true');
  // The most recent notes first: the rest are read behind them and listed when they arrive.
  await state.firstPage;
  state.loaded = true;
  if (state.memory.readiness.model) feedback.showProgress(undefined);
  else
    feedback.showProgress(
      { phase: 'model', loaded: 0, total: 0 },
      'loading the model; search finds by words',
    );
  // The most recent note, unless the person already acted on the editor.
  const latest = state.store.all()[0];
  if (!state.editorTouched && latest) notes.openEditor(latest.id);
  else renderNotes();
  ui.app.setAttribute('aria-busy', 'false');
  reached('store', 'open');
  void refreshStats();
}

/** Asks for the passphrase first when the notes are locked, then starts. */
async function boot(): Promise<void> {
  document.body.dataset.lock = isLocked(globalThis.localStorage) ? 'locked' : 'unlocked';
  if (isLocked(globalThis.localStorage)) {
    await lock.unlockAtStart();
    document.body.dataset.lock = 'locked';
  }
  await start();
  sync.resume();
  // Locked notes must open offline too: the cipher build kept by the service worker.
  if (isLocked(globalThis.localStorage)) lock.keepForOffline();
  // What an interrupted lock or unlock left behind, once the notes are listed.
  void lock.removeLeftovers(state.memory);
}

boot().catch((e: unknown) => startFailed(ui.app, feedback, { connect, start }, e));

// Offline use: the service worker, once the app has answered (see service-worker.ts).
registerWhenAnswered(modelReady, storeOpen);
