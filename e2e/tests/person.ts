/**
 * A person at the notes app, in any browser: the few things a person does (click, type, reload),
 * behind one interface with a Playwright driver (Chromium) and a puppeteer-core driver (Firefox ESR
 * over WebDriver BiDi), and the scenarios of `notes-person.spec.ts` written against it. No driver
 * waits for the app's own flags: a click waits only for its element to exist, as a person's does.
 */
import type { Page } from '@playwright/test';
import type { Page as PuppeteerPage } from 'puppeteer-core';

import { rng as mulberry32 } from '../../apps/bench/src/corpus.ts';

/** What a person does to a page. */
export interface Person {
  goto(url: string): Promise<void>;
  /** Reloads and returns at once (the new page may still be starting). */
  reload(): Promise<void>;
  click(selector: string): Promise<void>;
  /** Replaces the text of an input or textarea, as typing it would (an `input` event). */
  fill(selector: string, text: string): Promise<void>;
  /** Clicks the note titled `title` in the notes list (waiting until it is listed). */
  openNote(title: string): Promise<void>;
  value(selector: string): Promise<string>;
  texts(selector: string): Promise<string[]>;
  attribute(selector: string, name: string): Promise<string | null>;
}

export const UI = {
  newNote: '#new-note',
  title: '#title',
  body: '#body',
  save: '.editor .actions button.primary',
  remove: '.editor .actions button.danger',
  search: '#search',
  noteTitles: '#notes .note-title',
  results: '#results',
  resultTitles: '#results .result-title',
  lockFirst: 'section[aria-label="Lock"] input[aria-label="New passphrase"]',
  lockSecond: 'section[aria-label="Lock"] input[aria-label="Repeat the new passphrase"]',
  lockSubmit: 'section[aria-label="Lock"] form button[type="submit"]',
  syncServer: 'section[aria-label="Sync"] input[aria-label="Sync server"]',
  syncCode: 'section[aria-label="Sync"] input[aria-label="Sync code"]',
  syncNewCode: 'section[aria-label="Sync"] form button[type="button"]',
  syncStart: 'section[aria-label="Sync"] form button[type="submit"]',
  unlockPassphrase: '#unlock-passphrase',
  unlockSubmit: 'form.unlock button[type="submit"]',
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function playwrightPerson(page: Page): Person {
  return {
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'commit' });
    },
    reload: async () => {
      // A reload right after another one can meet Chromium between two documents ("Not
      // attached to an active page"): as a person's second press would, it goes through a moment
      // later.
      for (let attempt = 0; ; attempt++) {
        try {
          await page.reload({ waitUntil: 'commit' });
          return;
        } catch (e) {
          if (attempt >= 20 || !/not attached|navigation|interrupted/i.test(String(e))) throw e;
          await sleep(50);
        }
      }
    },
    click: (selector) => page.click(selector),
    fill: (selector, text) => page.fill(selector, text),
    openNote: async (title) => {
      // The list is re-ordered whenever a save lands: between the look and the click, another
      // note can move under the pointer, as under a person's. Check the editor; click again.
      for (let attempt = 0; ; attempt++) {
        await page
          .locator('#notes .note-link')
          .filter({ has: page.locator('.note-title', { hasText: new RegExp(`^${title}$`) }) })
          .click();
        const opened = await until(
          () => page.inputValue('#title'),
          (v) => v === title,
          2_000,
        );
        if (opened === title) return;
        if (attempt >= 10) throw new Error(`clicking ${title} opened ${opened}`);
      }
    },
    value: (selector) => page.inputValue(selector),
    texts: (selector) => page.locator(selector).allTextContents(),
    attribute: (selector, name) => page.getAttribute(selector, name),
  };
}

/** Polls `read` until `ok` holds of it, for up to `ms`; returns the last value read. */
export async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = await read();
      if (ok(value)) return value;
    } catch {
      // the page is (re)loading
    }
    if (Date.now() > end) {
      if (value === undefined) throw new Error('nothing could be read before the deadline');
      return value;
    }
    await sleep(100);
  }
}

