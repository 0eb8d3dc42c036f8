/**
 * The notes app's Sync panel, as two people's devices would use it: two Chromium browser
 * contexts (each its own OPFS and storage), the sync server (`@y/websocket-server`'s handler)
 * started by this test on loopback. The first device makes a code; the second types it; notes
 * saved on either appear on the other, a deletion too, and after a reload sync starts again by
 * itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createEngine } from '@anamnesis/engine';
import { parseSyncCode } from '@anamnesis/sync';
import { startNodeSync } from '@anamnesis/sync/node';

import { startSyncServer, type SyncServer } from '../../packages/sync/test/server.ts';
import { consoleErrors, createNote, expect, NOTES_URL, openApp, test } from './notes-fixtures.ts';
import { inFirefox } from '../firefox.ts';
import { checkNotes, pairedAtOnce, playwrightPerson, puppeteerPerson } from './person.ts';

test.use({ baseURL: NOTES_URL });

let server: SyncServer;
let url: string;
test.beforeAll(async () => {
  server = await startSyncServer();
  url = server.url;
});
test.afterAll(() => server.close());

/** Starts sync in the Sync panel with `code` (a new one when undefined); returns the code. */
async function startSync(page: Page, code?: string): Promise<string> {
  const panel = page.getByRole('region', { name: 'Sync' });
  await panel.getByLabel('Sync server').fill(url);
  if (code === undefined) {
    await panel.getByRole('button', { name: 'New code' }).click();
    await expect(panel.getByLabel('Sync code')).not.toHaveValue('');
  } else await panel.getByLabel('Sync code').fill(code);
  const typed = await panel.getByLabel('Sync code').inputValue();
  await panel.getByRole('button', { name: 'Start sync' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-sync', 'synced', { timeout: 30_000 });
  return typed;
}

const titles = (page: Page) => page.getByRole('list', { name: 'Notes' }).locator('.note-title');

test('two devices pair with a sync code: notes saved or deleted on one appear on the other; after a reload sync starts again', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  await openApp(page);
  await createNote(page, 'Passport', 'The passport is in the blue folder.');
  const code = await startSync(page);
  // the first device of a code finds its room empty, and says so (a mistyped code would too)
  const status = (p: Page) => p.getByRole('region', { name: 'Sync' }).getByRole('status');
  await expect(status(page)).toContainText('No other device has used this code yet');

  const other = await browser.newContext({ baseURL: NOTES_URL });
  const second = await other.newPage();
  await openApp(second);
  await startSync(second, code.toLowerCase()); // typed in lower case: the same code
  await expect(titles(second)).toContainText(['Passport'], { timeout: 30_000 });

  await createNote(second, 'Plumber', 'Call the plumber about the leak on Monday.');
  await expect(titles(page)).toContainText(['Plumber'], { timeout: 30_000 });
  // another device's record arrived: the line is gone; the second device found the room in use
  await expect(status(page)).not.toContainText('No other device');
  await expect(status(second)).not.toContainText('No other device');
  // deleted on the first device: gone from the second
  await page.getByRole('button', { name: /^Passport/ }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(titles(second)).not.toContainText(['Passport'], { timeout: 30_000 });
  await expect(titles(second)).toContainText(['Plumber']);

  // a reload: the sync starts again by itself, and what the other device writes arrives
  await page.reload();
  await openApp(page);
  await expect(page.locator('body')).toHaveAttribute('data-sync', 'synced', { timeout: 30_000 });
  await createNote(second, 'Dentist', 'Dentist on Tuesday at 9:30.');
  await expect(titles(page)).toContainText(['Dentist'], { timeout: 30_000 });

  // a wrong code: told, and nothing of this device is sent
  const third = await (await browser.newContext({ baseURL: NOTES_URL })).newPage();
  await openApp(third);
  const panel = third.getByRole('region', { name: 'Sync' });
  await panel.getByLabel('Sync server').fill(url);
  await panel.getByLabel('Sync code').fill('ABCDE-ABCDE-ABCDE-ABCDE-ABCDE');
  await panel.getByRole('button', { name: 'Start sync' }).click();
  await expect(panel.getByRole('status')).toContainText('mistyped');
  // a well-formed code no other device uses: it syncs, and says that nobody else is there
  await panel.getByRole('button', { name: 'New code' }).click();
  await panel.getByRole('button', { name: 'Start sync' }).click();
  await expect(panel.getByRole('status')).toContainText('No other device has used this code yet', {
    timeout: 30_000,
  });
  expect(errors).toEqual([]);
  await other.close();
});

test('as people do it, without waiting: a note saved right after Start sync and a reload at once, a note written on the second device as soon as it pairs, a delete and a reload right after; both devices end with the same notes', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const errors = consoleErrors(page);
  const other = await browser.newContext({ baseURL: NOTES_URL });
  const second = await other.newPage();
  const secondErrors = consoleErrors(second);
  const a = playwrightPerson(page);
  const b = playwrightPerson(second);
  const expected = await pairedAtOnce(a, b, NOTES_URL, url);
  // now waiting as long as it likes: each device lists exactly these, finds each by its words
  const where = async () =>
    JSON.stringify(
      await Promise.all(
        [page, second].map(async (p) => ({
          sync: await p.locator('body').getAttribute('data-sync'),
          status: await p.getByRole('region', { name: 'Sync' }).textContent(),
        })),
      ),
    );
  for (const person of [a, b])
    await checkNotes(person, expected).catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}; the devices' sync: ${await where()}`);
    });
  expect(errors).toEqual([]);
  expect(secondErrors).toEqual([]);
  await other.close();
});

