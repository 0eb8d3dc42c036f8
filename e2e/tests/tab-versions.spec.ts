/**
 * An app update beside an open tab (issue 41): two protocol versions of the tabs of one store, in
 * Chromium. The other version is simulated in a page of the origin, speaking that version as its
 * code does: an owner of protocol 3 (before this change) holds the store's Web Lock and answers
 * only hellos of its own version; a tab of a newer protocol sends its own hello. A tab of this
 * build beside an owner of another version is answered within a second: `VERSION_MISMATCH`, which
 * says which tab to reload; reloaded once the old tab is gone, it opens the store.
 */
import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures.ts';
import { ok, openClientPage } from './client.ts';

/**
 * Makes `page` an owner tab of protocol 3 for store `name`: it takes the store's lock and answers
 * a hello of version 3 with its announcement, ignoring every other version (what that code did).
 * Resolves once it holds the lock.
 */
async function oldOwner(page: Page, name: string): Promise<void> {
  await page.evaluate(
    (store) =>
      new Promise<void>((held) => {
        void navigator.locks.request(
          `anamnesis:${store}`,
          () =>
            new Promise<void>((release) => {
              (window as unknown as { releaseOld: () => void }).releaseOld = release;
              held();
            }),
        );
        const channel = new BroadcastChannel(`anamnesis:${store}`);
        channel.onmessage = (event: MessageEvent<{ v?: number; t?: string }>) => {
          if (event.data?.v !== 3 || event.data.t !== 'hello') return;
          channel.postMessage({
            v: 3,
            t: 'owner',
            from: 'old-owner-tab',
            info: { device: 'wasm', backend: 'opfs', model: { id: 'old', dims: 100 } },
          });
        };
      }),
    name,
  );
}

test('a tab of this build beside an owner of protocol 3 gets VERSION_MISMATCH within a second; reloaded after the old tab goes, it owns the store', async ({
  page,
  context,
}) => {
  // a page of the origin (its OPFS cleared): the old "app" runs in it
  await openClientPage(page);
  await oldOwner(page, 'updated');
  const pageB = await context.newPage();
  const b = await openClientPage(pageB, { clear: false });
  const started = Date.now();
  const outcome = await b.open('m', { name: 'updated' });
  const waited = Date.now() - started;
  expect(outcome.ok ? 'opened' : outcome.error).toMatchObject({
    code: 'VERSION_MISMATCH',
    isAnamnesisError: true,
    details: { other: 3 },
  });
  expect(outcome.ok ? '' : outcome.error.message).toMatch(/older version.*reload this one/);
  expect(waited).toBeLessThan(1000);

  // The old tab goes; the person reloads the new one: it owns the store.
  await page.evaluate(() => (window as unknown as { releaseOld: () => void }).releaseOld());
  await pageB.reload();
  const again = await openClientPage(pageB, { clear: false });
  expect(ok(await again.open('m', { name: 'updated' })).role).toBe('owner');
  ok(await again.call('m', 'remember', [{ text: 'written after the update' }]));
});

test('an owner of this build answers a tab of a newer protocol within a second, and keeps serving its own', async ({
  page,
  context,
}) => {
  const a = await openClientPage(page);
  expect(ok(await a.open('m', { name: 'answering' })).role).toBe('owner');
  const newer = await context.newPage();
  await newer.goto('/');
  const answer = await newer.evaluate(async (store) => {
    const channel = new BroadcastChannel(`anamnesis:${store}`);
    const started = performance.now();
    const heard = await new Promise<Record<string, unknown> | undefined>((resolve) => {
      channel.onmessage = (event: MessageEvent<Record<string, unknown>>) => {
        if (event.data?.t === 'version') resolve(event.data);
      };
      setTimeout(() => resolve(undefined), 2000);
      channel.postMessage({ v: 99, t: 'hello', from: 'newer-tab' });
    });
    channel.close();
    return { heard, ms: performance.now() - started };
  }, 'answering');
  expect(answer.heard).toMatchObject({ t: 'version', role: 'owner' });
  expect(answer.ms).toBeLessThan(1000);
  ok(await a.call('m', 'remember', [{ text: 'the owner keeps working' }]));
  expect(ok(await a.call('m', 'stats', []))).toMatchObject({ memories: 1 });
});
