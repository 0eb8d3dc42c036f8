/**
 * The notes app's Lock panel in real Chromium: notes locked with a passphrase move into an
 * encrypted store (the plain one deleted), the app asks for the passphrase at every start (again
 * after a wrong one), the passphrase can be changed and the lock removed; the store's OPFS files
 * hold none of the notes' text while locked. Acting without waiting: a lock clicked right after a
 * save, and a reload right after the lock.
 */
import type { Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { launchProfile } from '../chromium.ts';

import {
  consoleErrors,
  createNote,
  expect,
  NOTES_URL,
  openApp,
  search,
  test,
} from './notes-fixtures.ts';

test.use({ baseURL: NOTES_URL, serviceWorkers: 'allow' });

const PASSPHRASE = 'tulips in the old harbour';
const NOTES = [
  ['Luna', 'Adopted a kitten from the shelter; she naps on the sofa.'],
  ['Vault', 'The combination is 31-17-42, behind the Vermeer.'],
] as const;

/** Types a new passphrase twice in the Lock panel and submits it. */
async function submitPassphrase(page: Page, passphrase: string, button: string): Promise<void> {
  const panel = page.getByRole('region', { name: 'Lock' });
  await panel.getByLabel('New passphrase', { exact: true }).fill(passphrase);
  await panel.getByLabel('Repeat the new passphrase').fill(passphrase);
  await panel.getByRole('button', { name: button }).click();
}

/** Unlocks at start and waits for the app (and its model). */
async function unlock(page: Page, passphrase: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Unlock notes' });
  await dialog.getByLabel('Passphrase').fill(passphrase);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  // "Unlocking…" until the notes can be written to (the screen goes) or the passphrase is refused
  // (the screen asks again): as a person, nothing is typed into the app meanwhile. Read in one
  // evaluation (a locator's read would wait for a screen that has just gone).
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const screen = document.querySelector('form.unlock');
          return !screen || screen.querySelector('.status')?.textContent !== 'Unlocking…';
        }),
      { timeout: 60_000 },
    )
    .toBe(true);
}

/**
 * The app's stores in OPFS and what their files hold: the app's page leaves (its worker lets the
 * files go), and another page of the origin that opens no store (the notices file; it is not
 * watched for console errors, as its favicon is a 404) reads them.
 */
