/**
 * The first search a person can make, timed in headless Chromium (`bench:size`): a fresh profile,
 * the network emulated through CDP `Network.emulateNetworkConditions` (10 Mbit/s down, 40 ms
 * latency by default), from the navigation's start to the first result painted. As soon as the
 * page takes input the bench writes one note (the notes app) or memory (the example app) and
 * searches for words of it: a first visit starts with an empty store, and what is saved or asked
 * before the store is open waits for it, so this is the moment the app first answers a person. A
 * repeat visit (the notes app) then goes offline once the service worker controls the page,
 * reloads, and times the search for the same words again.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

import { launchProfile } from '../../../e2e/chromium.ts';

/** The emulated network: throughput in bits/s, latency in ms. */
export interface Network {
  downBitsPerS: number;
  upBitsPerS: number;
  latencyMs: number;
}

/** The network: 10 Mbit/s down, 40 ms. */
export const TEN_MBIT: Network = { downBitsPerS: 10e6, upBitsPerS: 5e6, latencyMs: 40 };

/** Times of a visit, in ms from the navigation's start (null: not reached). */
export interface VisitTimes {
  /** The page takes input. */
  interactive_ms: number | null;
  /** The store open (the notes app's `notes:store` mark; the example app: its `data-ready`). */
  store_ms: number | null;
  /** The first result of the first search painted. */
  first_search_ms: number | null;
  /** The model ready: search by meaning (the notes app's `notes:model` mark). */
  model_ms: number | null;
  /** The service worker controls the page: everything it precaches is cached (first visit). */
  offline_ready_ms: number | null;
  /** Requests the page, its workers and its service worker made (paths). */
  requested: string[];
}

const TITLE = 'Harbour';
const BODY = 'The ferry to the island leaves at nine from pier four.';
const QUERY = 'ferry island';

/**
 * A script that records, in the page, when an element matching `selector` first shows `text`
 * (`window.__firstResult`, ms from the navigation's start), and when `<body>` first has
 * `data-ready="true"` (`window.__ready`: the example app's store open). Text, not a function: tsx would wrap
 * a function's inner functions in a helper the page lacks.
 */
function watchFirst(selector: string, text: string): string {
  return `(() => {
    const check = () => {
      if (window.__firstResult !== undefined) return;
      for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
        if (el.textContent && el.textContent.includes(${JSON.stringify(text)})) {
          window.__firstResult = performance.now();
          return;
        }
      }
    };
    const ready = () => {
      if (window.__ready === undefined && document.body && document.body.dataset.ready === 'true')
        window.__ready = performance.now();
    };
    new MutationObserver(() => { check(); ready(); }).observe(document, {
      subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-ready'],
    });
  })();`;
}

async function throttle(page: Page, context: BrowserContext, network: Network) {
  if (network.downBitsPerS === 0) return;
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: network.latencyMs,
    downloadThroughput: network.downBitsPerS / 8,
    uploadThroughput: network.upBitsPerS / 8,
  });
}

const firstResult = (page: Page, timeout: number) =>
  page
    .waitForFunction(() => (window as unknown as { __firstResult?: number }).__firstResult, null, {
      timeout,
      polling: 50,
    })
    .then((h) => h.jsonValue() as Promise<number>);

const mark = (page: Page, name: string) =>
  page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? null, name);

/** Which app, and how a person saves and searches in it. */
export type AppKind = 'notes' | 'example';

async function saveAndSearch(page: Page, app: AppKind): Promise<void> {
  if (app === 'notes') {
    await page.locator('#title').fill(TITLE);
    await page.locator('#body').fill(BODY);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#search').fill(QUERY);
  } else {
    await page.locator('#text').fill(`${TITLE}: ${BODY}`);
    await page.locator('#remember button').click();
    await page.locator('#query').fill(QUERY);
    await page.locator('#recall button').click();
  }
}

/** The selector of a result, and what it shows for the saved text. */
const RESULT = {
  notes: ['.result .result-title', TITLE],
  example: ['#results li', TITLE],
} as const;

/**
 * Times a first visit (and, for the notes app, a repeat visit offline) of the app at `url`.
 * `firstVisitDone` is called once the first visit is over (the model ready, and for the notes app
 * its service worker in control), before the repeat visit: the browser still reaches the server
 * then (the repeat visit's service worker update check), so what the server sent for the first
 * visit is read there.
 */
export async function timeVisits(
  url: string,
  app: AppKind,
  network: Network = TEN_MBIT,
  timeoutMs = 120_000,
  firstVisitDone: () => void = () => undefined,
): Promise<{ first: VisitTimes; offline: VisitTimes | null }> {
  const profile = await launchProfile('anamnesis-bench-size-', {
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'allow',
  });
  try {
    const { context } = profile;
    let requested: string[] = [];
    context.on('request', (r) => requested.push(new URL(r.url()).pathname));
    const [selector, text] = RESULT[app];
    await context.addInitScript({ content: watchFirst(selector, text) });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await throttle(page, context, network);

    await page.goto(`${url}/`, { waitUntil: 'commit' });
    const ready = app === 'notes' ? 'body[data-ready="true"]' : '#query:not([disabled])';
    await page.waitForSelector(ready, { state: 'attached', timeout: timeoutMs });
    const interactive = await page.evaluate(() => performance.now());
    await saveAndSearch(page, app);
    const first: VisitTimes = {
      interactive_ms: app === 'notes' ? await mark(page, 'notes:ready') : interactive,
      store_ms: null,
      first_search_ms: await firstResult(page, timeoutMs),
      model_ms: null,
      offline_ready_ms: null,
      requested: [],
    };
    if (app === 'example') {
      // the store's open and the model's load (after it) count in what a first visit downloads
      await page.waitForSelector('body[data-ready="true"]', {
        state: 'attached',
        timeout: timeoutMs,
      });
      first.store_ms = await page.evaluate(
        () => (window as unknown as { __ready?: number }).__ready ?? null,
      );
      await page.waitForFunction(
        () =>
          (window as unknown as { memory?: { readiness?: { model?: boolean } } }).memory?.readiness
            ?.model === true,
        null,
        { timeout: timeoutMs, polling: 50 },
      );
      // observed by polling (within 50 ms): the example app marks no time
      first.model_ms = await page.evaluate(() => performance.now());
      first.requested = requested;
      firstVisitDone();
      return { first, offline: null };
    }
    first.store_ms = await mark(page, 'notes:store');
    await page.waitForSelector('body[data-model="ready"]', {
      state: 'attached',
      timeout: timeoutMs,
    });
    first.model_ms = await mark(page, 'notes:model');
    first.offline_ready_ms = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 20));
      return performance.now();
    });
    // The note is stored before the repeat visit (it was found, so its save landed).
    first.requested = requested;
    firstVisitDone();

    requested = [];
    await context.setOffline(true);
    await page.goto(`${url}/`, { waitUntil: 'commit' });
    await page.waitForSelector(ready, { state: 'attached', timeout: timeoutMs });
    await page.locator('#search').fill(QUERY);
    const offline: VisitTimes = {
      interactive_ms: await mark(page, 'notes:ready'),
      store_ms: null,
      first_search_ms: await firstResult(page, timeoutMs),
      model_ms: null,
      offline_ready_ms: null,
      requested: [],
    };
    await page.waitForSelector('body[data-model="ready"]', {
      state: 'attached',
      timeout: timeoutMs,
    });
    offline.model_ms = await mark(page, 'notes:model');
    offline.store_ms = await mark(page, 'notes:store');
    offline.requested = requested;
    return { first, offline };
  } finally {
    await profile.close();
  }
}
