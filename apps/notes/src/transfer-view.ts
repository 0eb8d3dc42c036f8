/** Notes in and out: the sample notes, importing files or a folder, exporting as JSON Lines. */
import type { AppState } from './app-state.ts';
import { h } from './dom.ts';
import type { Feedback } from './feedback.ts';
import type { Ui } from './layout.ts';
import { titleFromFile } from './notes.ts';
import { SAMPLE_NOTES } from './sample.ts';
import { newNoteId } from './store.ts';

/** What importing asks of the rest of the app. */
export interface TransferViewHooks {
  renderNotes(): void;
  refreshStats(): Promise<void>;
}

/** Saves JSON Lines as a download. */
export function download(text: string, what: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  h('a', {
    href: url,
    download: `anamnesis-notes-${what}-${new Date().toISOString().slice(0, 10)}.jsonl`,
  }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export class TransferView {
  readonly #state: AppState;
  readonly #ui: Ui;
  readonly #feedback: Feedback;
  readonly #hooks: TransferViewHooks;

  constructor(state: AppState, ui: Ui, feedback: Feedback, hooks: TransferViewHooks) {
    this.#state = state;
    this.#ui = ui;
    this.#feedback = feedback;
    this.#hooks = hooks;
  }

  async loadSample(): Promise<void> {
    const progress = this.#feedback;
    progress.showProgress({ phase: 'import', loaded: 0, total: SAMPLE_NOTES.length }, 'sample');
    for (const [i, n] of SAMPLE_NOTES.entries()) {
      await this.#state.writes.run({ kind: 'save', id: newNoteId(), ...n });
      progress.showProgress(
        { phase: 'import', loaded: i + 1, total: SAMPLE_NOTES.length },
        'sample',
      );
    }
    this.#hooks.renderNotes();
    await this.#hooks.refreshStats();
  }

  async #importFiles(files: FileList | null): Promise<void> {
    if (!files || files.length === 0) return;
    const { memory, writes, store } = this.#state;
    const list = [...files];
    let done = 0;
    for (const file of list) {
      const text = await file.text();
      if (/\.(jsonl|ndjson)$/i.test(file.name)) {
        await memory.import(text, {
          onConflict: 'skip',
          onProgress: (e) => this.#feedback.showProgress(e, file.name),
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
      this.#feedback.showProgress(
        { phase: 'import', loaded: ++done, total: list.length },
        'import',
      );
    }
    await store.load();
    this.#hooks.renderNotes();
    await this.#hooks.refreshStats();
  }

  /** Listens to the import inputs and the export button. */
  listen(): void {
    const { importInput, folderInput, exportButton } = this.#ui;
    const act = (task: () => Promise<unknown>) => this.#feedback.act(task);
    importInput.addEventListener(
      'change',
      act(() => this.#importFiles(importInput.files)),
    );
    folderInput.addEventListener(
      'change',
      act(() => this.#importFiles(folderInput.files)),
    );
    exportButton.addEventListener(
      'click',
      act(async () => download(await this.#state.memory.export(), 'export')),
    );
  }
}
