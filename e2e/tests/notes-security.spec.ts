/**
 * The notes app against hostile text and a missing OPFS (issue 8): markup, script URLs, wiki links
 * to markup, entity tricks, an RTL override and very long lines, typed in the UI and imported from
 * files, are shown as text (no element, no dialog, no script run); the Content Security Policy is
 * strict and nothing violates it (every test fails on a violation: `notes-fixtures.ts`); without
 * OPFS the app says plainly that notes live in memory and are not kept.
 */
import { readFile } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import { inFirefox } from '../firefox.ts';
import {
  consoleErrors,
  createNote,
  cspTotals,
  expect,
  NOTES_URL,
  openApp,
  search,
  test,
} from './notes-fixtures.ts';
import { damageStore } from './opfs.ts';
import { puppeteerPerson, searchUntil, writeNotes } from './person.ts';

test.use({ baseURL: NOTES_URL, serviceWorkers: 'allow' });

test.afterAll(() => {
  console.log(
    `[notes-security] CSP: ${cspTotals.violations} violations in the ${cspTotals.tests} notes tests run so far (${cspTotals.pages} pages)`,
  );
});

/** Fails the test on any dialog (alert, confirm, prompt) and dismisses it. */
function noDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return dialogs;
}

/** Elements or attributes that only injected markup could have made. */
async function injected(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const count = (selector: string) => document.querySelectorAll(selector).length;
    const handlers = [...document.querySelectorAll('*')].filter((el) =>
      [...el.attributes].some((a) => /^on/i.test(a.name)),
    ).length;
    return {
      img: count('img'),
      svg: count('svg'),
      iframe: count('iframe'),
      'body style': count('body style'),
      'inline script': count('script:not([src])'),
      script: count('script'),
      'javascript: link': count('a[href^="javascript:" i], [src^="javascript:" i]'),
      'on* attribute': handlers,
      pwned: (window as unknown as { pwned?: unknown }).pwned === undefined ? 0 : 1,
    };
  });
}

const CLEAN = {
  img: 0,
  svg: 0,
  iframe: 0,
  'body style': 0,
  'inline script': 0,
  script: 1, // the app's own module script
  'javascript: link': 0,
  'on* attribute': 0,
  pwned: 0,
};

const RTL = '\u202E';
const HOSTILE = [
  {
    title: '<script>window.pwned = 1; alert(1)</script>',
    body: 'Tortoise facts <img src=x onerror="window.pwned = 2; alert(2)"> and a <a href="javascript:alert(3)">link</a> [markdown](javascript:alert(4)) <iframe srcdoc="<script>alert(5)</script>"></iframe>',
    tags: '<b>bold</b>, "onmouseover=alert(6)',
  },
  {
    title: '<svg onload=alert(7)>',
    body: 'A vector graphic about a lighthouse <style>body { display: none }</style>',
    tags: '',
  },
  {
    title: `Invoice ${RTL}fdp.exe`,
    body: 'Entities: &lt;img src=x onerror=alert(8)&gt; &#60;script&#62;alert(9)&#60;/script&#62; &amp;lt; and a link to [[<svg onload=alert(7)>]] and [[<img src=x onerror=alert(10)>]]',
    tags: `${RTL}gat`,
  },
  {
    title: 'A very long line',
    body: `${'pneumonoultramicroscopic'.repeat(1200)} <img src=x onerror=alert(11)> walrus`,
    tags: '',
  },
];

