/**
 * The offscreen document: the store's one long-lived owner. It opens the store at once (its
 * dedicated worker runs the engine on the extension origin's OPFS, which the service worker
 * cannot host), stores what the service worker captured, and serves the extension pages, which
 * forward their calls to it (`openPageStore`). Its message listener is registered before anything
 * else runs, and it answers the service worker's ping, so no message reaches it unheard.
 */
import { captureToMemories } from './chunk.ts';
import { openOwnerStore } from './memory.ts';
import type { PingMessage, RememberMessage, RememberReply } from './messages.ts';

const memory = openOwnerStore();

chrome.runtime.onMessage.addListener(
  (message: RememberMessage | PingMessage, _sender, sendResponse) => {
    if (message?.target !== 'offscreen') return false;
    if (message.type === 'ping') {
      sendResponse({ ok: true });
      return false;
    }
    if (message.type !== 'remember') return false;
    remember(message).then(sendResponse, (error: unknown) =>
      sendResponse({ ok: false, error: String(error) } satisfies RememberReply),
    );
    return true; // answers asynchronously
  },
);

async function remember({ capture, time }: RememberMessage): Promise<RememberReply> {
  // A page remembered again replaces its earlier text (selections of it stay).
  if (capture.source === 'page') {
    await memory.forget({ kind: 'page', session: capture.url, meta: { source: 'page' } });
  }
  const ids = await memory.rememberMany(captureToMemories(capture, time));
  return { ok: true, ids };
}
