/**
 * The full page's Sync section: pairs the extension with the person's other devices (the notes
 * app, the MCP server, the CLI) by a sync server and the code one of them made. What it sets is
 * run by the offscreen document (`sync.ts`); the section shows its state (`data-sync` on the
 * section: `off`, `starting`, `offline`, `connected`, `synced`, `error`), read every second.
 */
import { h } from '../../notes/src/dom.ts';
import type {
  EnsureOffscreenMessage,
  SyncGetMessage,
  SyncReply,
  SyncSetMessage,
  SyncSettings,
} from './messages.ts';
import { sendToOffscreen } from './send.ts';

/** Asks the offscreen document (started first, as the store's pages do). */
async function ask(message: SyncGetMessage | SyncSetMessage): Promise<SyncReply> {
  const ensure: EnsureOffscreenMessage = { target: 'background', type: 'ensure-offscreen' };
  await chrome.runtime.sendMessage(ensure).catch(() => undefined);
  return sendToOffscreen<SyncReply>(message);
}

/** The section, filled and kept up to date; appended by the caller. */
export function syncPanel(): HTMLElement {
  const status = h('p', { class: 'sync-status', role: 'status', 'aria-live': 'polite' }, '…');
  const url = h('input', {
    type: 'url',
    'aria-label': 'Sync server',
    placeholder: 'wss://sync.example.org',
  });
  const code = h('input', {
    type: 'text',
    'aria-label': 'Sync code',
    autocomplete: 'off',
    spellcheck: false,
    placeholder: 'the code from your other device',
  });
  const start = h('button', { type: 'submit' }, 'Start sync');
  const stop = h('button', { type: 'button' }, 'Stop sync');
  const form = h('form', { class: 'sync-form' }, url, code, start);
  const section = h(
    'section',
    { class: 'sync', 'aria-label': 'Sync', 'data-sync': 'off' },
    h('h2', {}, 'Sync with your other devices'),
    h(
      'p',
      {},
      'Find these pages in the notes app and your assistant on your other devices: type the server and the code one of them shows. End-to-end encrypted; the server sees none of it.',
    ),
    form,
    stop,
    status,
  );
  const show = (reply: SyncReply) => {
    section.dataset.sync = reply.state;
    status.textContent = reply.line;
    const on = reply.state !== 'off';
    form.hidden = on && reply.state !== 'error';
    stop.hidden = !on;
    if (reply.url && !url.value) url.value = reply.url;
  };
  const change = (settings: SyncSettings | null) => {
    start.disabled = true;
    status.textContent = settings ? 'starting…' : 'stopping…';
    ask({ target: 'offscreen', type: 'sync-set', settings })
      .then(show, (e: unknown) => (status.textContent = String(e)))
      .finally(() => (start.disabled = false));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    change({ url: url.value.trim(), code: code.value });
  });
  stop.addEventListener('click', () => change(null));
  const poll = () => ask({ target: 'offscreen', type: 'sync-get' }).then(show, () => undefined);
  void poll();
  setInterval(() => void poll(), 1000);
  return section;
}