test('a note edited on two devices at once: the Sync panel shows both versions, and the one a person keeps reaches every device; deleted, it is in every Trash, restored from one, then emptied everywhere', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  await openApp(page);
  await createNote(page, 'Dentist', 'Leo dentist check-up on the 14th.');
  const code = await startSync(page);
  // two more devices of the same person (Node, each its own store file), offline from each other
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-notes-conflict-'));
  const devices = await Promise.all(
    ['a', 'b'].map(async (name) => {
      const path = join(dir, `${name}.db`);
      const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
      const sync = await startNodeSync(engine, path, { url, ...parseSyncCode(code) });
      return { engine, sync };
    }),
  );
  const [a, b] = devices as [(typeof devices)[0], (typeof devices)[0]];
  const noteOn = async (d: typeof a) =>
    (await d.engine.list({ limit: 10 })).find((m) => m.text.includes('dentist'));
  await expect.poll(async () => (await noteOn(a))?.text, { timeout: 30_000 }).toBeTruthy();
  await expect.poll(async () => (await noteOn(b))?.text, { timeout: 30_000 }).toBeTruthy();
  const note = (await noteOn(a))!;
  a.sync.disconnect();
  b.sync.disconnect();
  const moved = note.text.replace('on the 14th', 'moved to the 21st');
  const cancelled = note.text.replace('on the 14th', 'cancelled');
  await a.engine.update(note.id, { text: moved });
  await new Promise((r) => setTimeout(r, 5));
  await b.engine.update(note.id, { text: cancelled });
  a.sync.connect();
  b.sync.connect();

  const versions = page
    .getByRole('region', { name: 'Edited on two devices' })
    .getByRole('listitem');
  await expect(versions).toHaveCount(2, { timeout: 30_000 });
  await expect(versions.filter({ hasText: 'moved to the 21st' })).toHaveCount(1);
  await expect(versions.filter({ hasText: 'cancelled' })).toHaveCount(1);
  // the earlier edit is kept: every device ends with it, and no device lists a conflict
  await versions
    .filter({ hasText: 'moved to the 21st' })
    .getByRole('button', { name: 'Keep this version' })
    .click();
  await expect(versions).toHaveCount(0, { timeout: 30_000 });
  for (const d of [a, b]) {
    await expect.poll(async () => (await noteOn(d))?.text, { timeout: 30_000 }).toBe(moved);
    await expect.poll(() => d.sync.status().conflicts, { timeout: 30_000 }).toBe(0);
  }
  await page.getByRole('button', { name: /^Dentist/ }).click();
  await expect(page.getByLabel('Body')).toHaveValue(/moved to the 21st/);

  // deleted here: in the Trash of every device; restored from this one, it is back everywhere
  await page.getByRole('button', { name: 'Delete' }).click();
  const trash = page.getByRole('region', { name: 'Trash' });
  await expect(trash.getByRole('listitem')).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => a.sync.trash().length, { timeout: 30_000 }).toBe(1);
  await expect.poll(async () => await noteOn(b), { timeout: 30_000 }).toBeUndefined();
  await trash.getByRole('button', { name: 'Restore' }).click();
  await expect(titles(page)).toContainText(['Dentist'], { timeout: 30_000 });
  for (const d of [a, b])
    await expect.poll(async () => (await noteOn(d))?.text, { timeout: 30_000 }).toBe(moved);
  // deleted on another device, then Empty trash here: gone from every trash
  await a.engine.forget(note.id);
  await expect(trash.getByRole('listitem')).toHaveCount(1, { timeout: 30_000 });
  await expect(titles(page)).not.toContainText(['Dentist']);
  await trash.getByRole('button', { name: 'Empty trash' }).click();
  await expect(trash.getByRole('listitem')).toHaveCount(0, { timeout: 30_000 });
  for (const d of [a, b])
    await expect.poll(() => d.sync.trash().length, { timeout: 30_000 }).toBe(0);
  for (const d of devices) {
    await d.sync.close();
    await d.engine.close();
  }
  rmSync(dir, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

test('the Sync panel lists the devices of the code; removing a lost one changes the code: the other device moves, the lost one is told, and after a reload the app syncs on the new code', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  await openApp(page);
  const code = await startSync(page);
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-notes-devices-'));
  const [laptop, lost] = await Promise.all(
    ['laptop', 'old tablet'].map(async (name) => {
      const path = join(dir, `${name}.db`);
      const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
      const sync = await startNodeSync(engine, path, {
        url,
        ...parseSyncCode(code),
        deviceName: name,
      });
      return { engine, sync };
    }),
  );
  const moved: string[] = [];
  laptop!.sync.onCodeChange((c) => moved.push(c));
  const devices = page.getByRole('list', { name: 'Devices using this code' }).getByRole('listitem');
  await expect(devices).toHaveCount(3, { timeout: 30_000 });
  await expect(devices.filter({ hasText: 'this device' })).toHaveCount(1);
  const tablet = devices.filter({ hasText: 'old tablet' });
  await tablet.getByRole('button', { name: 'Remove' }).click();
  await tablet.getByRole('button', { name: /Remove old tablet now/ }).click();
  await expect.poll(() => moved.length, { timeout: 30_000 }).toBe(1);
  await expect
    .poll(() => lost!.sync.status().error?.code, { timeout: 30_000 })
    .toBe('SYNC_REMOVED');
  await expect(devices).toHaveCount(2, { timeout: 30_000 });
  // the page shows the new code to pair another device, and keeps it: a reload syncs on it
  await expect(page.locator('.sync-code')).toHaveText(moved[0]!);
  await page.reload();
  await openApp(page);
  await expect(page.locator('body')).toHaveAttribute('data-sync', 'synced', { timeout: 30_000 });
  await createNote(page, 'Alarm', 'The new alarm code is 9051.');
  await expect
    .poll(
      async () => (await laptop!.engine.list({ limit: 10 })).some((m) => m.text.includes('9051')),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  expect((await lost!.engine.list({ limit: 10 })).some((m) => m.text.includes('9051'))).toBe(false);
  for (const d of [laptop!, lost!]) {
    await d.sync.close();
    await d.engine.close();
  }
  rmSync(dir, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

test('as people do it, in Chromium and Firefox: paired without waiting (a note saved right after Start sync, a reload at once, a note written on Firefox as soon as it pairs, a delete and a reload); both end with the same notes', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = consoleErrors(page);
  const chromium = playwrightPerson(page);
  await inFirefox(NOTES_URL, async (firefoxPage, seen) => {
    const firefox = puppeteerPerson(firefoxPage);
    const expected = await pairedAtOnce(chromium, firefox, NOTES_URL, url);
    for (const person of [chromium, firefox]) await checkNotes(person, expected);
    // Firefox logs, as errors of its own, the sync server's WebSocket cut by a reload while it
    // connected ("…was interrupted while the page was loading", "…can't establish a connection"):
    // what a reload at once does; any other error fails
    const server = new URL(url).host;
    expect(seen.errors.filter((e) => !e.includes(`ws://${server}/`))).toEqual([]);
    // the one other origin: the sync server typed in (Firefox reports its WebSocket's handshake)
    expect(seen.foreign.filter((u) => new URL(u).host !== server)).toEqual([]);
  });
  expect(errors).toEqual([]);
});
