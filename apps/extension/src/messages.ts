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

/** Where and with which code the extension syncs (the person's other devices use the same). */
export interface SyncSettings {
  /** The Yjs websocket server, `ws://` or `wss://`. */
  url: string;
  /** The sync code (the notes app's "New code", or `createSyncCode()`). */
  code: string;
}

/** Extension page → offscreen document: sync with these settings, or stop (`null`). */
export interface SyncSetMessage {
  target: 'offscreen';
  type: 'sync-set';
  settings: SyncSettings | null;
}

/** Extension page → offscreen document: how is the sync? */
export interface SyncGetMessage {
  target: 'offscreen';
  type: 'sync-get';
}

/** The offscreen document's answer to either: the sync's state now. */
export interface SyncReply {
  /** `off` (no settings), `starting`, `offline`, `connected`, `synced` or `error`. */
  state: 'off' | 'starting' | 'offline' | 'connected' | 'synced' | 'error';
  /** One line for a person. */
  line: string;
  /** The server synced with, when on. */
  url?: string;
}

/** Every message the offscreen document answers. */
export type OffscreenMessage = RememberMessage | PingMessage | SyncSetMessage | SyncGetMessage;
