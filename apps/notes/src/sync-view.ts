/**
 * The Sync panel: pairs this browser with the person's other devices through a sync server
 * (`@anamnesis/sync`, loaded only when sync is used). The first device makes a sync code; each
 * other device types the same server and code. While it runs, the panel shows the status
 * (`data-sync` on the body: `waiting`, `offline`, `connected`, `synced`, `error`) and the code, to
 * pair one more device.
 *
 * The server and code are kept in this browser's storage so that sync starts again at the next
 * visit, but not the code while the notes are locked: it would let whoever reads the profile
 * fetch the notes from the server. Then the code is typed again after unlocking.
 */
import type { Sync, SyncStatus } from '@anamnesis/sync';

import type { AppState } from './app-state.ts';
import { h } from './dom.ts';
import { messageOf } from './feedback.ts';
import type { Ui } from './layout.ts';
import { isLocked } from './lock.ts';

const SETTINGS_KEY = 'anamnesis-notes:sync';

interface SyncSettings {
  url: string;
  code?: string;
}

function loadSyncSettings(): SyncSettings | undefined {
  try {
    const raw = globalThis.localStorage.getItem(SETTINGS_KEY);
    return raw ? (JSON.parse(raw) as SyncSettings) : undefined;
  } catch {
    return undefined;
  }
}

function saveSyncSettings(settings: SyncSettings | undefined): void {
  if (!settings) globalThis.localStorage.removeItem(SETTINGS_KEY);
  else
    globalThis.localStorage.setItem(
      SETTINGS_KEY,
      JSON.stringify(isLocked(globalThis.localStorage) ? { url: settings.url } : settings),
    );
}

/** One line for a status. */
function describe(s: SyncStatus): string {
  if (s.error) return `error: ${s.error.message}`;
  const last = s.lastSyncedAt
    ? `, last synced ${new Date(s.lastSyncedAt).toLocaleTimeString()}`
    : '';
  const pending = s.pending > 0 ? `, ${s.pending} change(s) waiting` : '';
  const repaired = s.repaired.replayed + s.repaired.deleted + s.repaired.tampered;
  // what the room needed: entries put back after another member replayed, deleted or altered them
  const repairs =
    repaired > 0 ? `; ${repaired} room entr${repaired === 1 ? 'y' : 'ies'} repaired` : '';
  // the room was empty: a mistyped code, or the first device (the sync's own words)
  const explain = s.explain ? `. ${s.explain}` : '';
  return `${s.synced ? 'synced' : s.connected ? 'connected' : 'offline'}${pending}${last}${repairs}${explain}`;
}