test('hostile titles, bodies and tags are shown as text: no element, no dialog, no script, no CSP violation', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const dialogs = noDialogs(page);
  const errors = consoleErrors(page);
  await openApp(page);
  for (const note of HOSTILE) await createNote(page, note.title, note.body, note.tags);

  // The list of notes shows titles and tags as typed.
  const list = page.getByRole('list', { name: 'Notes' });
  for (const note of HOSTILE) await expect(list).toContainText(note.title);
  await expect(list).toContainText('#<b>bold</b> #"onmouseover=alert(6)');
  await expect(list).toContainText(`#${RTL}gat`);

  // Searches (markup in the query too) find them and show titles and snippets as text.
  expect(await search(page, 'tortoise')).toContain(HOSTILE[0]!.title);
  await expect(page.locator('.result .snippet').first()).toContainText(
    '<img src=x onerror="window.pwned = 2; alert(2)">',
  );
  expect(await search(page, '<script>alert(1)</script>')).toContain(HOSTILE[0]!.title);
  expect(await search(page, 'lighthouse')).toContain(HOSTILE[1]!.title);
  expect(await search(page, 'entities onerror')).toContain(HOSTILE[2]!.title);
  expect(await search(page, 'walrus')).toContain(HOSTILE[3]!.title);
  expect(await search(page, 'javascript:alert(3)')).toContain(HOSTILE[0]!.title);

  // The wiki link to a markup title is a real link: the graph leg finds the linked note.
  expect(await search(page, 'entities')).toContain(HOSTILE[1]!.title);
  const linked = page.locator('.result').filter({
    has: page.locator('.result-title').getByText(HOSTILE[1]!.title, { exact: true }),
  });
  await linked.locator('summary').click();
  await expect(linked.locator('.legs')).toContainText('links');

  // Explain view of each result, then open it: the editor holds the text exactly.
  for (const note of HOSTILE) {
    await search(page, note.title);
    // the result titled so (another note's body may quote the title, and rank above it)
    const result = page
      .locator('.result')
      .filter({
        has: page.locator('.result-title').getByText(note.title, { exact: true }),
      })
      .first();
    await result.locator('summary').click();
    await expect(result.getByTestId('explain')).toBeVisible();
    await result.locator('.result-open').click();
    await expect(page.getByLabel('Title')).toHaveValue(note.title);
    await expect(page.getByLabel('Body')).toHaveValue(note.body);
  }

  // Very long lines wrap: nothing is wider than the window.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);

  expect(await injected(page)).toEqual(CLEAN);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await page.screenshot({ path: info.outputPath('notes-hostile.png'), fullPage: true });
});

test('hostile notes imported from JSON Lines and markdown files are text too', async ({ page }) => {
  const dialogs = noDialogs(page);
  const errors = consoleErrors(page);
  await openApp(page);
  const lines = [
    { title: '<img src=x onerror=alert(20)>', body: 'imported otter <script>alert(21)</script>' },
    {
      title: '[[<svg onload=alert(22)>]]',
      body: '<a href="javascript:alert(23)">imported heron</a>',
    },
  ].map((n, i) =>
    JSON.stringify({
      id: `imported-${i}`,
      text: `${n.title}\n\n${n.body}`,
      kind: 'note',
      tags: ['<i>imported</i>'],
      meta: { title: n.title, chunks: 0 },
    }),
  );
  await page.locator('#import').setInputFiles([
    {
      name: 'hostile.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.join('\n') + '\n'),
    },
    {
      name: '<img src=x onerror=alert(24)>.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Heading\n\nimported badger <svg onload=alert(25)> [x](javascript:alert(26))\n',
      ),
    },
  ]);
  const list = page.getByRole('list', { name: 'Notes' });
  await expect(list.locator('li')).toHaveCount(3);
  await expect(list).toContainText('<img src=x onerror=alert(20)>');
  await expect(list).toContainText('[[<svg onload=alert(22)>]]');
  await expect(list).toContainText('<img src=x onerror=alert(24)>');
  await expect(list).toContainText('#<i>imported</i>');
  expect((await search(page, 'otter'))[0]).toBe('<img src=x onerror=alert(20)>');
  await expect(page.locator('.result .snippet').first()).toContainText(
    '<script>alert(21)</script>',
  );
  expect((await search(page, 'heron'))[0]).toBe('[[<svg onload=alert(22)>]]');
  expect((await search(page, 'badger'))[0]).toBe('<img src=x onerror=alert(24)>');
  await page.locator('.result .result-open').first().click();
  await expect(page.getByLabel('Body')).toHaveValue(/imported badger <svg onload=alert\(25\)>/);
  expect(await injected(page)).toEqual(CLEAN);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});

