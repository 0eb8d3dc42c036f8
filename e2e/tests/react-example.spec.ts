/**
 * The React example (`apps/react-example`, `@anamnesis/react`) in Chromium, as built by Vite and
 * served by `vite preview`: the provider opens one client worker, a remembered text shows in the
 * live results as the search is typed, and a text remembered in another tab shows in this tab's
 * list without typing. The fixture fails the test on any request to another origin.
 */
import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures.ts';
import { REACT_EXAMPLE_URL } from '../playwright.config.ts';

test.use({ baseURL: REACT_EXAMPLE_URL });

/** Opens the app; resolves with the URLs of the client workers it starts (not sqlite's own). */
async function openApp(page: Page): Promise<string[]> {
  const workers: string[] = [];
  page.on('worker', (w) => {
    if (/\/assets\/worker-[\w-]+\.js$/.test(w.url())) workers.push(w.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.locator('#status')).toHaveText('store react-example');
  expect(errors).toEqual([]);
  return workers;
}

async function remember(page: Page, text: string): Promise<void> {
  await page.getByLabel('remember').fill(text);
  await page.getByRole('button', { name: 'Remember' }).click();
  await expect(page.getByLabel('remember')).toHaveValue('');
}

test('remember, then live results as the search is typed; one client worker', async ({ page }) => {
  const workers = await openApp(page);
  await remember(page, 'I adopted a kitten named Luna');
  await remember(page, 'Buy oat milk on the way home');
  await page.getByLabel('search').pressSequentially('kitten', { delay: 30 });
  await expect(page.locator('#results li').first()).toHaveText('I adopted a kitten named Luna');
  await expect(page.locator('#search-state')).toHaveText(/^\d+ found$/);
  // A text remembered while the search is shown joins the list without typing.
  await remember(page, 'The kitten Luna sleeps on the sofa');
  await expect(page.locator('#results li', { hasText: 'sleeps on the sofa' })).toHaveCount(1);
  expect(workers).toHaveLength(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test("another tab's remember shows in this tab's results", async ({ page, context }) => {
  await openApp(page);
  await page.getByLabel('search').fill('boiler service');
  await expect(page.locator('#search-state')).toHaveText('0 found');
  const other = await context.newPage();
  await openApp(other);
  await remember(other, 'The boiler service is booked for March');
  await expect(page.locator('#results li').first()).toHaveText(
    'The boiler service is booked for March',
  );
  await other.close();
});
