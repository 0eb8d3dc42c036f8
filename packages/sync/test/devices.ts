/**
 * Devices of the Node sync tests: real engines on store files, each syncing through the test
 * server on loopback, and how to wait for them to agree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@anamnesis/engine';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { startSync, type Sync, type SyncOptions } from '../src/index.ts';
import { fileState } from '../src/node.ts';
import { startSyncServer, type SyncServer } from './server.ts';

export const PASSPHRASE = 'correct horse battery staple';

export interface Device {
  engine: Engine;
  sync: Sync;
  /** Its store file (its sync state beside it, `.sync`). */
  path: string;
}

/**
 * A maker of devices on `url`, their files in `dir`: each call opens a new store (or the one at
 * `options.path`) and starts its sync in `room`.
 */
export function devices(url: string, dir: string) {
  let n = 0;
  return async (
    room: string,
    passphrase = PASSPHRASE,
    options: Partial<SyncOptions> & { path?: string } = {},
  ): Promise<Device> => {
    const { path = join(dir, `device-${++n}.db`), ...rest } = options;
    const engine = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const sync = await startSync(engine, {
      url,
      room,
      passphrase,
      WebSocket,
      state: fileState(`${path}.sync`),
      ...rest,
    });
    return { engine, sync, path };
  };
}

/** A store's texts, sorted. */
export async function texts(engine: Engine): Promise<string[]> {
  return (await engine.list({ limit: 1000 })).map((m) => m.text).sort();
}

export async function until(what: string, cond: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits (at most `ms`) until the devices hold the same texts; returns them. */
export async function converged(ms: number, ...all: Device[]): Promise<string[]> {
  let last: string[][] = [];
  await until(
    'the devices hold the same memories',
    async () => {
      for (const d of all) await d.sync.settled();
      last = await Promise.all(all.map((d) => texts(d.engine)));
      return last.every((t) => JSON.stringify(t) === JSON.stringify(last[0]));
    },
    ms,
  ).catch((e: unknown) => {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(last)}`);
  });
  return last[0]!;
}

export async function closeAll(...all: Device[]): Promise<void> {
  for (const d of all) {
    await d.sync.close();
    await d.engine.close();
  }
}

/**
 * A test file's sync server on loopback and its devices' folder, started before its tests and
 * removed after: `device` makes devices (see {@link devices}), `url` is the server's.
 */
export function testRooms(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let server: SyncServer | undefined;
  let make: ReturnType<typeof devices> | undefined;
  beforeAll(async () => {
    server = await startSyncServer();
    make = devices(server.url, dir);
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url(): string {
      return server!.url;
    },
    device: (...args: Parameters<ReturnType<typeof devices>>) => make!(...args),
  };
}
