/**
 * Sync between devices (`@anamnesis/sync`) with real browsers: two Chromium browser contexts (two
 * devices: each its own OPFS and IndexedDB) and a Node engine on a file store, through
 * `@y/websocket-server`'s connection handler, started by this test on loopback. Every device goes
 * offline, writes, edits and forgets concurrently, reconnects; all must end with the same
 * memories, by the written rules, and the server must hold no plaintext.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@anamnesis/engine';
import { createSyncCode, parseSyncCode, type Sync } from '@anamnesis/sync';
import { startNodeSync } from '@anamnesis/sync/node';
import * as Y from 'yjs';

import type { Page } from 'puppeteer-core';

import { expect, test, watchForeignRequests } from '../fixtures.ts';
import { inFirefox } from '../firefox.ts';
import type { ClientPageApi } from '../harness/src/client-page.ts';
import { BASE_URL } from '../playwright.config.ts';
import { docs, startSyncServer, type SyncServer } from '../../packages/sync/test/server.ts';
import { ok, openClientPage, type ClientDriver } from './client.ts';

let server: SyncServer;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'anamnesis-e2e-sync-'));

test.beforeAll(async () => {
  server = await startSyncServer();
  url = server.url;
});

test.afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A store's memories as devices compare them (no vectors, access counts, update times). */
function comparable(jsonl: string): string[] {
  return jsonl
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => {
      const { id, text, kind, session, tags, meta, importance, createdAt, links } = JSON.parse(
        l,
      ) as Record<string, unknown>;
      return JSON.stringify({ id, text, kind, session, tags, meta, importance, createdAt, links });
    })
    .sort();
}

const textsOf = (memories: string[]) =>
  memories.map((m) => (JSON.parse(m) as { text: string }).text).sort();

interface Device {
  name: string;
  exported(): Promise<string[]>;
  remember(text: string): Promise<string>;
  update(id: string, patch: Record<string, unknown>): Promise<void>;
  forget(id: string): Promise<void>;
  online(on: boolean): Promise<void>;
}

function browserDevice(name: string, c: ClientDriver): Device {
  return {
    name,
    exported: async () => comparable(ok(await c.call('m', 'export', [{}])) as string),
    remember: async (text) => ok(await c.call('m', 'remember', [{ text }])) as string,
    update: async (id, patch) => void ok(await c.call('m', 'update', [id, patch])),
    forget: async (id) => void ok(await c.call('m', 'forget', [id])),
    online: async (on) => void ok(await c.syncDo('m', on ? 'connect' : 'disconnect')),
  };
}

/** The harness page's client in Firefox (puppeteer), as {@link ClientDriver} is in Chromium. */
function firefoxDriver(page: Page): ClientDriver {
  return new Proxy({} as ClientDriver, {
    get: (_, method: string) =>
      method === 'then'
        ? undefined
        : (...args: unknown[]) =>
            page.evaluate(
              (m, a) =>
                (
                  (window as unknown as { client: ClientPageApi }).client as unknown as Record<
                    string,
                    (...x: unknown[]) => unknown
                  >
                )[m]!(...a),
              method,
              args,
            ),
  });
}

function nodeDevice(engine: Engine, sync: Sync): Device {
  return {
    name: 'node',
    exported: async () => comparable(await engine.export()),
    remember: (text) => engine.remember({ text }),
    update: async (id, patch) => {
      await engine.update(id, patch);
    },
    forget: async (id) => {
      await engine.forget(id);
    },
    online: async (on) => {
      if (on) sync.connect();
      else sync.disconnect();
      await sync.settled();
    },
  };
}

