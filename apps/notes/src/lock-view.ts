/**
 * The Lock panel and the unlock screen. Unlocked, the panel offers to lock the notes with a
 * passphrase typed twice; locked, to change the passphrase or remove the lock. A locked app asks
 * for the passphrase before it opens the store (`askPassphrase`), again after a wrong one.
 */
import { deleteMemory, isAnamnesisError, type MemoryClient } from '@anamnesis/client';

import type { AppState } from './app-state.ts';
import { h } from './dom.ts';
import { messageOf } from './feedback.ts';
import type { Ui } from './layout.ts';
import {
  isLocked,
  LOCKED_STORE,
  LockProblem,
  moveNotes,
  otherTabsOpen,
  passphraseProblem,
  PLAIN_STORE,
  setLocked,
} from './lock.ts';
import { loadRuntimeChoice, runtimeOptions } from './runtime-choice.ts';
import { keepCipherForOffline } from './service-worker.ts';

/** What locking asks of the rest of the app. */
export interface LockViewHooks {
  /** Connects to the notes' store (the one `isLocked` names) with `passphrase` when locked. */
  reconnect(passphrase: string | undefined): Promise<void>;
  refreshStats(): Promise<void>;
}

/** A password field (never autofilled as a site login: it unlocks this device's notes). */
function passwordInput(label: string): HTMLInputElement {
  return h('input', { type: 'password', autocomplete: 'new-password', 'aria-label': label });
}

export class LockView {
  readonly #state: AppState;
  readonly #ui: Ui;
  readonly #hooks: LockViewHooks;
  /** The unlock screen while it is shown (the rest of the app inert behind it). */
  #unlockScreen: { close(): void } | undefined;
  readonly #status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });

  constructor(state: AppState, ui: Ui, hooks: LockViewHooks) {
    this.#state = state;
    this.#ui = ui;
    this.#hooks = hooks;
  }

