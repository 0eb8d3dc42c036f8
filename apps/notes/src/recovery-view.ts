/**
 * A start that failed: what the person is told, and for a damaged store (`STORE_CORRUPT` at open)
 * an offer to salvage it.
 */
import { isAnamnesisError, recoverMemory } from '@anamnesis/client';

import { h } from './dom.ts';
import { messageOf, type Feedback } from './feedback.ts';
import { isLocked, PLAIN_STORE } from './lock.ts';
import { download } from './transfer-view.ts';

/** What recovery asks of the rest of the app: connect to the recovered store and start again. */
export interface RecoveryHooks {
  connect(): void;
  start(): Promise<void>;
}

/**
 * A damaged store: the damaged file is kept in OPFS, what could be read is downloaded as a copy
 * and becomes the new store, and the app starts.
 */
function offerRecovery(
  app: HTMLElement,
  feedback: Feedback,
  hooks: RecoveryHooks,
  e: unknown,
): void {
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
    feedback.act(async () => {
      button.disabled = true;
      status.textContent = ' recovering…';
      try {
        const result = await recoverMemory({ name: PLAIN_STORE, restore: true });
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
        hooks.connect();
        await hooks.start();
      } catch (err) {
        button.disabled = false;
        status.textContent = ` recovery failed: ${messageOf(err)}`;
      }
    }),
  );
  app.prepend(alert);
}

/** The start failed with `e`: says so (`data-ready="error"`), or offers recovery. */
export function startFailed(
  app: HTMLElement,
  feedback: Feedback,
  hooks: RecoveryHooks,
  e: unknown,
): void {
  app.setAttribute('aria-busy', 'false');
  document.body.dataset.ready = 'error';
  // An encrypted store cannot be salvaged without SQLite reading it with its key.
  if (isAnamnesisError(e, 'STORE_CORRUPT') && !isLocked(globalThis.localStorage)) {
    offerRecovery(app, feedback, hooks, e);
    return;
  }
  app.prepend(
    h('p', { class: 'fatal', role: 'alert' }, `anamnesis could not start: ${(e as Error).message}`),
  );
}
