/**
 * The notes app under a person's hands, in Chromium (Playwright) and Firefox ESR (puppeteer-core
 * over WebDriver BiDi): no waiting for the app's own ready flag or "saved" status between actions.
 * Clicks and typing start at t = 0 after a load or a reload, notes are written in quick
 * succession, edited while a save is in flight, deleted, searched while typing, and the page is
 * reloaded right after Save. Afterwards (waiting as long as it likes) each test checks that every
 * note is stored exactly once with its last text and is found by its words, and that no page
 * error happened. The seeded random walk tracks the expected notes beside the UI (a small
 * model-based test): ANAMNESIS_PERSON_ACTIONS actions (default 200 in Chromium and 80 in Firefox;
 * `pnpm test:soak` runs 2,000), seed ANAMNESIS_PERSON_SEED. Scenarios and drivers: `person.ts`.
 */
import { inFirefox } from '../firefox.ts';
import { consoleErrors, expect, NOTES_URL, test } from './notes-fixtures.ts';
import {
  atTimeZero,
  checkNotes,
  inARow,
  lockedAtOnce,
  newWhileStarting,
  playwrightPerson,
  puppeteerPerson,
  randomWalk,
  search,
  searchUntil,
  UI,
  until,
  writeNotes,
  type Person,
  type Shown,
} from './person.ts';

test.use({ baseURL: NOTES_URL });

/**
 * Actions of the random walk in each browser. Firefox, driven over WebDriver BiDi, takes about
 * three times as long an action as Chromium, so its walk is shorter by default (80, against 200);
 * `ANAMNESIS_PERSON_ACTIONS` sets both, `pnpm test:soak` runs 2,000 in each.
 */
const ACTIONS_SET =
  process.env.ANAMNESIS_PERSON_ACTIONS ?? (process.env.ANAMNESIS_SOAK ? '2000' : '');
