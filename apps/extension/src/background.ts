/**
 * The service worker: context-menu entries and keyboard commands. It never runs the engine (an
 * MV3 service worker cannot host OPFS sync handles, and it is stopped when idle): it extracts the
 * page's text with chrome.scripting and forwards it to the offscreen document, whose dedicated
 * worker stores it (`offscreen.ts`).
 */
import type {
  EnsureOffscreenMessage,
  PageCapture,
  PingMessage,
  RememberMessage,
  RememberReply,
} from './messages.ts';
import { checkSameMoment, MAX_TEXT_CHARS, MAX_TITLE_CHARS, type ClickSnapshot } from './chunk.ts';
import { sendToOffscreen } from './send.ts';

const MENU_PAGE = 'remember-page';
const MENU_SELECTION = 'remember-selection';
const OFFSCREEN_URL = 'offscreen.html';

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: MENU_PAGE, title: 'Remember this page', contexts: ['page'] });
    chrome.contextMenus.create({
      id: MENU_SELECTION,
      title: 'Remember selection',
      contexts: ['selection'],
    });
  });
});

// The tab object of the event is the browser's view of the page when the user clicked: its title
// and address are the ones stored, and the page's own text must still match them when it is read.
chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (tab?.id === undefined) return;
  const source = info.menuItemId === MENU_SELECTION ? 'selection' : 'page';
  const click: ClickSnapshot = { url: tab.url, title: tab.title };
  void report(tab.id, rememberTab(tab.id, source, click, info.selectionText));
});

chrome.commands.onCommand.addListener((command, tab) => {
  const source = command === MENU_SELECTION ? 'selection' : command === MENU_PAGE ? 'page' : null;
  if (!source) return;
  void (async () => {
    const clicked = tab ?? (await chrome.tabs.query({ active: true, currentWindow: true }))[0];
    if (clicked?.id === undefined) return;
    const click: ClickSnapshot = { url: clicked.url, title: clicked.title };
    await report(clicked.id, rememberTab(clicked.id, source, click));
  })();
});

/**
 * Runs in the page, in the extension's isolated world (chrome.scripting serialises it:
 * self-contained), in one synchronous pass, so title, address and text are of one moment. The
 * text is what is visible: the selection, or the first of `article`, `main`, `[role=main]` holding
 * a fair share of the text, else the body. Left out: `display: none`, `visibility: hidden`,
 * `opacity: 0`, `aria-hidden="true"`, text clipped to nothing (the visually-hidden pattern) or
 * lying outside the page's scrollable area, scripts, styles and templates. At most `maxText`
 * characters of text and `maxTitle` of the title are read (`textCut` says when there was more
 * text). `loadedUrl` is the document's navigation entry, which the history API does not change
 * and page scripts cannot reach.
 */
