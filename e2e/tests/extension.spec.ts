/**
 * The browser extension (apps/extension, MV3) in the system Chromium, headless (new headless mode
 * loads unpacked extensions): remember two pages served from a local server through the service
 * worker (the path of the context menu and the keyboard command), search them from the extension
 * page by words and by meaning, open a result, restart the browser on the same profile and find
 * them again. Fails on any request to an origin other than the test server's (chrome-extension://
 * is local; see `fixtures.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, test, expect, type BrowserContext, type Page } from '@playwright/test';

import { watchForeignRequests } from '../fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(repoRoot, 'apps/extension/dist');

const PAGES: Record<string, string> = {
  '/kitten.html': `<!doctype html><html><head><title>Caring for a new kitten</title></head><body>
    <nav>Home · Blog · Contact · Subscribe</nav>
    <article><h1>Caring for a new kitten</h1>
    <p>Last spring we adopted a tiny kitten and named her Luna. She sleeps on the sofa all afternoon
    and purrs loudly whenever someone strokes her fur.</p>
    <p>Feed a young kitten four small meals a day, keep fresh water nearby, show her the litter box
    after every meal, and book a first visit to the veterinarian for vaccines.</p></article>
    <footer>© 2026 Example blog. All rights reserved.</footer></body></html>`,
  '/bread.html': `<!doctype html><html><head><title>Sourdough bread at home</title></head><body>
    <main><h1>Sourdough bread at home</h1>
    <p>Feed the sourdough starter with flour and water the evening before baking, and wait until it
    is bubbly and smells sour.</p>
    <p>Mix the dough, fold it every half hour, shape a round loaf, and bake it in a very hot oven in a
    covered pot until the crust is deep brown.</p></main></body></html>`,
};

/** The extension's globals as the tests use them (the service worker's context). */
interface ExtensionGlobals {
  chrome: { tabs: { query(q: { url: string }): Promise<{ id?: number }[]> } };
  anamnesisRemember(tabId: number, source: 'page' | 'selection'): Promise<string[]>;
}

let server: Server;
let origin: string;
let profile: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The extension, built as a user would build it (Vite + the anamnesis() plugin + zip).
  // The test build adds host permissions for the local test server (the published manifest has
  // only activeTab), so pages can be remembered without a click on them.
  execFileSync('pnpm', ['--filter', '@anamnesis/extension', 'build'], {
    cwd: repoRoot,
    stdio: 'pipe',
    env: { ...process.env, ANAMNESIS_EXTENSION_TEST: '1' },
  });
  server = createServer((req, res) => {
    const body = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'anamnesis-extension-'));
});

test.afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Chromium with the unpacked extension, on the test's profile; its id; foreign requests. */
async function launch() {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dist}`, `--load-extension=${dist}`],
    viewport: { width: 900, height: 800 },
  });
  const foreign = await watchForeignRequests(context, origin);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  return { context, worker, id, foreign };
}

/** Types `query` into an extension page's search box; the result URLs, best first. */
async function searchFor(page: Page, query: string): Promise<string[]> {
  await page.locator('#q').fill(query);
  // The results of this query (not of the previous one) are on screen.
  await expect(page.locator('body')).toHaveAttribute('data-query', query);
  return page
    .getByTestId('result')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-url') ?? ''));
}

async function closeAll(context: BrowserContext, foreign: string[]) {
  await context.close();
  expect(foreign, `requests to origins other than ${origin}`).toEqual([]);
}

test('remembers pages, searches them by words and meaning, and keeps them across restarts', async () => {
  const testInfo = test.info();
  test.setTimeout(120_000);
  const kitten = `${origin}/kitten.html`;
  const bread = `${origin}/bread.html`;

  // 1. Remember both pages (and a selection) through the service worker.
  {
    const { context, worker, id, foreign } = await launch();
    const tabs = await Promise.all(
      [kitten, bread].map(async (url) => {
        const page = await context.newPage();
        await page.goto(url);
        return page;
      }),
    );
    const remember = (url: string, source: 'page' | 'selection') =>
      worker.evaluate(
        async ([url, source]) => {
          const g = globalThis as unknown as ExtensionGlobals;
          const [tab] = await g.chrome.tabs.query({ url });
          return g.anamnesisRemember(tab!.id!, source);
        },
        [url, source] as const,
      );
    expect((await remember(kitten, 'page')).length).toBeGreaterThan(0);
    expect((await remember(bread, 'page')).length).toBeGreaterThan(0);
    // Remembering a page again replaces its passages (no duplicates).
    expect((await remember(bread, 'page')).length).toBeGreaterThan(0);
    await tabs[1]!.evaluate(() => {
      const p = document.querySelectorAll('p')[1]!;
      getSelection()!.selectAllChildren(p);
    });
    const selection = await remember(bread, 'selection');
    expect(selection.length).toBe(1);

    // 2. Search from the full page: by words, then by meaning (no shared word).
    const full = await context.newPage();
    await full.goto(`chrome-extension://${id}/search.html`);
    await expect(full.getByTestId('status')).toContainText('passages remembered');
    const byWords = await searchFor(full, 'sourdough starter');
    expect(byWords[0]).toBe(bread);
    const byMeaning = await searchFor(full, 'my pet cat');
    expect(byMeaning[0]).toBe(kitten);
    const first = full.getByTestId('result').first();
    await expect(first.getByTestId('explain')).toBeVisible();
    await expect(first.locator('.leg-vector')).toBeVisible();
    await full.screenshot({ path: testInfo.outputPath('extension-full-page.png'), fullPage: true });

    // 3. The popup (as a tab, at the popup's size): search as you type, open the source page.
    const popup = await context.newPage();
    await popup.setViewportSize({ width: 480, height: 600 });
    await popup.goto(`chrome-extension://${id}/popup.html`);
    expect((await searchFor(popup, 'kitten litter box'))[0]).toBe(kitten);
    await popup.screenshot({ path: testInfo.outputPath('extension-popup.png') });
    const opened = context.waitForEvent('page');
    await popup.getByTestId('result-link').first().click();
    const source = await opened;
    await source.waitForLoadState();
    expect(source.url()).toBe(kitten);
    await closeAll(context, foreign);
  }

  // 4. A fresh browser on the same profile: the store (OPFS of the extension origin) is still there.
  {
    const { context, id, foreign } = await launch();
    const full = await context.newPage();
    await full.goto(`chrome-extension://${id}/search.html?q=oven`);
    await expect(full.getByTestId('status')).toContainText(/\d+ pages? ·/);
    const urls = await full
      .getByTestId('result')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-url')));
    expect(urls[0]).toBe(bread);
    expect(await searchFor(full, 'veterinarian vaccines')).toContain(kitten);
    await closeAll(context, foreign);
  }
});

