/**
 * The notes app's fast paths keep its behaviour: a person who types without waiting gets the
 * results of what they typed last (searches for the text in between are coalesced, never the final
 * one), every keystroke is painted, the explain view is built when opened, and a long notes list
 * is shown a page at a time with every note still reachable.
 */
import type { Page } from '@playwright/test';

import { consoleErrors, expect, NOTES_URL, openApp, search, test } from './notes-fixtures.ts';

test.use({ baseURL: NOTES_URL });

/** Imports `count` short notes (titles `Note 0` … ) as a JSON Lines file, as a person would. */
async function importNotes(page: Page, count: number): Promise<void> {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      id: `note-bulk-${i}`,
      text: `Note ${i}\n\nA short note number ${i} about ${i % 2 ? 'gardens' : 'harbors'}.`,
      kind: 'note',
      meta: { title: `Note ${i}`, chunks: 0 },
      tags: [],
      createdAt: 1_700_000_000_000 + i,
    }),
  );
  await page.locator('#import').setInputFiles({
    name: 'notes.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(lines.join('\n')),
  });
  await expect(page.locator('#progress')).toBeHidden({ timeout: 60_000 });
}

test('typing without waiting: the results are those of the final query', async ({ page }) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await page.getByRole('button', { name: 'Load sample notes' }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(16, {
    timeout: 30_000,
  });
  // What a search for the final text alone shows, typed at once.
  const expected = await search(page, 'tram and museum tickets');
  await page.getByLabel('Search').fill('');
  await page.evaluate(() => performance.clearMeasures('type-to-paint'));

  // Typed key after key with no pause, then corrected: each keystroke a search request.
  const field = page.getByLabel('Search');
  await field.pressSequentially('tram and museum tickest');
  await field.press('Backspace');
  await field.press('Backspace');
  await field.pressSequentially('ts');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(field).toHaveValue('tram and museum tickets');
  await expect(results).toHaveAttribute('data-query', 'tram and museum tickets');
  await expect(results.locator('.result-title')).toHaveText(expected);
  // Every keystroke's results were painted (some by a search that served several keystrokes).
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('type-to-paint').length))
    .toBe('tram and museum tickest'.length + 2 + 2);

  // The explain view is built when opened, and adds up.
  const first = page.locator('.result').first();
  await expect(first.getByTestId('explain')).toHaveCount(0);
  await first.locator('summary').click();
  await expect(first.getByTestId('explain')).toBeVisible();
  const parts = await first
    .locator('.bar-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-contribution'))));
  // The engine's own numbers (its score and contributions, unrounded): the bars add up to the
  // score the engine ranked by, and the sum shown is that score.
  const score = Number(await first.getByTestId('explain').getAttribute('data-score'));
  const sum = Number(await first.getByTestId('explain-sum').getAttribute('data-value'));
  expect(score).toBeGreaterThan(0);
  expect(parts.reduce((s, x) => s + x, 0)).toBe(score);
  expect(sum).toBe(score);
  expect(errors).toEqual([]);
});

test('a long notes list: a page at first, every note reachable', async ({ page }) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await importNotes(page, 250);
  const notes = page.getByRole('list', { name: 'Notes' }).locator('li');
  const more = page.getByRole('button', { name: /^Show more/ });
  await expect(notes).toHaveCount(100);
  await expect(more).toHaveText('Show more (150 not shown)');

  // Scrolling to the end of the list shows the next page; "Show more" shows the rest.
  await page.locator('.sidebar').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(notes).toHaveCount(200);
  while (await more.isVisible()) await more.click({ timeout: 2_000 }).catch(() => undefined);
  await expect(notes).toHaveCount(250);

  // The oldest note, on the last page, opens.
  await page.getByRole('button', { name: /^Note 0$/ }).click();
  await expect(page.getByLabel('Title')).toHaveValue('Note 0');

  // While searching, the list and its button are hidden; cleared, the list is back.
  expect(await search(page, 'Note 7')).toContain('Note 7');
  await expect(notes.first()).toBeHidden();
  await expect(more).toBeHidden();
  await page.getByLabel('Search').fill('');
  await expect(notes.first()).toBeVisible();

  // After a reload the list starts again from the first page.
  await page.reload();
  await page.waitForSelector('body[data-store="open"]', { state: 'attached', timeout: 60_000 });
  await expect(notes).toHaveCount(100);
  await expect(more).toBeVisible();
  await expect(notes.first()).toHaveText(/Note 249/); // the most recently updated first
  // The phases the app showed, as User Timing marks at their frames (what bench:notes reads).
  const marks = () =>
    page.evaluate(() =>
      ['notes:ready', 'notes:store'].map(
        (n) => performance.getEntriesByName(n, 'mark')[0]?.startTime ?? 0,
      ),
    );
  await expect.poll(async () => (await marks())[1]).toBeGreaterThan(0);
  const [ready, store] = await marks();
  expect(ready).toBeGreaterThan(0);
  expect(store).toBeGreaterThanOrEqual(ready!);
  expect(errors).toEqual([]);
});

test('a search typed as soon as the app is interactive is answered once the store opens', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await openApp(page);
  await page.getByRole('button', { name: 'Load sample notes' }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(16, {
    timeout: 30_000,
  });
  await page.reload();
  // Interactive: the store may still be opening; what is typed now is searched when it is.
  await page.waitForSelector('body[data-ready="true"]');
  await page.getByLabel('Search').pressSequentially('sourdough');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results).toHaveAttribute('data-query', 'sourdough', { timeout: 60_000 });
  await expect(results.locator('.result-title').first()).toHaveText('Sourdough starter');
  expect(errors).toEqual([]);
});
