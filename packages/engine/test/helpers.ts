import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'vitest';
import { AnamnesisError, type ErrorCode } from '@anamnesis/errors';
import type { Embedder } from '../src/embedding/embedder.ts';
import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';
import { createModelEmbedder } from '../src/embedding/model-embedder.ts';
import { createEngine, defaultEmbedderOptions, type Engine } from '../src/engine.ts';
import { NativeDatabase, type NativeConnection } from '../src/storage/native-database.ts';
import type { Database } from '../src/store/database.ts';
import type { Reader } from '../src/store/reader.ts';
import { WasmReader } from '../src/store/reader.ts';
import { migrate } from '../src/store/schema.ts';
import { loadSqlite } from '../src/store/sqlite.ts';

const BetterSqlite3 = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options?: { readonly?: boolean; timeout?: number },
) => NativeConnection;

/**
 * The store file as another process sees it (its write-ahead log included): a second SQLite
 * connection to it, as the engine's `Database`. Close it.
 */
export function onDisk(path: string, options: { readonly?: boolean } = {}): NativeDatabase {
  return new NativeDatabase(new BetterSqlite3(path, options));
}

let shared: Promise<Embedder> | undefined;

/** The real default model, loaded once per test file; engines do not dispose an embedder they were given. */
export function defaultEmbedder(): Promise<Embedder> {
  shared ??= defaultEmbedderOptions().then(createModelEmbedder);
  return shared;
}

let onnx: Promise<Embedder> | undefined;

/** The default model through ONNX Runtime (asynchronous embedding), loaded once per test file. */
export function onnxEmbedder(): Promise<Embedder> {
  onnx ??= defaultEmbedderOptions().then(createTransformersEmbedder);
  return onnx;
}

/** Asserts that a promise rejects with an AnamnesisError of `code`. */
export async function rejectsWith(p: Promise<unknown>, code: ErrorCode): Promise<AnamnesisError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AnamnesisError);
  expect((caught as AnamnesisError).code).toBe(code);
  return caught as AnamnesisError;
}

/** A session's turns: their texts, the time of the first (each next one a second later), id prefix. */
export interface SessionTurns {
  session: string;
  texts: readonly string[];
  at: number;
  prefix: string;
}

/**
 * Two in-memory engines on the default model holding the same turns (ids `prefix + index`): one
 * with their sessions and each turn's speaker (`meta.speaker`, the name before the turn's first
 * colon, as a chat app would set it), one with neither, for signals that must do nothing without
 * them.
 */
export async function conversationEngines(
  clock: number,
  sessions: readonly SessionTurns[],
): Promise<{ withSessions: Engine; without: Engine }> {
  const embedder = await defaultEmbedder();
  const withSessions = await createEngine({ storage: 'memory', embedder, now: () => clock });
  const without = await createEngine({ storage: 'memory', embedder, now: () => clock });
  const turns = (keep: boolean) =>
    sessions.flatMap(({ session, texts, at, prefix }) =>
      texts.map((text, i) => ({
        id: `${prefix}${i}`,
        text,
        session: keep ? session : null,
        ...(keep && text.includes(': ')
          ? { meta: { speaker: text.slice(0, text.indexOf(': ')) } }
          : {}),
        createdAt: at + i * 1000,
      })),
    );
  await withSessions.rememberMany(turns(true));
  await without.rememberMany(turns(false));
  return { withSessions, without };
}

/** A tiny note corpus used by several tests. */
export const NOTES = [
  {
    id: 'cat',
    text: 'I adopted a kitten named Luna last spring; she sleeps on the sofa',
    tags: ['pets'],
    session: 'home',
  },
  {
    id: 'tax',
    text: 'The quarterly tax filing deadline is April 15, send receipts to the accountant',
    tags: ['finance'],
    session: 'work',
  },
  {
    id: 'hike',
    text: 'We hiked the Appalachian trail in the summer and camped by a lake',
    tags: ['travel'],
    session: 'trips',
  },
  {
    id: 'bread',
    text: 'Sourdough recipe: flour, water, salt and a starter fed overnight',
    tags: ['cooking'],
    session: 'home',
  },
  {
    id: 'meeting',
    text: 'Standup moved to 9:30; the client prefers asynchronous updates',
    tags: ['work'],
    session: 'work',
  },
  {
    id: 'dog',
    text: 'Our neighbour walks a golden retriever puppy every morning',
    tags: ['pets'],
    session: 'home',
  },
];

/**
 * A store in SQLite-WASM's memory holding `texts` as notes (rid i + 1 for texts[i]), each with the
 * tags `tagsOf(i)` gives (a JSON array; none by default), and a reader of it. Close `db`.
 */
export async function textStore(
  texts: readonly string[],
  tagsOf: (i: number) => string = () => '[]',
): Promise<{ db: Database; read: WasmReader }> {
  const sqlite3 = await loadSqlite();
  const db = new sqlite3.oo1.DB(':memory:', 'c') as unknown as Database;
  migrate(db, 'memory');
  db.exec('BEGIN');
  texts.forEach((text, i) => insertMemory(db, { id: `m${i}`, text, tags: tagsOf(i) }));
  db.exec('COMMIT');
  return { db, read: new WasmReader(db as never, sqlite3, 16) };
}

/** Inserts a note straight into a store's `memories` (its triggers index it), without the engine. */
export function insertMemory(
  db: Database,
  m: { id: string; text: string; tags?: string; meta?: string },
): void {
  db.exec({
    sql: `INSERT INTO memories (id, text, kind, tags, meta, importance, created_at, updated_at, content_hash)
          VALUES (?, ?, 'note', ?, ?, 0.5, 0, 0, ?)`,
    bind: [m.id, m.text, m.tags ?? '[]', m.meta ?? '{}', `h-${m.id}`],
  });
}

/** One statement a {@link recordingReader} ran: how (`all` or `each`), its SQL and parameters, and the rows it gave. */
export interface ReadCall {
  how: 'all' | 'each';
  sql: string;
  params: readonly (string | number | null)[];
  rows: number;
}

/** A reader that runs every statement on `read` and records it in `calls`. */
export function recordingReader(read: Reader): { reader: Reader; calls: ReadCall[] } {
  const calls: ReadCall[] = [];
  const reader: Reader = {
    all: (sql, params, map) => {
      const call: ReadCall = { how: 'all', sql, params, rows: 0 };
      calls.push(call);
      return read.all(sql, params, (c) => {
        call.rows++;
        return map(c);
      });
    },
    each: (sql, params, visit) => {
      const call: ReadCall = { how: 'each', sql, params, rows: 0 };
      calls.push(call);
      read.each(sql, params, (c) => {
        call.rows++;
        visit(c);
      });
    },
    close: () => read.close(),
  };
  return { reader, calls };
}

const WRITER = join(import.meta.dirname, 'fixtures', 'writer.ts');
const NODE_ARGS = ['--conditions=@anamnesis/source', '--import', 'tsx'];

/**
 * A second process writing a file store (`fixtures/writer.ts` through tsx, as an MCP server or the
 * CLI would): its acknowledged ids as they come, and its end.
 */
export function writer(
  path: string,
  prefix: string,
  count: number,
  text?: string,
): { child: ChildProcess; acked: string[]; done: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    [...NODE_ARGS, WRITER, path, prefix, String(count), ...(text ? [text] : [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const acked: string[] = [];
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const line of lines) if (line.startsWith('ack ')) acked.push(line.slice(4));
  });
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) console.error(`${prefix}: exit ${code}\n${err}`);
      resolve(code);
    }),
  );
  return { child, acked, done };
}
