/**
 * The notes app in real Chromium: notes found by meaning and by words, edits and deletes reflected
 * in search, persistence across reloads (OPFS), offline after the first visit (service worker), two
 * tabs on one store, the explain view adding up, and no console errors or foreign requests.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { NOTES_PORT } from '../harness/port.ts';

const NOTES_URL = `http://127.0.0.1:${NOTES_PORT}`;

test.use({ baseURL: NOTES_URL, serviceWorkers: 'allow' });

/** Console errors of a page, asserted empty at the end of each test. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
}

async function createNote(page: Page, title: string, body: string, tags = ''): Promise<void> {
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Body').fill(body);
  if (tags) await page.getByLabel('Tags').fill(tags);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.editor .status')).toHaveText('saved');
}

async function search(page: Page, query: string): Promise<string[]> {
  await page.getByLabel('Search').fill(query);
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results).toHaveAttribute('data-query', query);
  return results.locator('.result-title').allTextContents();
}

test('create notes, find them by meaning and by words; the explain view adds up', async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await createNote(
    page,
    'Luna',
    'Adopted a kitten from the shelter; she naps on the sofa.',
    'pets',
  );
  await createNote(
    page,
    'Taxes',
    'The filing deadline is April 15; send receipts to the accountant.',
    'finance',
  );
  await createNote(
    page,
    'Bread',
    'Sourdough starter: feed flour and water every evening.',
    'cooking',
  );

  expect((await search(page, 'my cat'))[0]).toBe('Luna'); // meaning: no shared word
  expect((await search(page, 'deadline'))[0]).toBe('Taxes'); // words
  await expect(page.locator('mark').first()).toHaveText(/deadline/i);

  const first = page.locator('.result').first();
  await first.locator('summary').click();
  const parts = await first
    .locator('.bar-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-contribution'))));
  const sum = Number(await first.getByTestId('explain-sum').getAttribute('data-value'));
  expect(parts.length).toBeGreaterThan(0);
  expect(parts.reduce((s, x) => s + x, 0)).toBe(sum);
  await expect(first.locator('.legs')).toContainText('words (BM25)');
  await page.screenshot({ path: info.outputPath('notes-search.png'), fullPage: true });

  for (const profile of ['mnemosyne', 'memsense', 'mnestic', 'mnemexa', 'default']) {
    await page.getByLabel('Profile').selectOption(profile);
    await expect(page.locator('.result .result-title').first()).toHaveText('Taxes');
  }
  expect(errors).toEqual([]);
});

test('edits and deletes update search; a reload keeps everything', async ({ page }, info) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await createNote(page, 'Trip', 'Train to Lisbon in June.');
  expect(await search(page, 'Lisbon')).toEqual(['Trip']);

  await page.getByRole('button', { name: 'Trip' }).first().click();
  await page.getByLabel('Body').fill('Flight to Porto in July.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.editor .status')).toHaveText('saved');
  expect(await search(page, 'Porto')).toEqual(['Trip']);
  // The old words are gone from the index: a search for them matches no word any more.
  await search(page, 'Lisbon');
  await expect(page.locator('.result .snippet')).toContainText(['Porto']);
  await expect(page.locator('.result mark')).toHaveCount(0);

  await createNote(page, 'Keep me', 'This note survives reloads.');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  expect(await search(page, 'survives reloads')).toContain('Keep me');
  await expect(
    page.getByRole('list', { name: 'Model' }).or(page.locator('[aria-label="Storage"]')),
  ).toContainText('OPFS');

  await page.getByLabel('Search').fill('');
  await page.getByRole('button', { name: /^Keep me/ }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  expect(await search(page, 'survives reloads')).not.toContain('Keep me');
  await page.screenshot({ path: info.outputPath('notes-editor.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('the sample loads in one click on an empty app', async ({ page }, info) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await page.getByRole('button', { name: 'Load sample notes' }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(16, {
    timeout: 30_000,
  });
  expect((await search(page, 'vaccination for the cat'))[0]).toMatch(
    /Vet appointments|Luna the kitten/,
  );
  await page.screenshot({ path: info.outputPath('notes-sample.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('offline after the first visit: the app loads and searches', async ({ page, context }) => {
  await openApp(page);
  await createNote(page, 'Offline', 'Written before the network went away.');
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
    return reg.active?.state;
  });
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  expect(await search(page, 'network went away')).toContain('Offline');
  await context.setOffline(false);
});

test('two tabs on the app stay consistent', async ({ context }) => {
  const a = await context.newPage();
  const b = await context.newPage();
  const errors = [...consoleErrors(a), ...consoleErrors(b)];
  await openApp(a);
  await openApp(b);
  await createNote(a, 'From A', 'Alpha tab wrote this about kayaks.');
  expect(await search(b, 'kayaks')).toContain('From A');
  await createNote(b, 'From B', 'Bravo tab wrote this about lighthouses.');
  expect(await search(a, 'lighthouses')).toContain('From B');
  expect(errors).toEqual([]);
});
