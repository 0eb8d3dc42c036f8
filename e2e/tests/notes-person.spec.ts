/**
 * The notes app under a person's hands, in Chromium (Playwright) and Firefox ESR (puppeteer-core
 * over WebDriver BiDi): no waiting for the app's own ready flag or "saved" status between actions.
 * Clicks and typing start at t = 0 after a load or a reload, notes are written in quick
 * succession, edited while a save is in flight, deleted, searched while typing, and the page is
 * reloaded right after Save. Afterwards (waiting as long as it likes) each test checks that every
 * note is stored exactly once with its last text and is found by its words, and that no page
 * error happened. The seeded random walk tracks the expected notes beside the UI (a small
 * model-based test): ANAMNESIS_PERSON_ACTIONS actions (default 200; `pnpm test:soak` runs 2,000),
 * seed ANAMNESIS_PERSON_SEED. Scenarios and drivers: `person.ts`.
 */
import { inFirefox } from '../firefox.ts';
import { consoleErrors, expect, NOTES_URL, test } from './notes-fixtures.ts';
import {
  atTimeZero,
  checkNotes,
  inARow,
  newWhileStarting,
  playwrightPerson,
  puppeteerPerson,
  randomWalk,
  search,
  type Person,
} from './person.ts';

test.use({ baseURL: NOTES_URL });

const ACTIONS = Number(
  process.env.ANAMNESIS_PERSON_ACTIONS ?? (process.env.ANAMNESIS_SOAK ? 2000 : 200),
);
const SEED = Number(process.env.ANAMNESIS_PERSON_SEED ?? 20261126);

type Run = (person: Person) => Promise<void>;

/** Runs `body` as a person in Firefox ESR: a fresh profile; page errors and foreign requests fail it. */
function personInFirefox(body: Run): Promise<void> {
  return inFirefox(NOTES_URL, async (page, seen) => {
    await body(puppeteerPerson(page));
    expect(seen.errors).toEqual([]);
    expect(seen.foreign).toEqual([]);
  });
}

const BROWSERS = ['chromium', 'firefox'] as const;

for (const browser of BROWSERS) {
  test.describe(browser, () => {
    /** Runs `body` as a person in this describe's browser. */
    const asPerson = async (page: import('@playwright/test').Page, body: Run) => {
      if (browser === 'firefox') return personInFirefox(body);
      const errors = consoleErrors(page);
      await body(playwrightPerson(page));
      expect(errors).toEqual([]);
    };

    test('at t = 0 after a load and after a reload: new notes, a search while starting, a reload right after Save', async ({
      page,
    }) => {
      await asPerson(page, async (person) => {
        const expected = await atTimeZero(person, NOTES_URL + '/');
        await checkNotes(person, expected);
        // found by meaning too: no word in common
        expect((await search(person, 'my cat'))[0]).toBe('Luna');
      });
    });

    test('notes in a row, an edit while its save is in flight, a delete right after a save; then a reload', async ({
      page,
    }) => {
      await asPerson(page, async (person) => {
        const expected = await inARow(person, NOTES_URL + '/');
        await checkNotes(person, expected);
        await person.reload();
        await checkNotes(person, expected);
      });
    });

    test('New note clicked while the app starts, typed into after: a new note, the recent one intact', async ({
      page,
    }) => {
      await asPerson(page, async (person) => {
        const expected = await newWhileStarting(person, NOTES_URL + '/');
        await checkNotes(person, expected);
      });
    });

    test(`a seeded random walk of ${ACTIONS} actions (seed ${SEED}): every note kept once with its last text`, async ({
      page,
    }, info) => {
      test.setTimeout(Math.max(240_000, ACTIONS * 2000));
      await asPerson(page, async (person) => {
        const { expected, counts } = await randomWalk(person, NOTES_URL + '/', ACTIONS, SEED);
        await checkNotes(person, expected);
        await person.reload();
        await checkNotes(person, expected);
        const line = `${browser}: ${ACTIONS} actions ${JSON.stringify(counts)}; ${expected.size} notes checked`;
        info.annotations.push({ type: 'person', description: line });
        console.log(`[person] ${line}`);
      });
    });
  });
}
