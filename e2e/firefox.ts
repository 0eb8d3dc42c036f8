/**
 * Firefox ESR as the browser tests drive it: Debian's `firefox-esr` over WebDriver BiDi with
 * puppeteer-core (Playwright drives only its own Firefox build, and no browser is downloaded
 * here), headless, on a fresh profile; page errors and requests to another origin are collected.
 */
import puppeteer, { type Page } from 'puppeteer-core';

import { isForeign } from './fixtures.ts';

/** Debian's `firefox-esr` package. */
export const FIREFOX_PATH = '/usr/bin/firefox-esr';

/**
 * Runs `body` on a page of a fresh headless Firefox ESR; `errors` gets its page errors (and, with
 * `consoleErrors`, console errors), `foreign` its requests to origins other than `origin`. With
 * `privateWindow`, every window is a private one (Firefox's permanent private browsing mode,
 * `browser.privatebrowsing.autostart`): as a user's private window, it has no OPFS
 * (`navigator.storage.getDirectory()` rejects with `SecurityError`).
 */
export async function inFirefox(
  origin: string,
  body: (page: Page, seen: { errors: string[]; foreign: string[] }) => Promise<void>,
  {
    consoleErrors = true,
    privateWindow = false,
  }: { consoleErrors?: boolean; privateWindow?: boolean } = {},
): Promise<void> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    ...(privateWindow ? { extraPrefsFirefox: { 'browser.privatebrowsing.autostart': true } } : {}),
  });
  try {
    const page = await browser.newPage();
    const seen = { errors: [] as string[], foreign: [] as string[] };
    page.on('pageerror', (e) => seen.errors.push(String(e)));
    if (consoleErrors)
      page.on('console', (m) => {
        if (m.type() === 'error') seen.errors.push(m.text());
      });
    page.on('request', (r) => {
      if (isForeign(r.url(), origin)) seen.foreign.push(r.url());
    });
    await body(page, seen);
  } finally {
    await browser.close();
  }
}
