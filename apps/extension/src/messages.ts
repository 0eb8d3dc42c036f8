/** Messages between the service worker and the offscreen document (chrome.runtime messaging). */

/** What the service worker extracts from a tab (`extractPage`, run by chrome.scripting). */
export interface PageCapture {
  /** `'page'`: the readable text of the page; `'selection'`: the selected text. */
  source: 'page' | 'selection';
  /** The document's address (`location.href`) when it was read. */
  url: string;
  /**
   * The address the document was loaded at (its navigation entry), which `pushState` and
   * `replaceState` do not change. Absent when unknown.
   */
  loadedUrl?: string;
  title: string;
  /** The visible text (or selection), at most `MAX_TEXT_CHARS` characters. */
  text: string;
  /** True when the page had more visible text than was read. */
  textCut?: boolean;
}

/** Service worker → offscreen document: store a capture. */
export interface RememberMessage {
  target: 'offscreen';
  type: 'remember';
  capture: PageCapture;
  /** When the capture was taken (ms since the epoch). */
  time: number;
}

/** Service worker → offscreen document: is your listener there yet? */
export interface PingMessage {
  target: 'offscreen';
  type: 'ping';
}

/** Extension page → service worker: make sure the offscreen document (the store's owner) runs. */
export interface EnsureOffscreenMessage {
  target: 'background';
  type: 'ensure-offscreen';
}

/** The offscreen document's answer. */
export type RememberReply =
  | {
      ok: true;
      ids: string[];
      /** One user-facing sentence per limit that cut the capture (`planCapture`). */
      cuts: string[];
    }
  | { ok: false; error: string };

/** The store every extension page opens (the extension origin's OPFS). */
export const STORE_NAME = 'pages';