async function opfsStores(page: Page, needles: string[]) {
  await page.goto('about:blank');
  const reader = await page.context().newPage();
  await reader.goto('/THIRD-PARTY-NOTICES.txt');
  const found = await reader.evaluate(async (words) => {
    const root = await navigator.storage.getDirectory();
    const top = await root.getDirectoryHandle('.anamnesis');
    const out: Record<string, string[]> = {};
    for await (const [name, store] of (
      top as unknown as { entries(): AsyncIterable<[string, FileSystemDirectoryHandle]> }
    ).entries()) {
      if (store.kind !== 'directory') continue;
      const opaque = await store.getDirectoryHandle('.opaque');
      let text = '';
      for await (const [, file] of (
        opaque as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
      ).entries()) {
        // the worker that held it may still be going away: try for a few seconds
        for (let i = 0; ; i++) {
          try {
            text += new TextDecoder('latin1').decode(await (await file.getFile()).arrayBuffer());
            break;
          } catch (e) {
            if (i > 50) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }
      out[name] = words.filter((w) => text.includes(w));
    }
    return out;
  }, needles);
  await reader.close();
  return found;
}

test('lock with a passphrase: asked at every start, a wrong one refused, the files unreadable; change it; remove the lock', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await openApp(page);
  for (const [title, body] of NOTES) await createNote(page, title, body);
  await expect(page.locator('body')).toHaveAttribute('data-lock', 'unlocked');

  // a passphrase typed differently, or too short, is refused before anything changes
  const panel = page.getByRole('region', { name: 'Lock' });
  await panel.getByLabel('New passphrase', { exact: true }).fill(PASSPHRASE);
  await panel.getByLabel('Repeat the new passphrase').fill(`${PASSPHRASE}!`);
  await panel.getByRole('button', { name: 'Lock notes' }).click();
  await expect(panel.getByRole('status')).toHaveText('the two passphrases differ');

  await submitPassphrase(page, PASSPHRASE, 'Lock notes');
  await expect(panel.getByRole('status')).toHaveText('2 notes locked', { timeout: 30_000 });
  await expect(page.locator('body')).toHaveAttribute('data-lock', 'locked');
  expect((await search(page, 'Vermeer'))[0]).toBe('Vault');

  const locked = await opfsStores(page, ['Vermeer', 'kitten', 'SQLite format 3']);
  expect(locked).toEqual({ 'notes-locked': [] }); // the plain store is gone, nothing readable

  // every start asks; a wrong passphrase is refused and asked again
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-lock', 'ask');
  await unlock(page, 'tulips in the new harbour');
  await expect(page.getByRole('dialog', { name: 'Unlock notes' }).getByRole('alert')).toHaveText(
    'That passphrase does not open these notes.',
  );
  await unlock(page, PASSPHRASE);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('body[data-model="ready"]', { state: 'attached' });
  expect((await search(page, 'my cat'))[0]).toBe('Luna');

  // change the passphrase: the old one no longer opens the notes
  await submitPassphrase(page, 'a much longer passphrase now', 'Change passphrase');
  await expect(panel.getByRole('status')).toHaveText('passphrase changed', { timeout: 30_000 });
  await page.reload();
  await unlock(page, PASSPHRASE);
  await expect(page.getByRole('dialog', { name: 'Unlock notes' }).getByRole('alert')).toHaveText(
    'That passphrase does not open these notes.',
  );
  await unlock(page, 'a much longer passphrase now');
  await page.waitForSelector('body[data-ready="true"]');

  // remove the lock: a start asks nothing, the notes are there, the encrypted store is gone
  await panel.getByRole('button', { name: 'Remove the lock' }).click();
  await expect(panel.getByRole('status')).toHaveText('lock removed from 2 notes', {
    timeout: 30_000,
  });
  await page.reload();
  await openApp(page);
  await expect(page.locator('body')).toHaveAttribute('data-lock', 'unlocked');
  expect((await search(page, 'Vermeer'))[0]).toBe('Vault');
  expect(Object.keys(await opfsStores(page, []))).toEqual(['notes']);
  expect(errors).toEqual([]);
});

test('as a person: Lock clicked right after Save, a reload right after the lock; nothing is lost', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await openApp(page);
  // Save and at once lock, without waiting for "saved"
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('Quick');
  await page.getByLabel('Body').fill('Written and locked at once: the ferry leaves at nine.');
  await page.getByRole('button', { name: 'Save' }).click();
  await submitPassphrase(page, PASSPHRASE, 'Lock notes');
  await expect(page.getByRole('region', { name: 'Lock' }).getByRole('status')).toHaveText(
    '1 notes locked',
    { timeout: 30_000 },
  );
  await page.reload(); // at once
  await unlock(page, PASSPHRASE);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('body[data-model="ready"]', { state: 'attached' });
  expect((await search(page, 'ferry'))[0]).toBe('Quick');
  // a note written while locked is kept through a reload right after Save too
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('After');
  await page.getByLabel('Body').fill('A note saved in the locked store, reloaded at once.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.reload();
  await unlock(page, PASSPHRASE);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('body[data-model="ready"]', { state: 'attached' });
  expect(await search(page, 'reloaded locked store')).toContain('After');
  expect(errors).toEqual([]);
});

test('notes locked at once on the first visit open offline after', async ({ page, context }) => {
  const errors = consoleErrors(page);
  // The lock at once on the first visit, without waiting for the model. The cipher build is kept
  // for offline use by the service worker when it fetches it for a page it controls, and, for a
  // lock made before it controls the page, because the app asks it to (`keep-cipher`). (Here the
  // worker of the reopened store is already controlled on this machine, so the first way alone
  // passes this test too.)
  await page.goto('/');
  await page.waitForSelector('body[data-ready="true"]');
  await createNote(page, 'Quick', 'Written and locked at once: the ferry leaves at nine.');
  await submitPassphrase(page, PASSPHRASE, 'Lock notes');
  await expect(page.getByRole('region', { name: 'Lock' }).getByRole('status')).toHaveText(
    '1 notes locked',
    { timeout: 30_000 },
  );
  // the app asked the service worker to keep it
  await page.waitForSelector('body[data-cipher-kept="true"]', { state: 'attached' });
  await context.setOffline(true);
  try {
    await page.reload();
    await unlock(page, PASSPHRASE);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('body[data-store="open"]', { state: 'attached' });
    expect(await search(page, 'ferry')).toContain('Quick');
  } finally {
    await context.setOffline(false);
  }
  expect(errors).toEqual([]);
});

test('with another tab of the app open, locking is refused and nothing changes; once it is closed, it locks', async ({
  page,
  context,
}) => {
  await openApp(page);
  await createNote(page, 'Shared', 'Two tabs are open on these notes.');
  const other = await context.newPage();
  await openApp(other);
  await submitPassphrase(page, PASSPHRASE, 'Lock notes');
  const status = page.getByRole('region', { name: 'Lock' }).getByRole('status');
  await expect(status).toHaveText(
    'close the app’s other tabs first: they would keep writing to the old store',
  );
  await expect(page.locator('body')).toHaveAttribute('data-lock', 'unlocked');
  expect((await search(page, 'two tabs open'))[0]).toBe('Shared');
  await other.close();
  await submitPassphrase(page, PASSPHRASE, 'Lock notes');
  await expect(status).toHaveText('1 notes locked', { timeout: 30_000 });
});

/** Every file under `dir` holding one of `needles` (as UTF-8 or UTF-16), with the needles found. */
function filesHolding(dir: string, needles: string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      continue; // a lock file or one removed meanwhile
    }
    const hits = needles.filter(
      (n) => bytes.includes(Buffer.from(n, 'utf8')) || bytes.includes(Buffer.from(n, 'utf16le')),
    );
    if (hits.length > 0) found[relative(dir, path)] = hits;
  }
  return found;
}