function extractPage(source: 'page' | 'selection', maxText: number, maxTitle: number): PageCapture {
  const title = document.title.slice(0, maxTitle);
  const url = location.href;
  const entry = performance.getEntriesByType('navigation')[0];
  const loadedUrl = entry?.name || undefined;
  const doc = document.documentElement;
  const pageWidth = Math.max(doc.scrollWidth, innerWidth);
  const pageHeight = Math.max(doc.scrollHeight, innerHeight);
  const skipTags = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'IFRAME', 'OBJECT']);
  const hiddenTree = new Map<Element, boolean>();
  /** The element and everything in it are hidden. */
  const treeHidden = (el: Element): boolean => {
    let hidden = hiddenTree.get(el);
    if (hidden === undefined) {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const clips =
        style.overflow !== 'visible' ||
        style.getPropertyValue('clip') !== 'auto' ||
        style.clipPath !== 'none';
      hidden =
        skipTags.has(el.tagName) ||
        el.getAttribute('aria-hidden') === 'true' ||
        (style.display !== 'contents' && !el.checkVisibility()) ||
        (clips && box.width <= 1 && box.height <= 1) ||
        (style.clipPath !== 'none' && /inset\(\s*(50|100)%/.test(style.clipPath));
      hiddenTree.set(el, hidden);
    }
    return hidden;
  };
  const shown = new Map<Element, boolean>();
  /** Text directly in `el` is painted (opacity and visibility, of it and its ancestors). */
  const painted = (el: Element): boolean => {
    let ok = shown.get(el);
    if (ok === undefined) {
      // an element without a box of its own (display: contents) is judged by its parent's box
      let boxed: Element | null = el;
      while (boxed && getComputedStyle(boxed).display === 'contents') boxed = boxed.parentElement;
      ok = boxed?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) ?? false;
      shown.set(el, ok);
    }
    return ok;
  };
  const range = document.createRange();
  /** Some of the text node's boxes lie inside the page's scrollable area. */
  const onPage = (node: Text): boolean => {
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const left = r.left + scrollX;
      const top = r.top + scrollY;
      if (r.width > 0 && r.height > 0 && left + r.width > 0 && top + r.height > 0) {
        if (left < pageWidth && top < pageHeight) return true;
      }
    }
    return false;
  };
  const blockOf = new Map<Element, Element>();
  const block = (el: Element): Element => {
    let found = blockOf.get(el);
    if (!found) {
      const display = getComputedStyle(el).display;
      found =
        display.startsWith('inline') || display === 'contents' || !el.parentElement
          ? el.parentElement
            ? block(el.parentElement)
            : el
          : el;
      blockOf.set(el, found);
    }
    return found;
  };
  /** The visible text under `root` (within `within` when given), up to `maxText` characters. */
  const visibleText = (root: Node, within?: Range): { text: string; cut: boolean } => {
    const parts: string[] = [];
    let length = 0;
    let lastBlock: Element | null = null;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node instanceof Element && treeHidden(node)
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_ACCEPT,
    });
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (within && !within.intersectsNode(node)) continue;
      if (node instanceof Element) {
        if (node.tagName === 'BR') parts.push('\n');
        continue;
      }
      const parent = node.parentElement;
      if (!parent || !(node instanceof Text) || !painted(parent) || !onPage(node)) continue;
      let data = node.data;
      if (within && node === within.endContainer) data = data.slice(0, within.endOffset);
      if (within && node === within.startContainer) data = data.slice(within.startOffset);
      if (!/^pre/.test(getComputedStyle(parent).whiteSpace)) data = data.replace(/\s+/g, ' ');
      if (!data.trim()) continue;
      const b = block(parent);
      if (b !== lastBlock) parts.push('\n');
      lastBlock = b;
      parts.push(data);
      length += data.length + 1;
      if (length > maxText) return { text: parts.join('').slice(0, maxText), cut: true };
    }
    return { text: parts.join(''), cut: false };
  };

  if (source === 'selection') {
    const selection = getSelection();
    const texts: string[] = [];
    let cut = false;
    for (let i = 0; selection && i < selection.rangeCount; i++) {
      const r = selection.getRangeAt(i);
      const rootNode = r.commonAncestorContainer;
      const part = visibleText(rootNode instanceof Text ? rootNode.parentNode! : rootNode, r);
      texts.push(part.text);
      cut ||= part.cut;
    }
    return { source, url, loadedUrl, title, text: texts.join('\n').trim(), textCut: cut };
  }
  const body = document.body ? visibleText(document.body) : { text: '', cut: false };
  let chosen = body;
  for (const selector of ['article', 'main', '[role=main]']) {
    const el = document.querySelector<HTMLElement>(selector);
    if (!el || treeHidden(el)) continue;
    const inner = visibleText(el);
    if (inner.text.trim().length >= Math.min(500, body.text.trim().length * 0.3)) {
      chosen = inner;
      break;
    }
  }
  return { source, url, loadedUrl, title, text: chosen.text.trim(), textCut: chosen.cut };
}

/**
 * Makes sure the offscreen document (the store's owner) runs and listens. Every caller awaits the
 * same attempt: a second call never returns while the first one's document is still loading.
 */