  /** Fills the Lock panel for the current state. */
  render(): void {
    const locked = isLocked(globalThis.localStorage);
    const first = passwordInput('New passphrase');
    const second = passwordInput('Repeat the new passphrase');
    const submit = h('button', { type: 'submit' }, locked ? 'Change passphrase' : 'Lock notes');
    const form = h('form', { class: 'lock-form' }, first, second, submit);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const problem = passphraseProblem(first.value, second.value);
      if (problem) {
        this.#status.textContent = problem;
        return;
      }
      const passphrase = first.value;
      first.value = second.value = '';
      void this.#busy(form, () => (locked ? this.#change(passphrase) : this.#lock(passphrase)));
    });
    const children: Node[] = [
      h(
        'p',
        {},
        locked
          ? 'Locked: the notes are encrypted on this device, and the app asks for the passphrase ' +
              'each time it starts. Without it they cannot be read, by anyone: keep it safe.'
          : 'The notes are kept as typed in this browser’s storage. Lock them to encrypt them ' +
              'with a passphrase.',
      ),
      form,
    ];
    if (locked) {
      const remove = h('button', { type: 'button', class: 'danger' }, 'Remove the lock');
      remove.addEventListener('click', () => void this.#busy(form, () => this.#unlock()));
      children.push(remove);
    }
    this.#ui.lockPanel.replaceChildren(...children, this.#status);
  }

  /** Runs a lock action with the panel disabled, and says how it ended. */
  async #busy(form: HTMLFormElement, task: () => Promise<string>): Promise<void> {
    const controls = [...this.#ui.lockPanel.querySelectorAll('button, input')] as (
      HTMLButtonElement | HTMLInputElement
    )[];
    for (const c of controls) c.disabled = true;
    this.#status.textContent = 'working…';
    document.body.dataset.lock = 'busy';
    try {
      const done = await task();
      this.render();
      this.#status.textContent = done;
    } catch (e) {
      this.render();
      this.#status.textContent = e instanceof LockProblem ? e.message : messageOf(e);
    } finally {
      document.body.dataset.lock = isLocked(globalThis.localStorage) ? 'locked' : 'unlocked';
      form.reset();
      void this.#hooks.refreshStats();
    }
  }

  /**
   * Moves the notes into a new encrypted store, switches to it, and deletes the plain one. Saves
   * still waiting are written first. A failure before the switch reopens the plain store as it
   * was.
   */
  async #lock(passphrase: string): Promise<string> {
    return this.#move(
      { name: LOCKED_STORE, encryption: { passphrase } },
      true,
      PLAIN_STORE,
      passphrase,
    );
  }

  /** Moves the notes back into a plain store, switches to it, and deletes the encrypted one. */
  async #unlock(): Promise<string> {
    return this.#move({ name: PLAIN_STORE }, false, LOCKED_STORE, undefined);
  }

  async #move(
    to: { name: string; encryption?: { passphrase: string } },
    locked: boolean,
    from: string,
    passphrase: string | undefined,
  ): Promise<string> {
    const state = this.#state;
    if (await otherTabsOpen())
      throw new LockProblem(
        'close the app’s other tabs first: they would keep writing to the old store',
      );
    await state.writes.idle();
    state.liveSearch?.close();
    let moved: number;
    try {
      moved = await moveNotes(state.memory, {
        ...to,
        ...runtimeOptions(loadRuntimeChoice(globalThis.localStorage)),
      });
    } catch (e) {
      // the old store is still the notes' store: open it again
      await this.#hooks.reconnect(state.passphrase);
      throw e;
    }
    setLocked(globalThis.localStorage, locked);
    await this.#hooks.reconnect(passphrase);
    if (locked) this.keepForOffline();
    // Where another tab still has it open, it is deleted at a later start.
    await deleteMemory({ name: from }).catch((e: unknown) =>
      console.warn(`the old store ${from} is deleted at a later start`, e),
    );
    return locked ? `${moved} notes locked` : `lock removed from ${moved} notes`;
  }

  /** Re-keys the encrypted store in place (every page, one transaction). */
  async #change(passphrase: string): Promise<string> {
    await this.#state.memory.changePassphrase(passphrase);
    this.#state.passphrase = passphrase;
    return 'passphrase changed';
  }

  /**
   * The unlock screen: resolves with the passphrase the person typed. `error` says why it is
   * asked again.
   */
  askPassphrase(error?: string): Promise<string> {
    const input = h('input', {
      type: 'password',
      id: 'unlock-passphrase',
      autocomplete: 'current-password',
      'aria-label': 'Passphrase',
    });
    const form = h(
      'form',
      { class: 'unlock', role: 'dialog', 'aria-label': 'Unlock notes' },
      h('h2', {}, 'These notes are locked'),
      h('label', { for: 'unlock-passphrase' }, 'Passphrase'),
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Unlock'),
      h('p', { class: 'status', role: 'alert' }, error ?? ''),
    );
    // Nothing else of the app can be used until the notes are open and a save made in them can
    // be journaled sealed (`unlockAtStart` closes this screen then).
    this.#unlockScreen?.close();
    const rest = [...this.#ui.app.children] as HTMLElement[];
    for (const el of rest) el.inert = true;
    this.#ui.app.prepend(form);
    this.#unlockScreen = {
      close: () => {
        form.remove();
        for (const el of rest) el.inert = false;
        this.#unlockScreen = undefined;
      },
    };
    document.body.dataset.lock = 'ask';
    input.focus();
    return new Promise((resolve) => {
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        if (input.value === '' || document.body.dataset.lock === 'opening') return;
        document.body.dataset.lock = 'opening';
        form.querySelector('.status')!.textContent = 'Unlocking…';
        resolve(input.value);
      });
    });
  }

  /**
   * Opens the locked notes: asks for the passphrase until one opens the store. Resolves once the
   * store is open (or failed for another reason, which the start reports).
   */
  async unlockAtStart(): Promise<void> {
    for (let error: string | undefined; ;) {
      const passphrase = await this.askPassphrase(error);
      await this.#hooks.reconnect(passphrase);
      try {
        await this.#state.memory.ready;
        // A save is journaled sealed only once the seal's key is derived (`pending-writes.ts`):
        // until then a reload right after a Save would lose it, so the screen stays till then.
        await this.#state.writes.ready();
        this.#unlockScreen?.close();
        return;
      } catch (e) {
        if (!isAnamnesisError(e, 'WRONG_PASSPHRASE')) {
          this.#unlockScreen?.close(); // the start reports it
          return;
        }
        error = 'That passphrase does not open these notes.';
        await this.#state.memory.close();
      }
    }
  }

  /**
   * Has the service worker keep the cipher build for offline starts (`data-cipher-kept` says
   * when it did).
   */
  keepForOffline(): void {
    void keepCipherForOffline().then((kept) => {
      document.body.dataset.cipherKept = String(kept);
    });
  }

  /**
   * Deletes what an interrupted lock or unlock left: the store the notes are not in (after the
   * switch, the old one; before it, the new one, whose notes are all in the old one too).
   */
  async removeLeftovers(memory: MemoryClient): Promise<void> {
    await memory.ready;
    const other = isLocked(globalThis.localStorage) ? PLAIN_STORE : LOCKED_STORE;
    await deleteMemory({ name: other }).catch(() => undefined);
  }
}
