/**
 * WebKit (the engine of Safari and of every iOS browser): WebKitGTK's MiniBrowser over W3C
 * WebDriver under Xvfb (`webdriver.ts`), on the example app and the notes app as built for users
 * (`apps/example/dist`, `apps/notes/dist`, served as a static server would). What a WebKit user
 * gets is asserted as it is, not as we would like it: in WebDriver's automation session the
 * website data store is ephemeral and `navigator.storage.getDirectory()` fails (without OPFS
 * feature flags the API is missing; with `--features=+FileSystem,+StorageAPI` it rejects with
 * `UnknownError`), so the store lives in memory and the apps say so; everything else (the worker,
 * SQLite-WASM with FTS5, the default model, recall by words and meaning, the notes a person writes
 * in a row) must work. Runs after the Playwright suites (`pnpm test:e2e`), which build the apps.
 *
 * No persistence test, measured on WebKitGTK 2.50.6: MiniBrowser has no option for a data
 * directory in automation mode (`--automation` makes its data store ephemeral: nothing is written
 * under `$XDG_DATA_HOME`), and WebKitWebDriver creates no session without `--automation`. Outside
 * automation, with its persistent data directory and `--features=+FileSystem,+AccessHandle`, OPFS
 * files do survive a restart, but `createSyncAccessHandle()` rejects in a dedicated worker
 * (`NotSupportedError: Backend does not support this operation`), so the store is in memory there
 * too and nothing survives a reload.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { serveStatic, type StaticServer } from '../../apps/bench/src/static-server.ts';
import { checkNotes, inARow, until } from '../tests/person.ts';
import { startWebKit, webkitPerson, type WebKit } from './webdriver.ts';

const dist = (app: string) => fileURLToPath(new URL(`../../apps/${app}/dist`, import.meta.url));

let webkit: WebKit;
const servers: StaticServer[] = [];

beforeAll(async () => {
  for (const app of ['example', 'notes'])
    if (!existsSync(dist(app))) throw new Error(`build apps/${app} first (pnpm test:e2e does)`);
  webkit = await startWebKit();
}, 60_000);

// No request leaves 127.0.0.1 (where the apps are served): any other host's went to the browser's
// proxy, which refused it and lists it here.
afterEach(() => {
  expect(webkit.foreign.splice(0), "requests to other hosts than the app's").toEqual([]);
});

afterAll(async () => {
  await webkit?.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(app: string): Promise<string> {
  const server = await serveStatic(dist(app));
  servers.push(server);
  return `${server.url}/`;
}

/** Opens the example app and waits until its store is ready (or failed: then the test fails). */
async function openExample(): Promise<void> {
  await webkit.goto(await serve('example'));
  const state = await until(
    () =>
      webkit.run<string>('try { return window.memory.state } catch (e) { return "no memory yet" }'),
    (s) => s === 'ready' || s === 'failed',
  );
  expect(state).toBe('ready');
}

