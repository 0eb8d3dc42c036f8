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

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (tab?.id === undefined) return;
  const source = info.menuItemId === MENU_SELECTION ? 'selection' : 'page';
  void report(tab.id, rememberTab(tab.id, source, info.selectionText));
});

chrome.commands.onCommand.addListener((command, tab) => {
  const source = command === MENU_SELECTION ? 'selection' : command === MENU_PAGE ? 'page' : null;
  if (!source) return;
  void (async () => {
    const id = tab?.id ?? (await chrome.tabs.query({ active: true, currentWindow: true }))[0]?.id;
    if (id !== undefined) await report(id, rememberTab(id, source));
  })();
});

/**
 * Runs in the page (chrome.scripting serialises it: self-contained). The readable text: the
 * selection, or the first of `article`, `main`, `[role=main]` holding a fair share of the text,
 * else the body, as rendered (`innerText`: no hidden elements, scripts or styles).
 */
function extractPage(source: 'page' | 'selection'): PageCapture {
  const title = document.title.trim();
  const url = location.href;
  if (source === 'selection') {
    return { source, url, title, text: String(globalThis.getSelection() ?? '').trim() };
  }
  const body = document.body?.innerText ?? '';
  let text = body;
  for (const selector of ['article', 'main', '[role=main]']) {
    const el = document.querySelector<HTMLElement>(selector);
    const inner = el?.innerText ?? '';
    if (inner.trim().length >= Math.min(500, body.trim().length * 0.3)) {
      text = inner;
      break;
    }
  }
  return { source, url, title, text: text.trim() };
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a message to the offscreen document. "Receiving end does not exist" means it never
 * arrived (the document is still loading its script): sent again, for up to ten seconds. Any
 * other failure, or an answer, is final.
 */
async function sendToOffscreen<T>(message: RememberMessage | PingMessage): Promise<T> {
  for (let delay = 20, waited = 0; ; waited += delay, delay = Math.min(delay * 2, 500)) {
    try {
      return await chrome.runtime.sendMessage(message);
    } catch (e) {
      if (!/Receiving end does not exist/i.test(String(e)) || waited > 10_000) throw e;
      await sleep(delay);
    }
  }
}

chrome.runtime.onMessage.addListener((message: EnsureOffscreenMessage, _sender, sendResponse) => {
  if (message?.target !== 'background' || message.type !== 'ensure-offscreen') return false;
  ensureOffscreen().then(
    () => sendResponse({ ok: true }),
    (error: unknown) => sendResponse({ ok: false, error: String(error) }),
  );
  return true;
});

/**
 * Remembers the page (or selection) of tab `tabId`: extracts its text, then has the offscreen
 * document store it. Resolves with the new memories' ids. Also callable from tests
 * (`globalThis.anamnesisRemember`).
 */
export async function rememberTab(
  tabId: number,
  source: 'page' | 'selection',
  selectionText?: string,
): Promise<string[]> {
  const [injection] = await chrome.scripting.executeScript({
    target: { tabId },
    func: extractPage,
    args: [source],
  });
  const capture = injection?.result;
  if (!capture) throw new Error('could not read the page');
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
  return reply.ids;
}

/** Shows the outcome on the toolbar badge (a count, or `!` with the error as the title). */
async function report(tabId: number, work: Promise<string[]>): Promise<void> {
  try {
    const ids = await work;
    await chrome.action.setBadgeBackgroundColor({ color: '#3b5bdb', tabId });
    await chrome.action.setBadgeText({ text: String(ids.length), tabId });
    await chrome.action.setTitle({ title: `Remembered ${ids.length} passage(s)`, tabId });
  } catch (error) {
    await chrome.action.setBadgeBackgroundColor({ color: '#c92a2a', tabId });
    await chrome.action.setBadgeText({ text: '!', tabId });
    await chrome.action.setTitle({ title: `Not remembered: ${String(error)}`, tabId });
  }
}

(globalThis as { anamnesisRemember?: typeof rememberTab }).anamnesisRemember = rememberTab;
