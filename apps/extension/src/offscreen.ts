/**
 * The offscreen document: hosts the engine (openMemory's dedicated worker, on the extension
 * origin's OPFS) for the service worker, which cannot. Stores what the service worker captured.
 * When a popup or the full page already owns the store, this document is a follower and forwards
 * to it (openMemory's multi-tab protocol), and the other way round.
 */
import { captureToMemories } from './chunk.ts';
import { openStore } from './memory.ts';
import type { RememberMessage, RememberReply } from './messages.ts';

chrome.runtime.onMessage.addListener((message: RememberMessage, _sender, sendResponse) => {
  if (message?.target !== 'offscreen' || message.type !== 'remember') return false;
  remember(message).then(sendResponse, (error: unknown) =>
    sendResponse({ ok: false, error: String(error) } satisfies RememberReply),
  );
  return true; // answers asynchronously
});

async function remember({ capture, time }: RememberMessage): Promise<RememberReply> {
  const memory = await openStore();
  // A page remembered again replaces its earlier text (selections of it stay).
  if (capture.source === 'page') {
    await memory.forget({ kind: 'page', session: capture.url, meta: { source: 'page' } });
  }
  const ids = await memory.rememberMany(captureToMemories(capture, time));
  return { ok: true, ids };
}
