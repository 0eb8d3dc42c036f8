import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import {
  startSync,
  type SavedSyncState,
  type Sync,
  type SyncOptions,
  type SyncStateStore,
} from '../src/index.ts';
import { fileState, nodeSync } from '../src/node.ts';
import { docs, startSyncServer, type SyncServer } from './server.ts';

let server: SyncServer;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'anamnesis-sync-'));

beforeAll(async () => {
  server = await startSyncServer();
  url = server.url;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function device(
  room: string,
  options: Partial<SyncOptions> & {
    path?: string;
    before?: (engine: Engine) => Promise<unknown>;
  } = {},
): Promise<{ engine: Engine; sync: Sync; path: string }> {
  const { path = join(dir, `device-${++n}.db`), before, ...rest } = options;
  const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
  await before?.(engine);
  const sync = await startSync(engine, {
    url,
    room,
    passphrase: 'correct horse battery staple',
    WebSocket,
    state: fileState(`${path}.sync`),
    ...rest,
  });
  return { engine, sync, path };
}

/** A store's memories as sync compares them: no vectors, access counts or update times. */
async function memories(engine: Engine): Promise<string[]> {
  const lines = (await engine.export()).split('\n').filter(Boolean).slice(1);
  return lines
    .map((l) => {
      const m = JSON.parse(l) as Record<string, unknown>;
      const { id, text, kind, session, tags, meta, importance, createdAt, links } = m;
      return JSON.stringify({ id, text, kind, session, tags, meta, importance, createdAt, links });
    })
    .sort();
}

async function until(what: string, cond: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every device has settled and all hold the same memories; returns them. */
async function converged(...devices: { engine: Engine; sync: Sync }[]): Promise<string[]> {
  let last: string[][] = [];
  await until('the devices hold the same memories', async () => {
    for (const d of devices) await d.sync.settled();
    last = await Promise.all(devices.map((d) => memories(d.engine)));
    return last.every((m) => JSON.stringify(m) === JSON.stringify(last[0]));
  }).catch((e: unknown) => {
    throw new Error(
      `${(e as Error).message}: ${JSON.stringify(last.map(texts))} ${JSON.stringify(devices.map((d) => d.sync.status()))}`,
    );
  });
  return last[0]!;
}

function texts(ms: string[]): string[] {
  return ms.map((m) => (JSON.parse(m) as { text: string }).text).sort();
}

/** Everything the server holds for all rooms, as bytes. */
function serverBytes(): Buffer {
  return Buffer.concat([...docs.values()].map((d) => Buffer.from(Y.encodeStateAsUpdate(d))));
}

describe('sync between devices', () => {
  it('offline writes, concurrent edits and forgets, the same text on two devices: every device ends with the same memories, and the server holds no plaintext', async () => {
    const a = await device('converge');
    const b = await device('converge');
    const milk = await a.engine.remember({ text: 'Buy oat milk on Friday', tags: ['shopping'] });
    const dentist = await a.engine.remember({ text: 'Dentist appointment, Tuesday 9:30' });
    const passport = await a.engine.remember({ text: 'The passport is in the blue folder' });
    await a.engine.link(milk, dentist);
    expect(texts(await converged(a, b))).toHaveLength(3);

    a.sync.disconnect();
    b.sync.disconnect();
    // concurrent: A edits the dentist note, B forgets it (forget wins); A and B edit the passport
    // note's importance and text (both edits kept); both remember one new text (one memory).
    await a.engine.update(dentist, { text: 'Dentist appointment moved to Wednesday 10:00' });
    await b.engine.forget(dentist);
    await a.engine.update(passport, { importance: 0.9 });
    await new Promise((r) => setTimeout(r, 20));
    await b.engine.update(passport, { text: 'The passport is in the red folder' });
    await a.engine.remember({ text: 'Call the plumber about the leak' });
    await b.engine.remember({ text: 'Call the plumber about the leak' });
    expect(a.sync.status()).toMatchObject({ connected: false });
    expect(a.sync.status().pending).toBeGreaterThan(0);
    a.sync.connect();
    b.sync.connect();
    const end = await converged(a, b);
    expect(texts(end)).toEqual([
      'Buy oat milk on Friday',
      'Call the plumber about the leak',
      'The passport is in the red folder',
    ]);
    const pass = JSON.parse(end.find((m) => m.includes('passport'))!) as { importance: number };
    expect(pass.importance).toBe(0.9); // A's importance and B's text: each part on its own stamp
    await until('both report synced', () =>
      [a, b].every((d) => d.sync.status().synced && d.sync.status().pending === 0),
    );
    expect(a.sync.status().error).toBeNull();
    const stored = serverBytes();
    for (const secret of ['oat milk', 'Dentist', 'passport', 'plumber', 'shopping', milk])
      expect(stored.includes(Buffer.from(secret)), secret).toBe(false);
    await a.sync.close();
    await b.sync.close();
    await a.engine.close();
    await b.engine.close();
  });

  it('merge per field: a tag added on one device and the text edited on another both stay; two text edits apart are a conflict every device lists, until a person picks one', async () => {
    const a = await device('fields');
    const b = await device('fields');
    const note = await a.engine.remember({
      text: 'Leo dentist check-up on the 14th',
      tags: ['health'],
      meta: { clinic: 'Paediatric' },
    });
    await converged(a, b);
    a.sync.disconnect();
    b.sync.disconnect();
    await a.engine.update(note, { tags: ['health', 'kids'] });
    await b.engine.update(note, {
      text: 'Leo dentist check-up moved to the 21st',
      meta: { clinic: 'Paediatric', room: 3 },
    });
    a.sync.connect();
    b.sync.connect();
    const [one] = await converged(a, b);
    expect(JSON.parse(one!)).toMatchObject({
      text: 'Leo dentist check-up moved to the 21st',
      tags: ['health', 'kids'],
      meta: { clinic: 'Paediatric', room: 3 },
    });
    expect(a.sync.conflicts()).toEqual([]);

    // both edit the text apart: the later edit is the text, the other is listed on both devices
    a.sync.disconnect();
    b.sync.disconnect();
    await a.engine.update(note, { text: 'Leo dentist check-up on the 21st at 9:30' });
    await new Promise((r) => setTimeout(r, 5));
    await b.engine.update(note, { text: 'Leo dentist check-up cancelled' });
    a.sync.connect();
    b.sync.connect();
    await converged(a, b);
    await until('both list the conflict', () =>
      [a, b].every((d) => d.sync.status().conflicts === 1),
    );
    for (const d of [a, b])
      expect(d.sync.conflicts()).toEqual([
        {
          id: note,
          text: 'Leo dentist check-up cancelled',
          others: [{ text: 'Leo dentist check-up on the 21st at 9:30', at: expect.any(Number) }],
        },
      ]);
    await expect(a.sync.resolveConflict('no-such-id', 'x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // A keeps its own version: every device has it, and no conflict is left
    await a.sync.resolveConflict(note, 'Leo dentist check-up on the 21st at 9:30');
    const [kept] = await converged(a, b);
    expect(JSON.parse(kept!)).toMatchObject({
      text: 'Leo dentist check-up on the 21st at 9:30',
      tags: ['health', 'kids'],
    });
    await until('no device lists a conflict', () =>
      [a, b].every((d) => d.sync.status().conflicts === 0 && d.sync.conflicts().length === 0),
    );
    for (const d of [a, b]) {
      await d.sync.close();
      await d.engine.close();
    }
  });

  it('a third device joining late with memories of its own gets everything; a forget made while its sync was off travels at the next start', async () => {
    const a = await device('late');
    const b = await device('late');
    await a.engine.rememberMany(
      Array.from({ length: 200 }, (_, i) => ({
        text: `shared note number ${i} about topic ${i % 7}`,
      })),
    );
    await converged(a, b);
    // the third device had a memory before it ever synced
    const c = await device('late', {
      before: (engine) => engine.remember({ text: 'a note only the third device had' }),
    });
    const all = await converged(a, b, c);
    expect(all).toHaveLength(201);
    // B stops syncing; a forget there while it is off is published when it starts again
    await b.sync.close();
    const gone = (await b.engine.list({ limit: 1 }))[0]!.id;
    await b.engine.forget(gone);
    await b.engine.close();
    const b2 = await device('late', { path: b.path });
    const after = await converged(a, b2, c);
    expect(after).toHaveLength(200);
    expect(after.some((m) => m.includes(gone))).toBe(false);
    for (const d of [a, b2, c]) {
      await d.sync.close();
      await d.engine.close();
    }
  });

  it('a tampered record is SYNC_TAMPERED and ignored; a wrong passphrase meets an empty room of its own, is told, and sends nothing to this one', async () => {
    const a = await device('tamper');
    const b = await device('tamper');
    const id = await a.engine.remember({ text: 'the original text' });
    await converged(a, b);
    // an attacker with the server's storage flips one byte of A's record
    const doc = [...docs.values()].find((d) => d.getMap('records').size === 2)!;
    const map = doc.getMap<Uint8Array>('records');
    const key = [...map.keys()].find((k) => k !== 'key-check')!;
    const bytes = new Uint8Array(map.get(key)!);
    bytes[bytes.length - 1]! ^= 1;
    map.set(key, bytes);
    await until('B reports the tampering', () => b.sync.status().error?.code === 'SYNC_TAMPERED');
    expect((await b.engine.get(id))?.text).toBe('the original text');

    const sizeBefore = map.size;
    const wrong = await device('tamper', { passphrase: 'another passphrase' });
    await wrong.engine.remember({ text: 'written under the wrong passphrase' });
    await wrong.sync.synced();
    expect(wrong.sync.status().explain).toMatch(/No other device has used this code yet/);
    expect(map.size).toBe(sizeBefore);
    expect(await memories(wrong.engine)).toHaveLength(1);
    for (const d of [a, b, wrong]) {
      await d.sync.close();
      await d.engine.close();
    }
  });

  it('a device killed (SIGKILL) during its first sync resumes at its next start, and ends with everything', async () => {
    const { spawn } = await import('node:child_process');
    const room = 'killed';
    const a = await device(room, { passphrase: 'killed mid-sync' });
    await a.engine.rememberMany(
      Array.from({ length: 3000 }, (_, i) => ({
        text: `note ${i} on the first device, topic ${i % 13}`,
      })),
    );
    await a.sync.settled();
    const path = join(dir, 'killed.db');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'device.ts'), path, url, room],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await until('the device started', () => out.includes('started'), 60_000);
    // killed once its store holds some of the first device's memories, not all
    const reader = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await until('some memories arrived', async () => (await reader.stats()).memories > 0, 60_000);
    child.kill('SIGKILL');
    await exited;
    const got = (await reader.stats()).memories;
    await reader.close();
    expect(got, 'killed before every memory had arrived').toBeLessThan(3000);
    const b = await device(room, { path, passphrase: 'killed mid-sync' });
    const all = await converged(a, b);
    expect(all).toHaveLength(3000);
    console.log(`killed after ${got} of 3000 memories had arrived; resumed to 3000`);
    for (const d of [a, b]) {
      await d.sync.close();
      await d.engine.close();
    }
  }, 120_000);

  it("anamnesis-sync --once: the terminal's store joins the room, exchanges, and exits 0", async () => {
    const { main } = await import('../src/main.ts');
    const { createSyncCode, parseSyncCode } = await import('../src/index.ts');
    const code = createSyncCode();
    const a = await device(parseSyncCode(code).room, {
      passphrase: parseSyncCode(code).passphrase,
    });
    await a.engine.rememberMany([{ text: 'noted on the phone' }, { text: 'noted on the laptop' }]);
    const path = join(dir, 'terminal.db');
    const terminal = await createEngine({ storage: 'file', path }); // the default model, as the command's
    await terminal.remember({ text: 'noted in the terminal' });
    await terminal.close();
    const lines: string[] = [];
    Object.assign(process.env, { ANAMNESIS_SYNC_URL: url, ANAMNESIS_SYNC_CODE: code });
    try {
      expect(await main(['--db', path, '--once'], (l) => lines.push(l))).toBe(0);
    } finally {
      delete process.env.ANAMNESIS_SYNC_URL;
      delete process.env.ANAMNESIS_SYNC_CODE;
    }
    expect(lines.at(-1)).toBe(`synced ${path}: 3 memories`);
    await until(
      "the terminal's note reached the phone",
      async () => (await a.engine.stats()).memories === 3,
    );
    await a.sync.close();
    await a.engine.close();
  });

  it('a write the engine refuses (a full disk) is told and tried again with the next change', async () => {
    const a = await device('refused');
    const path = join(dir, 'refused.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    let refuse = true;
    // the engine as the sync sees it: its first import fails as a full disk would
    const flaky = new Proxy(engine, {
      get(target, key) {
        if (key === 'import' && refuse) {
          return () => {
            refuse = false;
            return Promise.reject(new AnamnesisError('QUOTA_EXCEEDED', 'the disk is full'));
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const sync = await startSync(flaky, {
      url,
      room: 'refused',
      passphrase: 'correct horse battery staple',
      WebSocket,
      state: fileState(`${path}.sync`),
    });
    await sync.synced();
    await a.engine.remember({ text: 'arrives on the second try' });
    await until('the refusal is told', () => sync.status().error?.code === 'QUOTA_EXCEEDED');
    await sync.settled();
    expect((await engine.stats()).memories).toBe(0);
    await a.engine.remember({ text: 'the next change' });
    await until('both arrived', async () => (await engine.stats()).memories === 2);
    await sync.close();
    await engine.close();
    await a.sync.close();
    await a.engine.close();
  });

  it("usage travels: each device's markUsed events count on the others, once, and an apply does not echo", async () => {
    const a = await device('usage');
    const b = await device('usage');
    const id = await a.engine.remember({ text: 'the wifi password is on the fridge magnet' });
    await a.engine.remember({ text: 'the fridge needs a new water filter' });
    await converged(a, b);
    await a.engine.markUsed(id, 'used');
    await a.engine.markUsed(id, 'used');
    await a.engine.markUsed(id, 'selected');
    await b.engine.markUsed(id, 'used');
    const usageOf = async (engine: Engine) => {
      // the profile whose usage is a leg: its explain gives the usage score as the leg's score
      const [hit] = await engine.recall('wifi password fridge', {
        profile: 'mnemosyne-rrf',
        explain: true,
        noCache: true,
      });
      expect(hit?.id).toBe(id);
      return hit!.explain!.legs.find((l) => l.leg === 'usage')?.score ?? 0;
    };
    // four events in all, each counted about 1 (seconds old; half-life 7 days)
    await until('each device counts all four events', async () => {
      await Promise.all([a.sync.settled(), b.sync.settled()]);
      const [ua, ub] = await Promise.all([usageOf(a.engine), usageOf(b.engine)]);
      return ua > 3.99 && ua < 4.01 && ub > 3.99 && ub < 4.01;
    });
    await Promise.all([a.sync.synced(), b.sync.synced()]);
    const room = [...docs.values()].find((d) => d.getMap('usage').size > 0)!;
    expect(room.getMap('usage').size).toBe(2); // one entry per device, no echo of an apply
    // a restart republishes nothing and counts the same
    await b.sync.close();
    const again = await startSync(b.engine, {
      url,
      room: 'usage',
      passphrase: 'correct horse battery staple',
      WebSocket,
      state: fileState(`${b.path}.sync`),
    });
    await again.synced();
    expect(await usageOf(b.engine)).toBeCloseTo(4, 2);
    expect(room.getMap('usage').size).toBe(2);
    await again.close();
    await a.sync.close();
    for (const d of [a, b]) await d.engine.close();
  });

  it('another process writing the store (the CLI beside the MCP server): its remember, edit, forget and usage travel without a call on the syncing engine', async () => {
    const a = await device('elsewhere');
    const b = await device('elsewhere');
    const keep = await a.engine.remember({ text: 'renew the passport before June' });
    const drop = await a.engine.remember({ text: 'the old wifi password was hunter2' });
    await converged(a, b);
    // a second connection to a's file: another process, as far as a's engine can tell
    const cli = await createEngine({ storage: 'file', path: a.path, embedder: 'tfidf' });
    await cli.remember({ text: 'the car is due for its service in May' });
    await cli.update(keep, { tags: ['travel'], importance: 0.9 });
    await cli.forget(drop);
    await cli.markUsed(keep, 'used');
    await cli.close();
    // only b is looked at: a's engine gets no call, its sync hears the other process by itself
    await until("b has the other process's writes", async () => {
      await b.sync.settled();
      const now = await memories(b.engine);
      return now.length === 2 && now.some((m) => m.includes('"travel"'));
    });
    const end = await converged(a, b);
    expect(texts(end)).toEqual([
      'renew the passport before June',
      'the car is due for its service in May',
    ]);
    const kept = JSON.parse(end.find((m) => m.includes('passport'))!) as {
      tags: string[];
      importance: number;
    };
    expect(kept).toMatchObject({ tags: ['travel'], importance: 0.9 });
    await until('the usage arrived', async () => {
      const [hit] = await b.engine.recall('passport', {
        profile: 'mnemosyne-rrf',
        explain: true,
        noCache: true,
      });
      return (hit?.explain?.legs.find((l) => l.leg === 'usage')?.score ?? 0) > 0.99;
    });
    for (const d of [a, b]) {
      await d.sync.close();
      await d.engine.close();
    }
  });

  it('a memory forgotten here whose forget was not published before a restart (the saved state older than its record) stays forgotten', async () => {
    const options = {
      url,
      room: 'forgotten-here',
      passphrase: 'correct horse battery staple',
      WebSocket,
    };
    const a = await device('forgotten-here');
    const b = await device('forgotten-here');
    await converged(a, b);
    await a.sync.close();
    const early = await fileState(`${a.path}.sync`).load(); // saved before the memory existed
    const again = await startSync(a.engine, { ...options, state: fileState(`${a.path}.sync`) });
    const id = await a.engine.remember({ text: 'the spare tyre is under the boot floor' });
    await again.synced();
    await converged({ engine: a.engine, sync: again }, b);
    await again.close();
    // forgotten while the sync does not run, and the state on disk is the older one: as after a
    // reload right after the delete, before the state was saved
    await a.engine.forget(id);
    await fileState(`${a.path}.sync`).save(early!);
    const third = await startSync(a.engine, { ...options, state: fileState(`${a.path}.sync`) });
    await third.synced();
    const end = await converged({ engine: a.engine, sync: third }, b);
    expect(end).toEqual([]);
    await third.close();
    await b.sync.close();
    for (const d of [a, b]) await d.engine.close();
  });

  it('a new device reloaded before its state was ever saved (only its first save kept): what it forgot after its first publish stays forgotten', async () => {
    const b = await device('first-save');
    const path = join(dir, 'first-save.db');
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    let first: SavedSyncState | undefined;
    // a state store that keeps only its first save: as a page reloaded before any later one
    const firstOnly: SyncStateStore = {
      load: async () => first,
      save: async (state) => {
        first ??= state;
      },
    };
    const options = {
      url,
      room: 'first-save',
      passphrase: 'correct horse battery staple',
      WebSocket,
      state: firstOnly,
    };
    let sync = await startSync(engine, options);
    const id = await engine.remember({ text: 'the bike lock code is 4-7-1' });
    await sync.synced();
    await converged({ engine, sync }, b);
    await sync.close();
    await engine.forget(id);
    sync = await startSync(engine, options);
    await sync.synced();
    expect(await converged({ engine, sync }, b)).toEqual([]);
    await sync.close();
    await engine.close();
    await b.sync.close();
    await b.engine.close();
  });

  it('a store deleted beside its kept sync state (memory.db removed, memory.db.sync left) gets the memories back, and forgets nothing on the other devices', async () => {
    const a = await device('replaced');
    const b = await device('replaced');
    await a.engine.rememberMany([
      { text: 'the bins go out on Thursday night' },
      { text: 'the gas meter reading is due in April' },
    ]);
    await converged(a, b);
    await a.sync.close();
    await a.engine.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${a.path}${suffix}`, { force: true });
    const fresh = await device('replaced', { path: a.path }); // the old `.sync` is read
    const end = await converged(fresh, b);
    expect(texts(end)).toEqual([
      'the bins go out on Thursday night',
      'the gas meter reading is due in April',
    ]);
    for (const d of [fresh, b]) {
      await d.sync.close();
      await d.engine.close();
    }
  });

  it('createEngine({ sync: nodeSync(…) }): the engine starts its sync once open, engine.sync() tells its status, and close() stops it and saves its state', async () => {
    const options = { url, room: 'plugin', passphrase: 'correct horse battery staple' };
    expect(() => nodeSync({ ...options, url: 'http://127.0.0.1:1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    const plain = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await expect(plain.sync()).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await plain.close();
    const path = join(dir, 'plugin-a.db');
    const a = await createEngine({
      storage: 'file',
      path,
      embedder: 'tfidf',
      sync: nodeSync(options),
    });
    // a memory store: its sync state is kept in memory
    const b = await createEngine({ storage: 'memory', embedder: 'tfidf', sync: nodeSync(options) });
    const [syncA, syncB] = await Promise.all([a.sync(), b.sync()]);
    const statuses: boolean[] = [];
    syncB.onStatus((s) => statuses.push(s.synced));
    await a.remember({ text: 'the spare key is under the blue flower pot', tags: ['home'] });
    await syncA.synced();
    await until('the other device has it', async () => (await b.stats()).memories === 1);
    expect((await b.recall('spare key'))[0]?.text).toMatch(/blue flower pot/);
    expect(syncB.status()).toMatchObject({ connected: true, synced: true, error: null });
    // its events, for a status line: off line, then synced again
    syncB.disconnect();
    syncB.connect();
    await syncB.synced();
    expect(statuses).toContain(false);
    expect(statuses.at(-1)).toBe(true);
    await a.close(); // stops its sync first, then the store
    expect(syncA.status().connected).toBe(false);
    expect(await fileState(`${path}.sync`).load()).toMatchObject({ device: syncA.status().device });
    await b.close();
  });
});