describe(`WebKit (MiniBrowser)`, () => {
  it('the example app: the store opens in its worker (in memory, and says why), remembers, recalls by words and meaning', async () => {
    await openExample();
    const out = await webkit.runAsync<string>(
      `const done = arguments[arguments.length - 1];
       (async () => {
         const m = window.memory;
         await m.rememberMany([
           { text: 'I adopted a kitten named Luna and she sleeps on the sofa' },
           { text: 'the quarterly tax filing deadline is in april' },
         ]);
         const byWords = await m.recall('kitten Luna');
         while (!m.readiness.model) await new Promise((r) => setTimeout(r, 50));
         const byMeaning = await m.recall('my pet cat');
         const stats = await m.stats();
         let opfs;
         try { await navigator.storage.getDirectory(); opfs = 'available'; } catch (e) { opfs = String(e); }
         done(JSON.stringify({
           byWords: byWords[0]?.text, byMeaning: byMeaning[0]?.text, partial: byMeaning[0]?.partial ?? false,
           memories: stats.memories, backend: stats.backend, reason: stats.backendReason ?? null,
           device: m.info.device, opfs,
         }));
       })().catch((e) => done('error: ' + e));`,
    );
    const r = JSON.parse(out) as Record<string, unknown>;
    console.log(`WebKit ${webkit.browserVersion}: ${out}`);
    expect(r.byWords).toContain('kitten');
    expect(r.byMeaning).toContain('kitten'); // no word in common: the model's vectors found it
    expect(r.partial).toBe(false);
    expect(r.memories).toBe(2);
    // Measured, not hoped: no OPFS in the automation session; the store says why it is in memory.
    expect(r.backend).toBe('memory');
    expect(String(r.reason)).toMatch(/OPFS is not available/);
  });

  it('the example app: over 24 varied memories, a question sharing no word with its answer finds it first, through the vector leg', async () => {
    await openExample();
    // Natural notes on unrelated matters; some share the question's little words ("what", "do",
    // "I"), none its content words ("vehicle", "own"), and the car shares none.
    const notes = [
      'My car is a blue Fiat Panda',
      'I file the taxes every spring with a spreadsheet',
      'What I want for my birthday is a pair of hiking boots',
      'The dentist appointment moved to Thursday at nine',
      'Grandma’s lasagne needs two hours in the oven',
      'I adopted a kitten named Luna and she sleeps on the sofa',
      'Sara recommended the novel The Remains of the Day',
      'The Wi-Fi password at the cabin is written under the router',
      'I do not like coriander in anything',
      'Book club meets on the first Monday of the month',
      'The landlord said the boiler will be serviced in October',
      'My passport expires next August, renew it before the trip',
      'Tomatoes on the balcony need watering every evening',
      'What a lovely concert at the cathedral last Saturday',
      'I run five kilometres along the river on Sundays',
      'The office moved to the third floor of the new building',
      'Piano lessons with Mr Okafor are on Wednesdays at six',
      'Too many mugs in the cupboard, give some to the charity shop',
      'Our flight to Lisbon leaves at 7:40 from terminal 2',
      'Mum’s blood pressure pills are taken with breakfast',
      'The bank card PIN was changed last week',
      'Learn to bake sourdough: the starter is in the fridge',
      'The kids’ school play is about pirates this year',
      'I want to repaint the hallway a pale green',
    ];
    const out = await webkit.runAsync<string>(
      `const [notes, done] = [arguments[0], arguments[arguments.length - 1]];
       (async () => {
         const m = window.memory;
         await m.rememberMany(notes.map((text) => ({ text })));
         while (!m.readiness.model) await new Promise((r) => setTimeout(r, 50));
         const found = await m.recall('what automobile is mine', { explain: true });
         const stats = await m.stats();
         done(JSON.stringify({
           memories: stats.memories,
           top: found.slice(0, 3).map((r) => r.text),
           legs: (found[0]?.explain?.legs ?? []).map((l) => l.leg),
           partial: found[0]?.partial ?? false,
         }));
       })().catch((e) => done('error: ' + e));`,
      notes,
    );
    console.log(`WebKit, recall by meaning over ${notes.length} memories: ${out}`);
    const r = JSON.parse(out) as {
      memories: number;
      top: string[];
      legs: string[];
      partial: boolean;
    };
    expect(r.memories).toBe(notes.length);
    expect(r.partial).toBe(false);
    expect(r.top[0]).toBe('My car is a blue Fiat Panda');
    // Found by the model's vectors: no word of the question is in it (nor a word of the car
    // relation, which a question about one's own fact reads too), so no lexical leg found it.
    expect(r.legs).toContain('vector');
    expect(r.legs).not.toContain('fts');
  });

  it('the notes app: the in-memory banner shows; notes written in a row, one edited while saving and one deleted at once, are all kept and found', async () => {
    const url = await serve('notes');
    const person = webkitPerson(webkit);
    const expected = await inARow(person, url);
    await checkNotes(person, expected);
    const banner = await until(
      () =>
        webkit.run<boolean>(
          'const b = document.querySelector(\'[aria-label="Storage warning"]\'); return !!b && !b.hidden',
        ),
      (shown) => shown,
      20_000,
    );
    expect(banner).toBe(true);
  }, 180_000);
});