/** Waits until every device holds the same memories; returns them. */
async function converged(devices: Device[], timeoutMs = 30_000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let last: string[][] = [];
  for (;;) {
    last = await Promise.all(devices.map((d) => d.exported()));
    if (last.every((m) => JSON.stringify(m) === JSON.stringify(last[0]))) return last[0]!;
    if (Date.now() > end)
      throw new Error(
        `devices differ: ${JSON.stringify(devices.map((d, i) => [d.name, textsOf(last[i]!)]))}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('two Chromium devices and a Node one go offline, edit, forget and remember the same text, reconnect: all end with the same memories, and the server holds no plaintext', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const code = createSyncCode();
  const pages = await Promise.all(
    ['chromium-1', 'chromium-2'].map(async (name) => {
      const baseURL = test.info().project.use.baseURL!;
      const context = await browser.newContext({ baseURL });
      // as the fixtures' own context: any request to another origin is recorded and aborted
      // (the sync server's WebSocket is not a request Playwright routes)
      const foreign = await watchForeignRequests(context, new URL(baseURL).origin);
      const page = await context.newPage();
      const c = await openClientPage(page);
      ok(await c.open('m', { name: 'notes' }));
      ok(await c.startSync('m', 'notes', url, code));
      return { context, foreign, c, device: browserDevice(name, c) };
    }),
  );
  const path = join(dir, 'node.db');
  const engine = await createEngine({ storage: 'file', path });
  const sync = await startNodeSync(engine, path, { url, ...parseSyncCode(code) });
  const [a, b] = pages.map((p) => p.device) as [Device, Device];
  const n = nodeDevice(engine, sync);
  const all = [a, b, n];

  const dentist = await a.remember('Dentist appointment, Tuesday 9:30');
  const passport = await b.remember('The passport is in the blue folder');
  await n.remember('Buy oat milk on Friday');
  expect(textsOf(await converged(all))).toHaveLength(3);

  for (const d of all) await d.online(false);
  await a.update(dentist, { text: 'Dentist appointment moved to Wednesday 10:00' });
  await n.forget(dentist); // forget beats the concurrent edit
  await a.update(passport, { importance: 0.9 });
  await new Promise((r) => setTimeout(r, 30));
  await b.update(passport, { text: 'The passport is in the red folder' }); // merged per field
  await a.remember('Call the plumber about the leak');
  await n.remember('Call the plumber about the leak'); // one memory in the end
  expect((await pages[0]!.c.syncStatus('m')).pending).toBeGreaterThan(0);
  for (const d of all) await d.online(true);

  const end = await converged(all);
  expect(textsOf(end)).toEqual([
    'Buy oat milk on Friday',
    'Call the plumber about the leak',
    'The passport is in the red folder',
  ]);
  const passportNow = JSON.parse(end.find((m) => m.includes('passport'))!) as {
    importance: number;
  };
  expect(passportNow.importance).toBe(0.9); // A's importance and B's text both kept
  for (const p of pages) ok(await p.c.syncDo('m', 'synced'));
  await sync.synced();

  const stored = Buffer.concat(
    [...docs.values()].map((d) => Buffer.from(Y.encodeStateAsUpdate(d))),
  );
  expect(stored.length).toBeGreaterThan(0);
  for (const secret of ['Dentist', 'passport', 'plumber', 'oat milk', dentist])
    expect(stored.includes(Buffer.from(secret)), secret).toBe(false);

  await sync.close();
  await engine.close();
  for (const p of pages) {
    expect(p.foreign).toEqual([]);
    await p.context.close();
  }
});

test('openMemory({ sync: browserSync(…) }): a write made at once reaches the other device; memory.sync() gives the status; a second tab takes the sync over when the first closes', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const code = createSyncCode();
  const baseURL = test.info().project.use.baseURL!;
  const contexts = await Promise.all([0, 1].map(() => browser.newContext({ baseURL })));
  const foreign = await Promise.all(
    contexts.map((c) => watchForeignRequests(c, new URL(baseURL).origin)),
  );
  const open = async (context: (typeof contexts)[number], clear: boolean) => {
    const c = await openClientPage(await context.newPage(), { clear });
    ok(await c.open('m', { name: 'notes', syncWith: { url, code } } as never));
    return c;
  };
  const laptop = await open(contexts[0]!, true);
  const phone = await open(contexts[1]!, true);
  // written at once, while the sync is still deriving its key
  const id = ok(await laptop.call('m', 'remember', [{ text: 'Spare key is under the blue pot' }]));
  ok(await laptop.syncOf('m'));
  ok(await phone.syncOf('m'));
  ok(await laptop.syncDo('m', 'synced'));
  await expect
    .poll(async () => ok(await phone.call('m', 'get', [id])), { timeout: 20_000 })
    .toMatchObject({ text: 'Spare key is under the blue pot' });
  expect(await phone.syncStatus('m')).toMatchObject({ connected: true, error: null });

  // a second tab of the phone: a follower of the store, its sync waits for the first tab's
  const tab2 = await open(contexts[1]!, false);
  expect(await tab2.role('m')).toBe('follower');
  const waiting = tab2.syncOf('m');
  const first = await Promise.race([
    waiting.then(() => 'took over'),
    new Promise((r) => setTimeout(() => r('waits'), 1500)),
  ]);
  expect(first).toBe('waits');
  ok(await phone.close('m')); // stops its sync, frees the lock
  ok(await waiting);
  ok(await laptop.call('m', 'remember', [{ text: 'The boiler service is on 3 March' }]));
  ok(await laptop.syncDo('m', 'synced'));
  await expect
    .poll(async () => (ok(await tab2.call('m', 'stats', [])) as { memories: number }).memories, {
      timeout: 20_000,
    })
    .toBe(2);
  expect(await tab2.syncStatus('m')).toMatchObject({ connected: true, error: null });
  for (const f of foreign) expect(f).toEqual([]);
  for (const c of contexts) await c.close();
});

test("Firefox: a new device gets a Node device's memories, then both write offline and converge", async () => {
  test.setTimeout(180_000);
  const code = createSyncCode();
  const path = join(dir, 'node-firefox.db');
  const engine = await createEngine({ storage: 'file', path });
  await engine.rememberMany(
    Array.from({ length: 50 }, (_, i) => ({ text: `note ${i} written on the desktop` })),
  );
  const sync = await startNodeSync(engine, path, { url, ...parseSyncCode(code) });
  const n = nodeDevice(engine, sync);
  await inFirefox(BASE_URL, async (page, { errors, foreign }) => {
    await page.goto(`${BASE_URL}/client.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const c = firefoxDriver(page);
    await c.clearOpfs();
    ok(await c.open('m', { name: 'notes' }));
    ok(await c.startSync('m', 'notes', url, code));
    const f = browserDevice('firefox', c);
    expect(await converged([f, n])).toHaveLength(50);

    await f.online(false);
    await n.online(false);
    const first = (await engine.list({ limit: 50 })).find(
      (m) => m.text === 'note 0 written on the desktop',
    )!;
    await f.forget(first.id);
    await n.update(first.id, { importance: 1 }); // concurrent: the forget wins
    const added = await f.remember('written in Firefox while offline');
    await n.remember('written on the desktop while offline');
    await f.online(true);
    await n.online(true);
    const end = await converged([f, n]);
    expect(end).toHaveLength(51);
    expect(end.some((m) => m.includes(first.id))).toBe(false);
    expect(end.some((m) => m.includes(added))).toBe(true);
    ok(await c.syncDo('m', 'close'));
    expect(errors).toEqual([]);
    // Firefox reports the WebSocket's handshake as a request: to the sync server the page was
    // given, and to nothing else
    const server = new URL(url).host;
    expect(foreign.filter((u) => new URL(u).host !== server)).toEqual([]);
  });
  await sync.close();
  await engine.close();
});
