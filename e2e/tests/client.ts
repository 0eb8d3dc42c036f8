/** Typed access to the client test page's `window.client` (harness/client.html) from tests. */
import type { Page } from '@playwright/test';

import type { ClientPageApi, Outcome } from '../harness/src/client-page.ts';

type W = { client: ClientPageApi };

type Async<T> = T extends (...args: infer A) => infer R
  ? (...args: A) => Promise<Awaited<R>>
  : never;

/** Each method of `window.client`, run in `page`. */
export type ClientDriver = { [K in keyof ClientPageApi]: Async<ClientPageApi[K]> };

/** Opens the client test page (clearing the origin's OPFS first, unless told not to). */
export async function openClientPage(
  page: Page,
  { clear = true }: { clear?: boolean } = {},
): Promise<ClientDriver> {
  await page.goto('/client.html');
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  const driver = new Proxy({} as ClientDriver, {
    get: (_, method: string) =>
      method === 'then' // not a thenable
        ? undefined
        : (...args: unknown[]) =>
            page.evaluate(
              ([m, a]) =>
                (
                  (window as unknown as W).client as unknown as Record<
                    string,
                    (...x: unknown[]) => unknown
                  >
                )[m]!(...a),
              [method, args] as const,
            ),
  });
  if (clear) await driver.clearOpfs();
  return driver;
}

/** The value of a successful outcome; fails with the error otherwise. */
export function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) {
    throw new Error(
      `expected success, got ${outcome.error.code ?? outcome.error.name}: ${outcome.error.message}`,
    );
  }
  return outcome.value;
}
