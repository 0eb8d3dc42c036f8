/** Typed access to the test app's `window.harness` from Playwright tests. */
import type { Page } from '@playwright/test';

import type { HarnessApi, PageLoadResult } from '../harness/src/main.ts';
import type { LoadOptions, ThroughputResult, WireError } from '../harness/src/protocol.ts';

type HarnessWindow = { harness: HarnessApi };

/** Opens the test app and returns its API, each call run in the page. */
export async function openHarness(page: Page) {
  await page.goto('/');
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  return {
    hasAdapter: (): Promise<boolean> =>
      page.evaluate(() => (window as unknown as HarnessWindow).harness.hasAdapter()),
    load: (options: LoadOptions): Promise<PageLoadResult> =>
      page.evaluate((o) => (window as unknown as HarnessWindow).harness.load(o), options),
    loadWithFallback: (options: LoadOptions): Promise<PageLoadResult> =>
      page.evaluate(
        (o) => (window as unknown as HarnessWindow).harness.loadWithFallback(o),
        options,
      ),
    loadError: (options: LoadOptions): Promise<WireError | null> =>
      page.evaluate((o) => (window as unknown as HarnessWindow).harness.loadError(o), options),
    embed: (texts: readonly string[]): Promise<number[][]> =>
      page.evaluate((t) => (window as unknown as HarnessWindow).harness.embed(t), [...texts]),
    throughput: (texts: readonly string[], batch: number): Promise<ThroughputResult> =>
      page.evaluate(([t, b]) => (window as unknown as HarnessWindow).harness.throughput(t, b), [
        [...texts],
        batch,
      ] as [string[], number]),
    terminate: (): Promise<void> =>
      page.evaluate(() => (window as unknown as HarnessWindow).harness.terminate()),
  };
}