const actionsIn = (browser: 'chromium' | 'firefox') =>
  Number(ACTIONS_SET || (browser === 'firefox' ? 80 : 200));
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
    const ACTIONS = actionsIn(browser);
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

    test('locked notes: Lock clicked while saves are in flight, the passphrase typed at once, a reload right after Save; every note kept', async ({
      page,
    }) => {
      await asPerson(page, async (person) => {
        const expected = await lockedAtOnce(person, NOTES_URL + '/');
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

/**
 * What a person finds (issue 27), in Chromium: notes typed and saved one after another without
 * waiting, then a search; the results are read once they hold the notes looked for, and the
 * order is the assertion. A title with a colon is not a speaker, words of Chinese are found inside
 * a sentence with no spaces, and of two notes the index sees as equal the newer comes first.
 */
test.describe('chromium: what a person finds', () => {
  /** Runs `body` as a person in Chromium at the app (page errors fail it). */
  const asPerson = async (page: import('@playwright/test').Page, body: Run) => {
    const errors = consoleErrors(page);
    const person = playwrightPerson(page);
    await person.goto(NOTES_URL + '/');
    await body(person);
    expect(errors).toEqual([]);
  };
  const titles = (shown: Shown[]) => shown.map((s) => s.title);

  test('a title with a colon is not a speaker: "meeting hiring freeze" finds the hiring-freeze note first', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [
        ['Meeting: parking lot', 'We will repaint the parking lot lines next week.'],
        ['Hiring freeze', 'The meeting decided on a hiring freeze until March.'],
      ]);
      const shown = await searchUntil(person, 'meeting hiring freeze', (s) =>
        ['Meeting: parking lot', 'Hiring freeze'].every((t) => titles(s).includes(t)),
      );
      expect(titles(shown)[0], JSON.stringify(shown)).toBe('Hiring freeze');
    });
  });

  test('a Chinese note among English ones: 烤鸭 finds 北京 (我今天在北京吃了烤鸭) first', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [
        ['Groceries', 'Eggs, oat milk, coffee beans and a loaf of bread.'],
        ['Roast duck', 'Roast the duck for two hours and glaze it with honey.'],
        ['北京', '我今天在北京吃了烤鸭'],
        ['Beijing trip', 'Flights to Beijing are booked for the spring holiday.'],
      ]);
      const shown = await searchUntil(person, '烤鸭', (s) => titles(s).includes('北京'));
      expect(titles(shown)[0], JSON.stringify(shown)).toBe('北京');
      expect(shown[0]!.snippet).toContain('我今天在北京吃了烤鸭');
    });
  });

  test('two notes the index sees as equal: "wifi password" finds the newer one first', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [['Wifi password', 'pinecone42']]);
      // a bit later, as a person writing the new password down
      await page.waitForTimeout(1_500);
      await writeNotes(person, [['Wifi password', 'bluebird7']]);
      const shown = await searchUntil(person, 'wifi password', (s) =>
        ['pinecone42', 'bluebird7'].every((b) => s.some((r) => r.snippet.includes(b))),
      );
      expect(titles(shown).slice(0, 2), JSON.stringify(shown)).toEqual([
        'Wifi password',
        'Wifi password',
      ]);
      expect(shown[0]!.snippet, JSON.stringify(shown)).toContain('bluebird7');
      expect(shown[1]!.snippet).toContain('pinecone42');
      // the older one says it was replaced, by the newer note (the engine's supersession)
      expect(await person.texts(`${UI.results} [data-testid="replaced-by"]`)).toEqual([
        expect.stringMatching(/^Replaced by a newer note\s*Wifi password\s*on /),
      ]);
    });
  });

  test('three notes saved in a row, then at once a search for the second: the list on screen ends with it first', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [
        ['Dentist', 'Checkup on Thursday at nine, bring the insurance card.'],
        ['Bike repair', 'The rear derailleur cable snapped; the shop fixes it Saturday.'],
        ['Groceries', 'Oat milk, lentils, two lemons and coffee beans.'],
      ]);
      // no wait for "saved": the search is typed at once, and the list must follow the saves
      const shown = await searchUntil(
        person,
        'derailleur cable',
        (s) => s[0]?.title === 'Bike repair',
      );
      expect(titles(shown)[0], JSON.stringify(shown)).toBe('Bike repair');
    });
  });

  test('a query about nothing stored says "No notes match"; a real one lists its note', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [
        ['Luna', 'I adopted a kitten named Luna from the shelter.'],
        ['Dentist', 'The dentist moved my appointment to Friday.'],
        ['Groceries', 'Buy oat milk, coffee and a loaf of bread.'],
        ['Running plan', 'Three easy runs a week, 5 km each.'],
      ]);
      // typed at once, while the notes may still be saving; read once the model answers
      const query = 'mortgage refinancing options';
      await person.fill(UI.search, query);
      const settled = await until(
        async () => ({
          query: await person.attribute(UI.results, 'data-query'),
          partial: await person.attribute(UI.results, 'data-partial'),
          titles: await person.texts(UI.resultTitles),
          none: await person.texts(`${UI.results} .no-results`),
        }),
        (v) => v.query === query && v.partial === 'false' && v.none.length === 1,
      );
      expect(settled.titles).toEqual([]);
      expect(settled.none).toEqual(['No notes match.']);
      const shown = await searchUntil(person, 'exercise plan', (s) => s.length > 0);
      expect(titles(shown)[0], JSON.stringify(shown)).toBe('Running plan');
    });
  });

  test('typed letter by letter without waiting: "panc" lists the pancake note first, "restaurnt" the restaurant', async ({
    page,
  }) => {
    await asPerson(page, async (person) => {
      await writeNotes(person, [
        ['Pan-fried trout', 'Four minutes skin side down in a hot pan, then lemon.'],
        ['Pancake batter', 'Flour, eggs and milk: enough for twelve pancakes.'],
        ['Restaurant booking', 'A table for four at the Italian place on Friday.'],
      ]);
      for (const typed of ['p', 'pa', 'pan', 'panc']) await person.fill(UI.search, typed);
      const shown = await searchUntil(person, 'panc', (s) => titles(s).includes('Pancake batter'));
      expect(titles(shown)[0], JSON.stringify(shown)).toBe('Pancake batter');
      const marks = await person.texts(`${UI.results} .result:first-child mark`);
      expect(marks).toEqual(['pancakes']); // the words it begins, not the letters typed
      const typo = await searchUntil(person, 'restaurnt', (s) =>
        titles(s).includes('Restaurant booking'),
      );
      expect(titles(typo)[0], JSON.stringify(typo)).toBe('Restaurant booking');
    });
  });
});