export function puppeteerPerson(page: PuppeteerPage): Person {
  const present = (selector: string) =>
    until(
      () => page.$(selector),
      (h) => h !== null,
    ).then((h) => {
      if (!h) throw new Error(`${selector} never appeared`);
      return h;
    });
  return {
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'domcontentloaded' });
    },
    reload: async () => {
      await page.reload({ waitUntil: 'domcontentloaded' });
    },
    click: async (selector) => (await present(selector)).click(),
    fill: async (selector, text) => {
      const handle = await present(selector);
      await handle.evaluate((el, t) => {
        (el as HTMLInputElement).value = t;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
    },
    openNote: async (title) => {
      // The list is re-rendered whenever a save lands: a button found a moment ago may be gone
      // by the click, as under a person's pointer; look again and click the new one.
      for (let attempt = 0; ; attempt++) {
        const index = await until(
          () =>
            page.$$eval(
              '#notes .note-title',
              (els, t) => els.findIndex((e) => e.textContent === t),
              title,
            ),
          (i) => i >= 0,
        );
        if (index < 0) throw new Error(`note ${title} is not listed`);
        try {
          await (await page.$$('#notes .note-link'))[index]!.click();
          // the list may have been re-ordered between the look and the click: check the editor
          const opened = await until(
            () => page.$eval('#title', (el) => (el as HTMLInputElement).value),
            (v) => v === title,
            2_000,
          );
          if (opened === title) return;
          if (attempt >= 10) throw new Error(`clicking ${title} opened ${opened}`);
        } catch (e) {
          if (attempt >= 10 || !/detached|not connected/i.test(String(e))) throw e;
        }
      }
    },
    value: (selector) => page.$eval(selector, (el) => (el as HTMLInputElement).value),
    texts: (selector) => page.$$eval(selector, (els) => els.map((e) => e.textContent ?? '')),
    attribute: (selector, name) => page.$eval(selector, (el, n) => el.getAttribute(n), name),
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/** Fills the editor and clicks Save, without waiting for anything. */
export async function write(person: Person, title: string, body: string): Promise<void> {
  await person.fill(UI.title, title);
  await person.fill(UI.body, body);
  await person.click(UI.save);
}

/**
 * Searches and returns the result titles once the results are for `query` and found with the
 * model (a person sees "by words: the model is loading" and waits).
 */
export async function search(person: Person, query: string): Promise<string[]> {
  await person.fill(UI.search, query);
  await until(
    async () =>
      `${await person.attribute(UI.results, 'data-query')}\u0000${await person.attribute(UI.results, 'data-partial')}`,
    (v) => v === `${query}\u0000false`,
  );
  return person.texts(UI.resultTitles);
}

/**
 * Every expected note: listed exactly once, with its last body, first for a word only it has
 * (its body's first word). Throws with what it saw otherwise.
 */
export async function checkNotes(person: Person, expected: Map<string, string>): Promise<void> {
  await person.fill(UI.search, '');
  const want = [...expected.keys()].sort().join('\n');
  const titles = await until(
    () => person.texts(UI.noteTitles),
    (t) => [...t].sort().join('\n') === want,
  );
  if ([...titles].sort().join('\n') !== want)
    throw new Error(
      `notes listed: ${JSON.stringify(titles)}; expected ${JSON.stringify([...expected.keys()])}`,
    );
  for (const [title, body] of expected) {
    await person.openNote(title);
    const shown = await until(
      () => person.value(UI.body),
      (v) => v === body,
      10_000,
    );
    if (shown !== body)
      throw new Error(`${title} shows ${JSON.stringify(shown)}, not ${JSON.stringify(body)}`);
  }
  for (const [title, body] of expected) {
    const word = body.split(' ')[0]!;
    const results = await search(person, word);
    if (results[0] !== title)
      throw new Error(`search ${word}: ${JSON.stringify(results)}, not ${title} first`);
  }
  await person.fill(UI.search, '');
}

/** New notes at t = 0 after a load and after reloads, a search while starting; returns what must be kept. */
export async function atTimeZero(person: Person, url: string): Promise<Map<string, string>> {
  await person.goto(url);
  await person.click(UI.newNote);
  await write(person, 'Luna', 'zqluna Adopted a kitten from the shelter; she naps on the sofa.');
  await person.fill(UI.search, 'kitten');
  await person.click(UI.newNote);
  await write(person, 'Taxes', 'zqtaxes The filing deadline is April 15; send receipts.');
  await person.reload(); // right after Save
  await person.click(UI.newNote);
  await write(person, 'Bread', 'zqbread Sourdough starter: feed flour and water every evening.');
  await person.reload();
  return new Map([
    ['Luna', 'zqluna Adopted a kitten from the shelter; she naps on the sofa.'],
    ['Taxes', 'zqtaxes The filing deadline is April 15; send receipts.'],
    ['Bread', 'zqbread Sourdough starter: feed flour and water every evening.'],
  ]);
}

/** Types the passphrase into the unlock screen and submits it, as soon as it is there. */
async function unlockAtOnce(person: Person, passphrase: string): Promise<void> {
  await person.fill(UI.unlockPassphrase, passphrase);
  await person.click(UI.unlockSubmit);
  // a person sees the unlock screen ("Unlocking…") until the notes can be written to, and then
  // writes at once
  await until(
    () => person.texts(UI.unlockPassphrase),
    (shown) => shown.length === 0,
  );
}

/**
 * Locked notes under a person's hands: two notes written in a row and Lock clicked at once (the
 * saves still in flight); once locked, a reload, the passphrase typed as soon as it is asked, a
 * new note written at once and a reload right after its Save; then unlocked again.
 */
export async function lockedAtOnce(person: Person, url: string): Promise<Map<string, string>> {
  const passphrase = 'tulips in the old harbour';
  await person.goto(url);
  await person.click(UI.newNote);
  await write(person, 'Ferry', 'zqferry The ferry to the island leaves at nine.');
  await person.click(UI.newNote);
  await write(person, 'Vault', 'zqvault The combination is behind the Vermeer.');
  await person.fill(UI.lockFirst, passphrase);
  await person.fill(UI.lockSecond, passphrase);
  await person.click(UI.lockSubmit);
  const lock = await until(
    () => person.attribute('body', 'data-lock'),
    (v) => v === 'locked',
  );
  if (lock !== 'locked') throw new Error(`the notes did not lock (data-lock=${lock})`);
  await person.reload();
  await unlockAtOnce(person, passphrase);
  await person.click(UI.newNote);
  await write(person, 'Quick', 'zqquick Written as soon as the notes were unlocked.');
  await person.reload(); // right after Save
  await unlockAtOnce(person, passphrase);
  return new Map([
    ['Ferry', 'zqferry The ferry to the island leaves at nine.'],
    ['Vault', 'zqvault The combination is behind the Vermeer.'],
    ['Quick', 'zqquick Written as soon as the notes were unlocked.'],
  ]);
}

/** Notes in a row, an edit while its save runs, a note deleted right after its save. */
export async function inARow(person: Person, url: string): Promise<Map<string, string>> {
  await person.goto(url);
  const expected = new Map<string, string>();
  for (let i = 0; i < 5; i++) {
    await person.click(UI.newNote);
    await write(person, `Row ${i}`, `zqrow${i} note number ${i} in a row`);
    expected.set(`Row ${i}`, `zqrow${i} note number ${i} in a row`);
  }
  await person.fill(UI.body, 'zqrow4 edited while saving');
  await person.click(UI.save);
  expected.set('Row 4', 'zqrow4 edited while saving');
  await person.click(UI.newNote);
  await write(person, 'Gone', 'zqgone this note is deleted right after its save');
  await person.click(UI.remove);
  return expected;
}

/**
 * New note clicked while the app starts, typed into only once it has started (the person looked
 * away): a new note is saved, and the most recent note, which the start would otherwise open in
 * the editor, keeps its text.
 */
export async function newWhileStarting(person: Person, url: string): Promise<Map<string, string>> {
  await person.goto(url);
  await person.click(UI.newNote);
  await write(person, 'Older', 'zqolder written first');
  await person.click(UI.newNote);
  await write(person, 'Recent', 'zqrecent the most recent note');
  await until(
    () => person.texts(UI.noteTitles),
    (t) => t.includes('Recent') && t.includes('Older'),
  );
  await person.reload();
  await person.click(UI.newNote);
  await until(
    () => person.attribute('body', 'data-ready'),
    (ready) => ready === 'true',
  );
  await write(person, 'Fresh', 'zqfresh typed after the start');
  return new Map([
    ['Older', 'zqolder written first'],
    ['Recent', 'zqrecent the most recent note'],
    ['Fresh', 'zqfresh typed after the start'],
  ]);
}

const WORDS = ['garden', 'river', 'violin', 'harbor', 'lantern', 'orchard', 'meadow', 'canyon'];

/**
 * A seeded random walk of person actions (new note, edit, delete, search while typing, open a
 * listed note, reload), with the notes it must leave tracked beside it.
 */
export async function randomWalk(
  person: Person,
  url: string,
  actions: number,
  seed: number,
): Promise<{ expected: Map<string, string>; counts: Record<string, number> }> {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const expected = new Map<string, string>();
  let inEditor: string | undefined;
  let next = 0;
  const counts: Record<string, number> = {};
  await person.goto(url);
  for (let step = 0; step < actions; step++) {
    const r = random();
    const action =
      r < 0.35
        ? 'new'
        : r < 0.55
          ? 'edit'
          : r < 0.65
            ? 'delete'
            : r < 0.9
              ? 'search'
              : r < 0.95
                ? 'open'
                : 'reload';
    counts[action] = (counts[action] ?? 0) + 1;
    if (action === 'new') {
      const n = next++;
      const title = `Walk ${n}`;
      const body = `zqw${n}x ${pick(WORDS)} ${pick(WORDS)} note ${n}`;
      await person.click(UI.newNote);
      await write(person, title, body);
      expected.set(title, body);
      inEditor = title;
    } else if (action === 'edit' && inEditor) {
      const n = Number(inEditor.split(' ')[1]);
      const body = `zqw${n}x edited ${pick(WORDS)} at step ${step}`;
      await person.fill(UI.body, body);
      await person.click(UI.save);
      expected.set(inEditor, body);
    } else if (action === 'delete' && inEditor) {
      await person.click(UI.remove);
      expected.delete(inEditor);
      inEditor = undefined;
    } else if (action === 'search') {
      await person.fill(UI.search, pick(WORDS));
      await person.fill(UI.search, '');
    } else if (action === 'open' && expected.size > 0) {
      const title = pick([...expected.keys()]);
      await person.fill(UI.search, '');
      await person.openNote(title);
      const body = expected.get(title)!;
      const shown = await until(
        () => person.value(UI.body),
        (v) => v === body,
        10_000,
      );
      if (shown !== body)
        throw new Error(
          `${title} opened with ${JSON.stringify(shown)}, not ${JSON.stringify(body)}`,
        );
      inEditor = title;
    } else if (action === 'reload') {
      await person.reload();
      inEditor = undefined;
    }
  }
  return { expected, counts };
}

// ---------------------------------------------------------------------------------------------
// What a person finds (issue 27): notes written without waiting, then one search, read once the
// results hold the notes the person is looking for (each save re-runs the search on screen).

/** One result on screen: its title and its snippet (the text after the title). */
export interface Shown {
  title: string;
  snippet: string;
}

/**
 * Types `query` into the search field and reads the results, best first, once they are for
 * `query`, found with the model, and `settled` holds of them (say, every note written is among
 * them: saves still landing re-run the search). After `ms` it returns what is shown, settled or not.
 */
export async function searchUntil(
  person: Person,
  query: string,
  settled: (shown: Shown[]) => boolean,
  ms = 20_000,
): Promise<Shown[]> {
  await person.fill(UI.search, query);
  const read = async (): Promise<Shown[] | null> => {
    if ((await person.attribute(UI.results, 'data-query')) !== query) return null;
    if ((await person.attribute(UI.results, 'data-partial')) !== 'false') return null;
    const titles = await person.texts(UI.resultTitles);
    const snippets = await person.texts(`${UI.results} .snippet`);
    if (titles.length !== snippets.length) return null; // read across two paints
    return titles.map((title, i) => ({ title, snippet: snippets[i]! }));
  };
  const shown = await until(read, (s) => s !== null && settled(s), ms);
  if (shown === null) throw new Error(`no results for ${JSON.stringify(query)} were shown`);
  return shown;
}

/** New notes, one after another, each typed and saved without waiting for the one before. */
export async function writeNotes(
  person: Person,
  notes: readonly (readonly [title: string, body: string])[],
): Promise<void> {
  for (const [title, body] of notes) {
    await person.click(UI.newNote);
    await write(person, title, body);
  }
}

/**
 * Two devices paired as people do it, without waiting for the app: the first writes a note at
 * t = 0, makes a code and starts sync, writes a second note at once and reloads right after its
 * Save; the second device types the code, starts sync and writes a note at once; the first then
 * deletes its first note and reloads right after. Returns what both must end with.
 */
export async function pairedAtOnce(
  first: Person,
  second: Person,
  url: string,
  server: string,
): Promise<Map<string, string>> {
  await first.goto(url);
  await first.click(UI.newNote);
  await write(first, 'Ticket', 'zqticket The train tickets are in the inbox.');
  await first.fill(UI.syncServer, server);
  await first.click(UI.syncNewCode);
  const code = await until(
    () => first.value(UI.syncCode),
    (v) => v.length > 0,
  ); // read off the screen
  await first.click(UI.syncStart);
  await first.click(UI.newNote);
  await write(first, 'Boiler', 'zqboiler The boiler service is on the third of March.');
  await first.reload(); // right after Save
  await second.goto(url);
  await second.fill(UI.syncServer, server);
  await second.fill(UI.syncCode, code);
  await second.click(UI.syncStart);
  await second.click(UI.newNote);
  await write(second, 'Plants', 'zqplants Water the plants on the balcony twice a week.');
  await first.openNote('Ticket'); // the app has started again by now, as a person sees
  await first.click(UI.remove);
  await first.reload(); // right after the delete
  return new Map([
    ['Boiler', 'zqboiler The boiler service is on the third of March.'],
    ['Plants', 'zqplants Water the plants on the balcony twice a week.'],
  ]);
}
