/** Messages to the offscreen document (the store's owner), from the service worker or a page. */
import type { OffscreenMessage } from './messages.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a message to the offscreen document. "Receiving end does not exist" means it never
 * arrived (the document is still loading its script): sent again, for up to ten seconds. Any
 * other failure, or an answer, is final.
 */
export async function sendToOffscreen<T>(message: OffscreenMessage): Promise<T> {
  for (let delay = 20, waited = 0; ; waited += delay, delay = Math.min(delay * 2, 500)) {
    try {
      return await chrome.runtime.sendMessage<OffscreenMessage, T>(message);
    } catch (e) {
      if (!/Receiving end does not exist/i.test(String(e)) || waited > 10_000) throw e;
      await sleep(delay);
    }
  }
}
