/**
 * The notes app under a person's hands: no waiting for the app's own ready flag or "saved" status
 * between actions. Clicks and typing start at t = 0 after a load or a reload, notes are written in
 * quick succession, edited while a save is in flight, deleted, searched while typing, and the page
 * is reloaded right after Save. Afterwards (waiting as long as it likes) the test checks that every
 * note is stored exactly once with its last text, is found by its words, and that no page error
 * happened. The seeded random walk tracks the expected notes beside the UI (a small model-based
 * test): ANAMNESIS_PERSON_ACTIONS actions (default 200; `pnpm test:soak` runs more), seed
 * ANAMNESIS_PERSON_SEED.
 */
import type { Page } from '@playwright/test';

import { consoleErrors, expect, NOTES_URL, test } from './notes-fixtures.ts';

test.use({ baseURL: NOTES_URL });

const ACTIONS = Number(
  process.env.ANAMNESIS_PERSON_ACTIONS ?? (process.env.ANAMNESIS_SOAK ? 2000 : 200),
);
const SEED = Number(process.env.ANAMNESIS_PERSON_SEED ?? 20261126);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['garden', 'river', 'violin', 'harbor', 'lantern', 'orchard', 'meadow', 'canyon'];

/** The titles in the notes list, once the list shows `expected` titles (any order). */
async function settledTitles(page: Page, expected: string[]): Promise<string[]> {
  await page.getByLabel('Search').fill('');
  const list = page.getByRole('list', { name: 'Notes' });
  await expect
    .poll(async () => (await list.locator('.note-title').allTextContents()).sort(), {
      timeout: 60_000,
    })
    .toEqual([...expected].sort());
  return list.locator('.note-title').allTextContents();
}

/** Every expected note: in the list exactly once, with its last body, found by its own word. */
async function checkNotes(page: Page, expected: Map<string, string>): Promise<void> {
  const titles = await settledTitles(page, [...expected.keys()]);
  expect(new Set(titles).size).toBe(titles.length);
  for (const [title, body] of expected) {
    await noteButton(page, title).click();
    await expect(page.getByLabel('Body')).toHaveValue(body);
  }
  for (const [title, body] of expected) {
    const word = body.split(' ')[0]!; // a token only this note has
    await page.getByLabel('Search').fill(word);
    const results = page.getByRole('list', { name: 'Results' });
    await expect(results).toHaveAttribute('data-query', word);
    await expect(results.locator('.result-title').first()).toHaveText(title);
  }
  await page.getByLabel('Search').fill('');
}

/** A note's button in the notes list ("Walk 1", not "Walk 10"). */
function noteButton(page: Page, title: string) {
  return page
    .getByRole('list', { name: 'Notes' })
    .getByRole('button', { name: new RegExp(`^${title}(\\s|$)`) });
}

async function write(page: Page, title: string, body: string): Promise<void> {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Body').fill(body);
  await page.getByRole('button', { name: 'Save' }).click();
}

test('at t = 0 after a load and after a reload: new notes, a search while starting, a reload right after Save', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await page.goto('/', { waitUntil: 'commit' });
  // no waiting: the page may still be starting
  await page.getByRole('button', { name: 'New note' }).click();
  await write(page, 'Luna', 'zqluna Adopted a kitten from the shelter; she naps on the sofa.');
  await page.getByLabel('Search').fill('kitten');
  await page.getByRole('button', { name: 'New note' }).click();
  await write(page, 'Taxes', 'zqtaxes The filing deadline is April 15; send receipts.');
  await page.reload({ waitUntil: 'commit' }); // right after Save
  await page.getByRole('button', { name: 'New note' }).click();
  await write(page, 'Bread', 'zqbread Sourdough starter: feed flour and water every evening.');
  await page.reload({ waitUntil: 'commit' });
  const expected = new Map([
    ['Luna', 'zqluna Adopted a kitten from the shelter; she naps on the sofa.'],
    ['Taxes', 'zqtaxes The filing deadline is April 15; send receipts.'],
    ['Bread', 'zqbread Sourdough starter: feed flour and water every evening.'],
  ]);
  await checkNotes(page, expected);
  // found by meaning too: no word in common
  await page.getByLabel('Search').fill('my cat');
  await expect(page.locator('.result .result-title').first()).toHaveText('Luna');
  expect(errors).toEqual([]);
});

test('notes in a row, an edit while its save is in flight, a delete right after a save', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await page.goto('/', { waitUntil: 'commit' });
  const expected = new Map<string, string>();
  for (let i = 0; i < 5; i++) {
    await page.getByRole('button', { name: 'New note' }).click();
    await write(page, `Row ${i}`, `zqrow${i} note number ${i} in a row`);
    expected.set(`Row ${i}`, `zqrow${i} note number ${i} in a row`);
  }
  // edit the last one while its save may still be running, and save again
  await page.getByLabel('Body').fill('zqrow4 edited while saving');
  await page.getByRole('button', { name: 'Save' }).click();
  expected.set('Row 4', 'zqrow4 edited while saving');
  // a new note saved and deleted at once
  await page.getByRole('button', { name: 'New note' }).click();
  await write(page, 'Gone', 'zqgone this note is deleted right after its save');
  await page.getByRole('button', { name: 'Delete' }).click();
  await checkNotes(page, expected);
  await page.reload();
  await checkNotes(page, expected);
  expect(errors).toEqual([]);
});

test(`a seeded random walk of ${ACTIONS} actions (seed ${SEED}): every note kept once with its last text`, async ({
  page,
}, info) => {
  test.setTimeout(Math.max(180_000, ACTIONS * 1500));
  const errors = consoleErrors(page);
  const random = mulberry32(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const expected = new Map<string, string>();
  /** The title of the note in the editor, if it was saved (or is being saved). */
  let inEditor: string | undefined;
  let next = 0;
  const counts: Record<string, number> = {};
  await page.goto('/', { waitUntil: 'commit' });
  for (let step = 0; step < ACTIONS; step++) {
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
      await page.getByRole('button', { name: 'New note' }).click();
      await write(page, title, body);
      expected.set(title, body);
      inEditor = title;
    } else if (action === 'edit' && inEditor) {
      const n = Number(inEditor.split(' ')[1]);
      const body = `zqw${n}x edited ${pick(WORDS)} at step ${step}`;
      await page.getByLabel('Body').fill(body);
      await page.getByRole('button', { name: 'Save' }).click();
      expected.set(inEditor, body);
    } else if (action === 'delete' && inEditor) {
      await page.getByRole('button', { name: 'Delete' }).click();
      expected.delete(inEditor);
      inEditor = undefined;
    } else if (action === 'search') {
      await page.getByLabel('Search').fill(pick(WORDS));
      await page.getByLabel('Search').fill('');
    } else if (action === 'open' && expected.size > 0) {
      // a person opens a note they can see in the list (waiting until it is listed is fine)
      const title = pick([...expected.keys()]);
      await page.getByLabel('Search').fill('');
      await noteButton(page, title).click();
      await expect(page.getByLabel('Body')).toHaveValue(expected.get(title)!);
      inEditor = title;
    } else if (action === 'reload') {
      await page.reload({ waitUntil: 'commit' });
      inEditor = undefined;
    }
  }
  await checkNotes(page, expected);
  await page.reload();
  await checkNotes(page, expected);
  expect(errors).toEqual([]);
  info.annotations.push({
    type: 'person',
    description: `${ACTIONS} actions (${JSON.stringify(counts)}), ${expected.size} notes checked`,
  });
  console.log(
    `[person] ${ACTIONS} actions ${JSON.stringify(counts)}; ${expected.size} notes checked`,
  );
});
