/**
 * The Model panel's "Runs on" choice: ONNX Runtime's files are downloaded first (with progress; the
 * service worker keeps them for offline use), then the store is opened again on the new runtime.
 */
import type { AppState } from './app-state.ts';
import { bytes } from './dom.ts';
import type { Feedback } from './feedback.ts';
import type { Ui } from './layout.ts';
import {
  downloadFiles,
  loadRuntimeChoice,
  runtimeFiles,
  saveRuntimeChoice,
  type RuntimeChoice,
} from './runtime-choice.ts';
import { whenControlled } from './service-worker.ts';

/** What switching the runtime asks of the rest of the app. */
export interface RuntimeViewHooks {
  /** Connects to the store again (on the runtime now saved as the choice). */
  reconnect(): void;
  renderNotes(): void;
  refreshStats(): Promise<void>;
}

export class RuntimeView {
  readonly #state: AppState;
  readonly #ui: Ui;
  readonly #feedback: Feedback;
  readonly #hooks: RuntimeViewHooks;

  constructor(state: AppState, ui: Ui, feedback: Feedback, hooks: RuntimeViewHooks) {
    this.#state = state;
    this.#ui = ui;
    this.#feedback = feedback;
    this.#hooks = hooks;
  }

  /**
   * The person picks what runs the model. A failed download (offline) keeps the runtime as it was
   * and says why.
   */
  async switchRuntime(choice: RuntimeChoice): Promise<void> {
    const state = this.#state;
    const { runtimeSelect, runtimeProgress, runtimeStatus } = this.#ui;
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
      runtimeStatus.textContent =
        'ONNX Runtime could not be downloaded (offline?); nothing changed';
      runtimeSelect.disabled = false;
      return;
    }
    runtimeProgress.hidden = true;
    runtimeStatus.textContent = 'reopening the store…';
    saveRuntimeChoice(globalThis.localStorage, choice);
    try {
      await state.firstPage.catch(() => undefined);
      await state.memory.close();
      state.loaded = false;
      delete document.body.dataset.model;
      this.#hooks.reconnect();
      state.firstPage = state.memory.ready.then(() => state.store.loadFirst());
      await state.firstPage;
      state.loaded = true;
      this.#hooks.renderNotes();
      runtimeStatus.textContent = '';
      void this.#hooks.refreshStats();
    } finally {
      runtimeSelect.disabled = false;
    }
  }

  /** Listens to the "Runs on" choice. */
  listen(): void {
    const { runtimeSelect } = this.#ui;
    runtimeSelect.addEventListener(
      'change',
      this.#feedback.act(() => this.switchRuntime(runtimeSelect.value as RuntimeChoice)),
    );
  }
}
