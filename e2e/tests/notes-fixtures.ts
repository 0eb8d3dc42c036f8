/**
 * What every notes-app test shares: the app's origin, the page helpers, and a Content Security
 * Policy watch. The watch is an automatic fixture: it collects every `securitypolicyviolation`
 * event of every page of the test (a listener added before any script of the page runs) and every
 * console message of a page or worker that mentions the Content Security Policy, and fails the
 * test if there was any. Its totals over a test file are in {@link cspTotals}.
 */
import type { ConsoleMessage, Page } from '@playwright/test';

import { NOTES_PORT } from '../harness/port.ts';
import { expect, test as base } from '../fixtures.ts';

export const NOTES_URL = `http://127.0.0.1:${NOTES_PORT}`;

/** Tests and pages watched, and violations seen, in this test file (one worker runs it). */
export const cspTotals = { tests: 0, pages: 0, violations: 0 };

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      await context.exposeBinding('reportCspViolation', (_source, line: string) => {
        violations.push(line);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          const report = (
            window as unknown as { reportCspViolation?: (l: string) => Promise<void> }
          ).reportCspViolation;
          void report?.(
            `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
          );
        });
      });
      const onConsole = (m: ConsoleMessage) => {
        if (/content[ -]security[ -]policy/i.test(m.text()))
          violations.push(`console: ${m.text()}`);
      };
      const watch = (page: Page) => {
        cspTotals.pages++;
        page.on('console', onConsole);
        page.on('worker', (worker) => worker.on('console', onConsole));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(violations);
      cspTotals.tests++;
      cspTotals.violations += violations.length;
      expect(violations, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Console errors of a page, asserted empty at the end of each test. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  // The store is ready first; these tests search by meaning too, so they wait for the model.
  await page.waitForSelector('body[data-model="ready"]', { state: 'attached', timeout: 60_000 });
}

export async function createNote(
  page: Page,
  title: string,
  body: string,
  tags = '',
): Promise<void> {
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Body').fill(body);
  if (tags) await page.getByLabel('Tags').fill(tags);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.editor .status')).toHaveText('saved');
}

export async function search(page: Page, query: string): Promise<string[]> {
  await page.getByLabel('Search').fill(query);
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results).toHaveAttribute('data-query', query);
  return results.locator('.result-title').allTextContents();
}