test('the CSP is strict (self and wasm only, no inline script) on the page, its service worker and manifest', async ({
  page,
  request,
}) => {
  const response = await request.get('/');
  const html = await response.text();
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html)?.[1];
  const policy = response.headers()['content-security-policy'] ?? meta;
  expect(policy, 'a Content-Security-Policy header or meta tag').toBeDefined();
  const directives = new Map(
    policy!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
  expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  // WebSockets (only) to any host: the sync server the person gives (its records are sealed)
  expect(directives.get('connect-src')).toEqual(["'self'", 'ws:', 'wss:']);
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(policy).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*|https?:/);
  // No inline script and no inline handler in the served page.
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, attributes, body] of scripts) {
    expect(attributes).toMatch(/\ssrc="\/[^"]+"/);
    expect(body!.trim()).toBe('');
  }
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);

  // The service worker: served as JavaScript, fetches only its own origin, no eval.
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  const swText = await sw.text();
  expect(swText).not.toMatch(/https?:\/\/|importScripts|eval\(|new Function/);
  // What it serves offline for a navigation is this same page, with the same policy.
  expect(await (await request.get('/index.html')).text()).toBe(html);

  // The manifest: same-origin start URL and scope, every icon served as an image.
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
    start_url: string;
    scope: string;
    icons: { src: string }[];
  };
  expect(new URL(manifest.start_url, NOTES_URL).origin).toBe(NOTES_URL);
  expect(new URL(manifest.scope, NOTES_URL).origin).toBe(NOTES_URL);
  for (const icon of manifest.icons) {
    const served = await request.get(icon.src);
    expect(served.status(), icon.src).toBe(200);
    expect(served.headers()['content-type'], icon.src).toMatch(/^image\//);
  }

  // In the page, once the service worker controls it: still no violation, no inline script.
  await openApp(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
  });
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  expect(await injected(page)).toEqual(CLEAN);
});

test('the CSP watch itself sees a violation (an injected inline script)', async ({
  page,
  cspViolations,
}) => {
  await openApp(page);
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.pwned = 1';
    document.head.append(s);
  });
  await expect.poll(() => cspViolations.length).toBe(1);
  expect(cspViolations[0]).toMatch(/script-src/);
  expect(
    await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
  ).toBeUndefined();
  cspViolations.length = 0; // expected here: not one of the app's
});

