/** What a person is shown of work in progress and of failures: the progress row, messages. */
import { isAnamnesisError, type ProgressEvent } from '@anamnesis/client';

import type { Ui } from './layout.ts';

/** What a person is told when something fails: the catalogued message, never a raw TypeError. */
export function messageOf(e: unknown): string {
  return isAnamnesisError(e) ? e.message : 'something went wrong; your text is still here';
}

/** The progress bar and its label (the Import and export panel's row). */
export class Feedback {
  readonly #ui: Pick<Ui, 'progress' | 'progressLabel'>;

  constructor(ui: Pick<Ui, 'progress' | 'progressLabel'>) {
    this.#ui = ui;
  }

  /** An event handler for an async action: a failure is shown to the person, never dropped. */
  act(task: () => Promise<unknown>): () => void {
    return () => {
      task().catch((e: unknown) => {
        this.#ui.progress.hidden = true;
        this.#ui.progressLabel.textContent = messageOf(e);
      });
    };
  }

  /** Shows `event`'s progress under `label`; none (or a finished one) hides the bar. */
  showProgress(event: ProgressEvent | undefined, label = ''): void {
    const { progress, progressLabel } = this.#ui;
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
}