function ensureOffscreen(): Promise<void> {
  starting ??= (async () => {
    const url = chrome.runtime.getURL(OFFSCREEN_URL);
    const contexts = await chrome.runtime.getContexts({
      contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT],
      documentUrls: [url],
    });
    if (contexts.length === 0) {
      await chrome.offscreen.createDocument({
        url: OFFSCREEN_URL,
        reasons: [chrome.offscreen.Reason.WORKERS],
        justification: 'Runs the anamnesis memory engine (SQLite on OPFS) in a dedicated worker.',
      });
    }
    const ping: PingMessage = { target: 'offscreen', type: 'ping' };
    await sendToOffscreen(ping);
  })().finally(() => {
    starting = undefined;
  });
  return starting;
}
let starting: Promise<void> | undefined;

chrome.runtime.onMessage.addListener((message: EnsureOffscreenMessage, _sender, sendResponse) => {
  if (message?.target !== 'background' || message.type !== 'ensure-offscreen') return false;
  ensureOffscreen().then(
    () => sendResponse({ ok: true }),
    (error: unknown) => sendResponse({ ok: false, error: String(error) }),
  );
  return true;
});

/** The outcome of one save: the new memories, and what the limits of one click cut. */
export interface RememberOutcome {
  ids: string[];
  /** One user-facing sentence per limit that cut the page (empty when nothing was cut). */
  cuts: string[];
  /** What the toolbar button's tooltip says about it. */
  message: string;
}

/**
 * Remembers the page (or selection) of tab `tabId`: reads its visible text, title and address in
 * one pass, checks them against `click` (the tab as the browser reported it at the click; read
 * now when not given), then has the offscreen document store it. Also callable from tests
 * (`globalThis.anamnesisRemember`).
 */
export async function rememberTab(
  tabId: number,
  source: 'page' | 'selection',
  click?: ClickSnapshot,
  selectionText?: string,
): Promise<RememberOutcome> {
  let snapshot = click;
  if (!snapshot) {
    const tab = await chrome.tabs.get(tabId);
    snapshot = { url: tab.url, title: tab.title };
  }
  const [injection] = await chrome.scripting.executeScript({
    target: { tabId },
    func: extractPage,
    // the title is cut to MAX_TITLE_CHARS when stored; a longer prefix is read so that the cut is
    // made (and reported) on the whitespace-collapsed title
    args: [source, MAX_TEXT_CHARS, 4 * MAX_TITLE_CHARS],
  });
  const capture = injection?.result;
  if (!capture) throw new Error('could not read the page');
  checkSameMoment(snapshot, capture);
  if (!capture.text && selectionText) capture.text = selectionText;
  if (!capture.text) throw new Error(source === 'selection' ? 'nothing selected' : 'empty page');
  await ensureOffscreen();
  const message: RememberMessage = {
    target: 'offscreen',
    type: 'remember',
    capture,
    time: Date.now(),
  };
  const reply = await sendToOffscreen<RememberReply | undefined>(message);
  if (!reply) throw new Error('the offscreen document did not answer');
  if (!reply.ok) throw new Error(reply.error);
  const saved = `Remembered ${reply.ids.length} passage(s)`;
  return {
    ids: reply.ids,
    cuts: reply.cuts,
    message: reply.cuts.length
      ? `${saved}; the page was too large for one save: ${reply.cuts.join('; ')}`
      : saved,
  };
}

/** Shows the outcome on the toolbar badge (a count, or `!` with the error as the title). */
async function report(tabId: number, work: Promise<RememberOutcome>): Promise<void> {
  try {
    const { ids, cuts, message } = await work;
    await chrome.action.setBadgeBackgroundColor({
      color: cuts.length ? '#e67700' : '#3b5bdb',
      tabId,
    });
    await chrome.action.setBadgeText({ text: String(ids.length), tabId });
    await chrome.action.setTitle({ title: message, tabId });
  } catch (error) {
    await chrome.action.setBadgeBackgroundColor({ color: '#c92a2a', tabId });
    await chrome.action.setBadgeText({ text: '!', tabId });
    await chrome.action.setTitle({ title: `Not remembered: ${String(error)}`, tabId });
  }
}

(globalThis as { anamnesisRemember?: typeof rememberTab }).anamnesisRemember = rememberTab;
