/**
 * The notes app's first visit costs what the default path needs: no ONNX Runtime file (its wasm,
 * its loaders, or the transformers.js chunk that carries its JavaScript) is requested by the page,
 * its workers or the service worker, and none is precached; after it, the app works offline. It is
 * served by a plain static server that sends no ETag, Last-Modified or Cache-Control (as many do),
 * where a browser cannot revalidate, in a persistent profile as a person's browser keeps (which
 * also fetches the manifest's icon): every file of the build is still downloaded once, the service
 * worker's precache keeping what the page and its worker already fetched. A
 * person who then picks ONNX Runtime in the Model panel downloads it (with a progress bar), the
 * store reopens on it, and it keeps working offline from the service worker's cache.
 */
import { fileURLToPath } from 'node:url';

import type { BrowserContext, Page } from '@playwright/test';
import type { Page as PuppeteerPage } from 'puppeteer-core';

import { serveStatic, type StaticServer } from '../../apps/bench/src/static-server.ts';
import { launchProfile } from '../chromium.ts';
import { isForeign } from '../fixtures.ts';
import { inFirefox } from '../firefox.ts';
import { HARNESS_PORT } from '../harness/port.ts';
import { consoleErrors, createNote, expect, NOTES_URL, search, test } from './notes-fixtures.ts';

test.use({ baseURL: NOTES_URL, serviceWorkers: 'allow' });

/** The notes app's build (written by the notes app's web server before the tests run). */
const NOTES_DIST = fileURLToPath(new URL('../../apps/notes/dist', import.meta.url));
/** Where the plain server (no validators) serves it: the port after the React example's. */
const PLAIN_PORT = HARNESS_PORT + 4;
const PLAIN_URL = `http://127.0.0.1:${PLAIN_PORT}`;

/** A file only an ONNX Runtime path needs. */
const ONNX_FILE = /\/ort\/|ort-wasm|onnxruntime|transformers/;

/** Every URL the service worker's caches hold, by cache name (in the page). */
async function cachedUrls(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}

/** Resolves once the service worker installed (precached) and controls the page. */
async function controlled(): Promise<void> {
  await navigator.serviceWorker.ready;
  while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
}

/** The app after a load: interactive, the store open. */
async function started(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForSelector('body[data-store="open"]', { state: 'attached', timeout: 60_000 });
}

test.describe('on a server without ETag or Last-Modified', () => {
  let server: StaticServer;
  test.beforeAll(async () => {
    server = await serveStatic(NOTES_DIST, { validators: false, port: PLAIN_PORT });
  });
  test.afterAll(() => server.close());

  test('the first visit requests no ONNX Runtime file and downloads each file once; offline after it, a note is saved and found', async () => {
    // A persistent profile, as a person's browser (an incognito context skips some of the
    // browser's own fetches, such as the manifest's icon).
    const profile = await launchProfile('anamnesis-notes-plain-', {
      baseURL: PLAIN_URL,
      serviceWorkers: 'allow',
    });
    try {
      await firstVisitOnce(profile.context, server);
    } finally {
      await profile.close();
    }
  });
});

/**
 * The plain server's test in `context`: a first visit that downloads each file once, then the app
 * offline. Requests to other origins are watched, not routed: Playwright turns Chromium's HTTP
 * cache off in a context with routes, and what a first visit downloads depends on it (nothing
 * leaves this machine either way; such a request still fails the test).
 */
async function firstVisitOnce(context: BrowserContext, server: StaticServer): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = consoleErrors(page);
  const foreign: string[] = [];
  const requested: string[] = [];
  // Pages, dedicated workers and (in Chromium) the service worker's own fetches.
  context.on('request', (r) => {
    requested.push(new URL(r.url()).pathname);
    if (isForeign(r.url(), PLAIN_URL)) foreign.push(r.url());
  });
  await page.goto('/');
  await started(page);
  await page.waitForSelector('body[data-model="ready"]', {
    state: 'attached',
    timeout: 60_000,
  });
  await page.evaluate(controlled);
  await createNote(page, 'Harbour', 'The ferry to the island leaves at nine from pier four.');
  expect((await search(page, 'ferry island'))[0]).toBe('Harbour');

  expect(requested.length).toBeGreaterThan(10);
  expect(requested).toContain('/models/anamnesis/static-multi-64d/onnx/model_quantized.onnx');
  expect(requested.filter((p) => ONNX_FILE.test(p))).toEqual([]);
  const cached = await page.evaluate(cachedUrls);
  const all = Object.values(cached).flat();
  expect(all).toContain('/models/anamnesis/static-multi-64d/onnx/model_quantized.onnx');
  expect(all.filter((p) => ONNX_FILE.test(p))).toEqual([]);
  // Every file came from the server once: the precache kept what the page and its worker had
  // fetched (the server sends no validators, so a second request would be a second download).
  // Nothing is asked for twice by the page either: SQLite's wasm is not preloaded (the worker
  // could not take the preload), and the favicon is inline (the browser fetches the manifest's
  // icon on its own).
  const served = Object.fromEntries(server.bodies);
  expect(served['models/anamnesis/static-multi-64d/onnx/model_quantized.onnx']).toBe(1);
  expect(Object.keys(served).some((f) => /^assets\/sqlite3-[\w-]+\.wasm$/.test(f))).toBe(true);
  expect(Object.entries(served).filter(([, n]) => n > 1)).toEqual([]);

  await context.setOffline(true);
  try {
    await page.reload();
    await started(page);
    await createNote(page, 'Offline', 'Written on the train with no network at all.');
    expect((await search(page, 'train network'))[0]).toBe('Offline');
    expect((await search(page, 'ferry island'))[0]).toBe('Harbour');
    expect(requested.filter((p) => ONNX_FILE.test(p))).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
  expect(errors).toEqual([]);
  expect(foreign, `requests to origins other than ${PLAIN_URL}`).toEqual([]);
}