export class SyncView {
  readonly #state: AppState;
  readonly #ui: Ui;
  /** The store's name: the sync's lock and state are per store. */
  readonly #storeName: () => string;
  readonly #status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  /** Notes edited on two devices at once, each with a button per version. */
  readonly #conflicts = h('section', {
    class: 'sync-conflicts',
    'aria-label': 'Edited on two devices',
  });
  /** The conflicts shown (their texts), so that a status that changes nothing keeps the list. */
  #shownConflicts = '';
  /** The room's devices, each other one with "Remove". */
  readonly #devices = h('section', { class: 'sync-devices', 'aria-label': 'Devices' });
  #shownDevices = '';
  /** Notes deleted on any device in the last 30 days, each with Restore, and "Empty trash". */
  readonly #trash = h('section', { class: 'sync-trash', 'aria-label': 'Trash' });
  #shownTrash = '';
  #sync: Sync | undefined;
  #settings: SyncSettings | undefined = loadSyncSettings();
  /** Bumped by every start and stop: a start that finishes after a later one is dropped. */
  #generation = 0;
  /** What the panel shows: the pairing form, or the running sync. */
  #shown: 'form' | 'sync' | undefined;

  readonly #onApplied: () => void;

  /** `onApplied`: notes came from another device (reload the list). */
  constructor(state: AppState, ui: Ui, storeName: () => string, onApplied: () => void) {
    this.#state = state;
    this.#ui = ui;
    this.#storeName = storeName;
    this.#onApplied = onApplied;
  }

  /** Starts the sync saved by an earlier visit, if any (with its code). */
  resume(): void {
    if (this.#settings?.code) void this.#start(this.#settings.url, this.#settings.code);
    else this.render();
  }

  /** Starts again on the store's new client (after a lock, unlock or runtime change). */
  async restart(): Promise<void> {
    const settings = this.#settings;
    await this.#stop();
    if (settings?.code) await this.#start(settings.url, settings.code);
  }

  /**
   * Fills the panel for the current state. A pairing form already shown is kept as it is: what a
   * person typed into it while the app was starting stays.
   */
  render(): void {
    const shown = this.#sync ? 'sync' : 'form';
    if (shown === 'form' && this.#shown === 'form') return;
    this.#shown = shown;
    if (this.#sync) {
      const stop = h('button', { type: 'button' }, 'Stop sync');
      stop.addEventListener('click', () => {
        saveSyncSettings(undefined);
        this.#settings = undefined;
        void this.#stop();
      });
      const code = h('code', { class: 'sync-code', hidden: true }, this.#settings?.code ?? '');
      const show = h('button', { type: 'button' }, 'Show the code to pair another device');
      show.addEventListener('click', () => {
        code.hidden = !code.hidden;
      });
      this.#ui.syncPanel.replaceChildren(
        this.#status,
        h('div', { class: 'row' }, show, stop),
        code,
        this.#devices,
        this.#conflicts,
        this.#trash,
      );
      return;
    }
    const url = h('input', {
      type: 'url',
      'aria-label': 'Sync server',
      placeholder: 'wss://sync.example.org',
      value: this.#settings?.url ?? '',
    });
    const code = h('input', {
      type: 'text',
      'aria-label': 'Sync code',
      autocomplete: 'off',
      spellcheck: false,
      placeholder: 'the code from your other device',
    });
    const fresh = h('button', { type: 'button' }, 'New code');
    fresh.addEventListener('click', () => {
      void import('@anamnesis/sync').then(({ createSyncCode }) => {
        code.value = createSyncCode();
      });
    });
    const submit = h('button', { type: 'submit' }, 'Start sync');
    const form = h(
      'form',
      { class: 'sync-form' },
      url,
      code,
      h('div', { class: 'row' }, fresh, submit),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.#start(url.value.trim(), code.value);
    });
    this.#ui.syncPanel.replaceChildren(
      h(
        'p',
        {},
        'Keep these notes on your other devices: end-to-end encrypted, the server sees none of them.',
      ),
      form,
      this.#status,
    );
  }

  async #start(url: string, code: string): Promise<void> {
    const generation = ++this.#generation;
    document.body.dataset.sync = 'waiting';
    this.#status.textContent = 'starting…';
    try {
      const [{ parseSyncCode }, { startBrowserSync }] = await Promise.all([
        import('@anamnesis/sync'),
        import('@anamnesis/sync/browser'),
      ]);
      const room = parseSyncCode(code);
      if (!/^wss?:\/\//.test(url)) throw new Error('the sync server is a ws:// or wss:// address');
      // kept at once: a reload right after Start sync starts it again (the key takes a second)
      this.#settings = { url, code };
      saveSyncSettings(this.#settings);
      await this.#state.memory.ready;
      this.#status.textContent = 'waiting for the tab that syncs these notes to close…';
      const sync = await startBrowserSync(this.#state.memory, this.#storeName(), { url, ...room });
      if (generation !== this.#generation) {
        await sync.close();
        return;
      }
      this.#sync = sync;
      this.render();
      const show = (s: SyncStatus) => {
        this.#status.textContent = describe(s);
        this.#renderDevices(sync);
        this.#renderConflicts(sync);
        this.#renderTrash(sync);
        document.body.dataset.sync = s.error
          ? 'error'
          : s.synced
            ? 'synced'
            : s.connected
              ? 'connected'
              : 'offline';
      };
      sync.onStatus(show);
      // a device was removed (here or on another device): the code changed; keep the new one
      sync.onCodeChange((newCode) => {
        this.#settings = { url, code: newCode };
        saveSyncSettings(this.#settings);
        this.#shown = undefined;
        this.render();
        show(sync.status());
      });
      // a first sync applies in batches: the list is read again once they pause
      let timer: ReturnType<typeof setTimeout> | undefined;
      sync.onApplied(() => {
        clearTimeout(timer);
        timer = setTimeout(() => this.#onApplied(), 200);
      });
      show(sync.status());
    } catch (e) {
      if (generation !== this.#generation) return;
      document.body.dataset.sync = 'error';
      this.render();
      this.#status.textContent = `sync did not start: ${messageOf(e)}`;
    }
  }

  /**
   * The notes whose text was edited on two devices at once: both versions, and a button to keep
   * each (the choice reaches every device; the other parts of the note were merged already).
   */
  #renderConflicts(sync: Sync): void {
    const conflicts = sync.conflicts();
    const key = JSON.stringify(conflicts);
    if (key === this.#shownConflicts) return;
    this.#shownConflicts = key;
    this.#conflicts.replaceChildren(
      ...(conflicts.length === 0
        ? []
        : [h('h3', {}, 'Edited on two devices: keep which version?')]),
      ...conflicts.map((c) => {
        const versions = [
          { text: c.text, label: 'now' },
          ...c.others.map((o) => ({
            text: o.text,
            label: `edited ${new Date(o.at).toLocaleString()}`,
          })),
        ];
        return h(
          'ul',
          { class: 'conflict', 'aria-label': `Versions of ${c.text.split('\n')[0]!.slice(0, 60)}` },
          ...versions.map((v) => {
            const keep = h('button', { type: 'button' }, 'Keep this version');
            keep.addEventListener('click', () => {
              keep.disabled = true;
              sync.resolveConflict(c.id, v.text).then(
                () => this.#onApplied(),
                (e: unknown) => {
                  keep.disabled = false;
                  this.#status.textContent = `could not keep it: ${messageOf(e)}`;
                },
              );
            });
            return h('li', {}, h('p', {}, v.text), h('small', {}, v.label), keep);
          }),
        );
      }),
    );
  }

  /**
   * The devices that use this code: names, when each was last online, and "Remove" for the others
   * (a lost phone): the code changes, the other devices move to the new one by themselves.
   */
  #renderDevices(sync: Sync): void {
    const devices = sync.devices();
    const key = JSON.stringify(devices.map(({ id, name, self }) => [id, name, self]));
    if (key === this.#shownDevices) return;
    this.#shownDevices = key;
    this.#devices.replaceChildren(
      h('h3', {}, 'Devices'),
      h(
        'ul',
        { class: 'devices', 'aria-label': 'Devices using this code' },
        ...devices.map((d) => {
          const seen = d.self
            ? ' (this device)'
            : ` · last online ${new Date(d.lastSeen).toLocaleString()}`;
          const item = h('li', {}, h('span', {}, d.name), h('small', {}, seen));
          if (d.self) return item;
          // two clicks: "Remove", then "Remove <name> now"
          const remove = h('button', { type: 'button' }, 'Remove');
          remove.addEventListener('click', () => {
            if (remove.dataset.armed !== 'true') {
              remove.dataset.armed = 'true';
              remove.textContent = `Remove ${d.name} now (the code changes)`;
              return;
            }
            remove.disabled = true;
            this.#status.textContent = `removing ${d.name}…`;
            sync.removeDevice(d.id).catch((e: unknown) => {
              remove.disabled = false;
              this.#status.textContent = `could not remove it: ${messageOf(e)}`;
            });
          });
          item.append(remove);
          return item;
        }),
      ),
    );
  }

  /** The trash: deleted notes any device can restore for 30 days, then purged everywhere. */
  #renderTrash(sync: Sync): void {
    const trash = sync.trash();
    const key = JSON.stringify(trash);
    if (key === this.#shownTrash) return;
    this.#shownTrash = key;
    if (trash.length === 0) {
      this.#trash.replaceChildren();
      return;
    }
    const act = (button: HTMLButtonElement, work: () => Promise<unknown>) => {
      button.addEventListener('click', () => {
        button.disabled = true;
        work().then(
          () => {
            this.#renderTrash(sync);
            this.#onApplied();
          },
          (e: unknown) => {
            button.disabled = false;
            this.#status.textContent = messageOf(e);
          },
        );
      });
      return button;
    };
    const empty = act(h('button', { type: 'button' }, 'Empty trash'), () => sync.emptyTrash());
    this.#trash.replaceChildren(
      h('h3', {}, `Trash (${trash.length})`),
      h('p', {}, 'Deleted on any device; restorable for 30 days, then gone everywhere.'),
      h(
        'ul',
        { class: 'trash', 'aria-label': 'Deleted notes' },
        ...trash.map((t) =>
          h(
            'li',
            {},
            h('span', {}, t.text.split('\n')[0]!.slice(0, 80)),
            h('small', {}, ` deleted ${new Date(t.forgottenAt).toLocaleString()} `),
            act(h('button', { type: 'button' }, 'Restore'), () => sync.restore(t.id)),
          ),
        ),
      ),
      empty,
    );
  }

  async #stop(): Promise<void> {
    this.#generation++;
    const sync = this.#sync;
    this.#sync = undefined;
    this.#shownConflicts = '';
    this.#conflicts.replaceChildren();
    this.#shownTrash = '';
    this.#trash.replaceChildren();
    this.#shownDevices = '';
    this.#devices.replaceChildren();
    delete document.body.dataset.sync;
    await sync?.close();
    this.#status.textContent = '';
    this.render();
  }
}