test('locked notes leave no text in the browser profile: not in the session files, the form state, Local Storage or the DOM behind the lock', async () => {
  // words no file of the app holds: made now
  const mark = `qx${Math.random().toString(36).slice(2, 10)}`;
  const saved = [`${mark}title`, `${mark}body`, `${mark}tag`];
  const draft = `${mark}draft`;
  const profile = await launchProfile('anamnesis-locked-', {
    baseURL: NOTES_URL,
    serviceWorkers: 'allow',
  });
  try {
    const page = profile.context.pages()[0] ?? (await profile.context.newPage());
    await openApp(page);
    await submitPassphrase(page, PASSPHRASE, 'Lock notes');
    await expect(page.getByRole('region', { name: 'Lock' }).getByRole('status')).toHaveText(
      '0 notes locked',
      { timeout: 30_000 },
    );
    // a note written while locked, saved; another typed and left unsaved in the editor
    await createNote(page, saved[0]!, `The spare key is under the statue ${saved[1]}`, saved[2]);
    await page.getByRole('button', { name: 'New note' }).click();
    await page.getByLabel('Title').fill(draft);
    await page.getByLabel('Body').fill(`half written ${draft}`);
    // the tab's state is saved as a person leaves it (navigation, then the browser closing)
    await page.goto('/THIRD-PARTY-NOTICES.txt');
    await page.goBack();
    await expect(page.getByRole('dialog', { name: 'Unlock notes' })).toBeVisible();
    // behind the lock: no note text in the page, nothing restored into a field
    expect(await page.content()).not.toContain(mark);
    for (const field of ['Title', 'Body', 'Tags'])
      expect(await page.getByLabel(field, { exact: true }).inputValue()).toBe('');
    await profile.context.close();
    expect(filesHolding(profile.dir, [...saved, draft])).toEqual({});
  } finally {
    await profile.close();
  }
});