test.describe('without OPFS', () => {
  // The app's worker script is rewritten on its way to the page; a service worker would serve
  // it from its cache instead.
  test.use({ serviceWorkers: 'block' });

  // Not a private window: Chromium's incognito windows (a new Playwright context is one) have
  // OPFS, in memory. This takes the API away from the worker, as a browser without OPFS would; a
  // real private window without OPFS (Firefox's) is the next test.
  test("the worker's OPFS API removed: the app says that notes live in memory and are not kept; it still works", async ({
    page,
    context,
  }) => {
    const errors = consoleErrors(page);
    // Before any of the app's worker code runs, the worker loses OPFS, as in a browser without it.
    let rewritten = 0;
    await context.route(/\/assets\/worker-[\w-]+\.js$/, async (route) => {
      const response = await route.fetch();
      rewritten++;
      await route.fulfill({
        response,
        body: `delete StorageManager.prototype.getDirectory;\n${await response.text()}`,
      });
    });
    await openApp(page);
    // the worker's own load, once: nothing else asks for its script
    expect(rewritten).toBe(1);
    const banner = page.getByRole('status', { name: 'Storage warning' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Notes are not being saved');
    await expect(banner).toContainText('in memory only and will not be kept');
    await expect(page.locator('[aria-label="Storage"]')).toContainText(
      'in memory: OPFS is not available',
    );
    await expect(page.getByRole('button', { name: /persistent storage/ })).toBeHidden();

    await createNote(page, 'Ephemeral', 'A note about a zeppelin that lives in memory.');
    expect(await search(page, 'zeppelin')).toEqual(['Ephemeral']);
    // As the banner says: a reload loses it.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await expect(banner).toBeVisible();
    await expect(page.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('in a real private window (Firefox ESR, private browsing: no OPFS) the app says that notes live in memory and are not kept; it still works', async () => {
    test.setTimeout(120_000);
    await inFirefox(
      NOTES_URL,
      async (page, seen) => {
        // private browsing itself: the page has no OPFS
        await page.goto(`${NOTES_URL}/`, { waitUntil: 'domcontentloaded' });
        expect(
          await page.evaluate(() =>
            navigator.storage.getDirectory().then(
              () => 'OPFS',
              (e: unknown) => (e as Error).name,
            ),
          ),
        ).toBe('SecurityError');
        const person = puppeteerPerson(page);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const banner = await page.waitForSelector('[aria-label="Storage warning"]:not([hidden])');
        expect(await banner!.evaluate((el) => el.textContent)).toContain(
          'Notes are not being saved',
        );
        expect(await person.texts('[aria-label="Storage"]')).toEqual([
          expect.stringContaining('in memory'),
        ]);
        await writeNotes(person, [['Ephemeral', 'A note about a zeppelin that lives in memory.']]);
        const shown = await searchUntil(person, 'zeppelin', (s) => s.length > 0);
        expect(shown.map((s) => s.title)).toEqual(['Ephemeral']);
        expect(seen.foreign).toEqual([]);
        expect(seen.errors).toEqual([]);
      },
      { privateWindow: true },
    );
  });

  test('with OPFS the warning is not shown', async ({ page }) => {
    await openApp(page);
    await expect(page.locator('[aria-label="Storage"]')).toContainText('OPFS (on disk)');
    await expect(page.getByRole('status', { name: 'Storage warning' })).toBeHidden();
  });
});

test('a damaged store: the app says so and recovers the readable notes in one click', async ({
  page,
  context,
}) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Load sample notes' }).click();
  const notes = page.getByRole('list', { name: 'Notes' }).locator('li');
  await expect(notes).toHaveCount(16, { timeout: 30_000 });
  await page.close();
  // The store's worker is gone with its page; the file is damaged from another page of the app's
  // origin (a static file, so the app does not open the store): its SQLite header zeroed.
  const other = await context.newPage();
  await other.goto('/manifest.webmanifest');
  await damageStore(other, 'notes', 0, 100, 0);
  await other.goto('/');
  const alert = other.getByRole('alert');
  await expect(alert).toContainText('The notes store is damaged', { timeout: 60_000 });
  const download = other.waitForEvent('download');
  await other.getByRole('button', { name: 'Recover notes' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^anamnesis-notes-recovered-.*\.jsonl$/);
  const lines = (await readFile(await saved.path(), 'utf8')).trim().split('\n');
  expect(lines).toHaveLength(1 + 16); // the header and every note's memory or chunk
  await expect(other.getByRole('status', { name: 'Recovery' })).toContainText(
    /Recovered 16 notes\. The damaged store is kept as \.anamnesis\/notes\.damaged-\d+\.sqlite3/,
  );
  await other.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await expect(other.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(16);
  expect((await search(other, 'vaccination for the cat'))[0]).toMatch(
    /Vet appointments|Luna the kitten/,
  );
  // The recovered store is whole: a reload opens it without the alert.
  await other.reload();
  await other.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await expect(other.getByRole('alert')).toHaveCount(0);
  await expect(other.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(16);
});
