/**
 * The Playwright `test` every browser test of the repo uses: it fails any test during which the
 * page, its workers or the test's own `request` fixture asked for a URL on another origin than the
 * app's (such requests are also aborted, so nothing leaves the machine).
 */
import { test as base, expect, type BrowserContext } from '@playwright/test';

/** Schemes that never touch the network. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:', 'chrome:', 'chrome-extension:']);

/** True when `url` is a network URL on an origin other than `origin`. */
export function isForeign(url: string, origin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (LOCAL_SCHEMES.has(parsed.protocol)) return false;
  return parsed.origin !== origin;
}

/**
 * Records (and aborts) every request of `context` (pages, dedicated workers) to another origin than
 * `origin`; returns the live list.
 */
export async function watchForeignRequests(
  context: BrowserContext,
  origin: string,
): Promise<string[]> {
  const foreign: string[] = [];
  const note = (url: string) => {
    if (isForeign(url, origin) && !foreign.includes(url)) foreign.push(url);
  };
  context.on('request', (request) => note(request.url()));
  await context.route(
    (url) => isForeign(url.href, origin),
    (route) => {
      note(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return foreign;
}

export const test = base.extend<{ foreignRequests: string[] }>({
  foreignRequests: [
    async ({ context, baseURL }, use) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1').origin;
      const foreign = await watchForeignRequests(context, origin);
      await use(foreign);
      expect(foreign, `requests to origins other than ${origin}`).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