test('picking ONNX Runtime downloads it with a progress bar, reopens the store on it, and it works offline after', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(page);
  const requested: string[] = [];
  context.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('/');
  await started(page);
  await page.evaluate(controlled);
  await createNote(page, 'Luna', 'Adopted a kitten from the shelter; she naps on the sofa.');
  await expect(page.getByRole('definition').filter({ hasText: 'JavaScript' })).toBeVisible();
  expect(requested.filter((p) => ONNX_FILE.test(p))).toEqual([]);

  // The progress bar is shown while the runtime downloads; seen before it hides again.
  const shown = page.waitForSelector('#runtime-progress:not([hidden])', { timeout: 30_000 });
  await page.getByLabel('Runs on').selectOption('onnx');
  await shown;
  await expect(page.getByRole('definition').filter({ hasText: 'ONNX Runtime' })).toBeVisible({
    timeout: 60_000,
  });
  await page.waitForSelector('body[data-model="ready"]', { state: 'attached', timeout: 60_000 });
  await expect(page.locator('#runtime-progress')).toBeHidden();
  expect(requested).toContain('/ort/ort-wasm-simd-threaded.wasm');
  // Only the worker imports transformers.js, on ONNX Runtime: the model runs on it now.
  expect(requested).toEqual(
    expect.arrayContaining([expect.stringMatching(/^\/assets\/transformers\.web-[\w-]+\.js$/)]),
  );
  expect(requested.filter((p) => /asyncify/.test(p))).toEqual([]); // the wasm-only build
  expect((await search(page, 'my cat'))[0]).toBe('Luna'); // by meaning: no word in common
  const cached = Object.values(await page.evaluate(cachedUrls)).flat();
  expect(cached).toEqual(
    expect.arrayContaining([
      '/ort/ort-wasm-simd-threaded.wasm',
      '/ort/ort-wasm-simd-threaded.mjs',
      expect.stringMatching(/^\/assets\/transformers\.web-[\w-]+\.js$/),
    ]),
  );

  await context.setOffline(true);
  try {
    await page.reload();
    await started(page);
    await page.waitForSelector('body[data-model="ready"]', { state: 'attached', timeout: 60_000 });
    await expect(page.getByLabel('Runs on')).toHaveValue('onnx');
    await expect(page.getByRole('definition').filter({ hasText: 'ONNX Runtime' })).toBeVisible();
    expect((await search(page, 'my cat'))[0]).toBe('Luna');
  } finally {
    await context.setOffline(false);
  }
  expect(errors).toEqual([]);
});

test('Firefox: the first visit requests no ONNX Runtime file and precaches none; a note is saved and found', async () => {
  await inFirefox(NOTES_URL, async (page: PuppeteerPage, seen) => {
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${NOTES_URL}/`);
    await page.waitForSelector('body[data-store="open"]', { timeout: 60_000 });
    await page.evaluate(controlled);
    // Element handles and evaluated functions, not puppeteer's locators or waitForFunction:
    // Firefox ESR 140.12 (Debian, 2026-12) runs their in-page pollers as eval, which the app's
    // CSP (no 'unsafe-eval') blocks, so they never resolve
    const el = async (selector: string) => (await page.waitForSelector(selector))!;
    const type = async (selector: string, text: string) =>
      (await el(selector)).evaluate((node, t) => {
        (node as HTMLInputElement).value = t;
        node.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
    const shows = async (selector: string, text: string) => {
      for (const end = Date.now() + 30_000; Date.now() < end;) {
        const now = await page.evaluate((s) => document.querySelector(s)?.textContent, selector);
        if (now === text) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${selector} never showed ${text}`);
    };
    await (await el('#new-note')).click();
    await type('#title', 'Harbour');
    await type('#body', 'The ferry to the island leaves at nine from pier four.');
    await (await el('.editor .primary')).click();
    await shows('.editor .status', 'saved');
    await type('#search', 'ferry island');
    await shows('.result .result-title', 'Harbour');
    expect(requested).toContain('/models/anamnesis/static-multi-64d/onnx/model_quantized.onnx');
    expect(requested.filter((p) => ONNX_FILE.test(p))).toEqual([]);
    const cached = Object.values(await page.evaluate(cachedUrls)).flat();
    expect(cached).toContain('/models/anamnesis/static-multi-64d/onnx/model_quantized.onnx');
    expect(cached.filter((p) => ONNX_FILE.test(p))).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.foreign).toEqual([]);
  });
});