/** Many pages to remember at once: `/page/N.html`, each on its own topic word. */
const TOPICS = ['harbor', 'violin', 'orchard', 'canyon', 'lantern', 'meadow', 'glacier'];

test('as a person right after the browser starts: pages remembered at once, a popup closed mid-save; nothing reported lost', async () => {
  test.setTimeout(180_000);
  for (const [i, topic] of TOPICS.entries()) {
    PAGES[`/page/${i}.html`] =
      `<!doctype html><title>About the ${topic}</title><article><p>zq${topic} ` +
      `A page about the ${topic}: ${topic} notes, ${topic} stories and more on the ${topic}.</p></article>`;
  }
  const urls = TOPICS.map((_, i) => `${origin}/page/${i}.html`);
  for (let start = 0; start < 2; start++) {
    const { context, worker, id, foreign } = await launch();
    const tabs = await Promise.all(
      urls.map(async (url) => {
        const page = await context.newPage();
        await page.goto(url);
        return page;
      }),
    );
    // Every page at once, right after the start (the offscreen document does not exist yet).
    const outcomes = await worker.evaluate(async (urls) => {
      const g = globalThis as unknown as ExtensionGlobals;
      return Promise.all(
        urls.map(async (url) => {
          const [tab] = await g.chrome.tabs.query({ url });
          return g.anamnesisRemember(tab!.id!, 'page').then(
            (ids) => ({ ok: true, n: ids.length }),
            (e: unknown) => ({ ok: false, error: String(e) }),
          );
        }),
      );
    }, urls);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);

    // The popup opened, a page remembered, the popup closed 80 ms later: the save still lands.
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${id}/popup.html`);
    const saving = worker.evaluate(async (url) => {
      const g = globalThis as unknown as ExtensionGlobals;
      const [tab] = await g.chrome.tabs.query({ url });
      return g.anamnesisRemember(tab!.id!, 'page').then(
        (ids) => ({ ok: true, n: ids.length }),
        (e: unknown) => ({ ok: false, error: String(e) }),
      );
    }, urls[0]!);
    await new Promise((r) => setTimeout(r, 80));
    await popup.close();
    expect(await saving).toMatchObject({ ok: true });

    // Each page once in the results (grouped by page), its own first.
    const full = await context.newPage();
    await full.goto(`chrome-extension://${id}/search.html`);
    for (const [i, topic] of TOPICS.entries()) {
      const found = await searchFor(full, `zq${topic}`);
      expect(found[0]).toBe(urls[i]);
      expect(new Set(found).size).toBe(found.length);
    }
    await Promise.all(tabs.map((t) => t.close()));
    await closeAll(context, foreign);
  }
});
