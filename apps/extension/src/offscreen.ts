/**
 * The offscreen document: the store's one long-lived owner. It opens the store at once (its
 * dedicated worker runs the engine on the extension origin's OPFS, which the service worker
 * cannot host), stores what the service worker captured, and serves the extension pages, which
 * forward their calls to it (`openPageStore`). Its message listener is registered before anything
 * else runs, and it answers the service worker's ping, so no message reaches it unheard.
 */
import { planCapture } from './chunk.ts';
import { openOwnerStore } from './memory.ts';
import type { OffscreenMessage, RememberMessage, RememberReply } from './messages.ts';
import { saveCapture } from './save.ts';
import { ExtensionSync } from './sync.ts';

const memory = openOwnerStore();
const sync = new ExtensionSync(memory);

chrome.runtime.onMessage.addListener((message: OffscreenMessage, _sender, sendResponse) => {
  if (message?.target !== 'offscreen') return false;
  if (message.type === 'ping') {
    sendResponse({ ok: true });
    return false;
  }
  if (message.type === 'sync-get') {
    sendResponse(sync.state());
    return false;
  }
  if (message.type === 'sync-set') {
    void sync.set(message.settings).then(sendResponse);
    return true;
  }
  if (message.type !== 'remember') return false;
  remember(message).then(sendResponse, (error: unknown) =>
    sendResponse({ ok: false, error: String(error) } satisfies RememberReply),
  );
  return true; // answers asynchronously
});

// the sync kept from an earlier run starts with the document
void sync.resume();

async function remember({ capture, time }: RememberMessage): Promise<RememberReply> {
  // Cut to the limits of one click; a page remembered again replaces its earlier text (selections
  // of it stay).
  const plan = planCapture(capture, time);
  if (plan.memories.length === 0) return { ok: false, error: 'nothing to remember' };
  const ids = await saveCapture(memory, plan);
  return { ok: true, ids, cuts: plan.cuts };
}
