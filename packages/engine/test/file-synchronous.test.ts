/**
 * The file store syncs the write-ahead log at every commit (issue 71): `PRAGMA synchronous` reads
 * FULL (2) on every connection the engine opens, after the open and after writes, and on a second
 * engine's connections to the same file (the setting is each connection's own). Under NORMAL or
 * OFF an acknowledged write could be lost to a crash of the operating system, and no other test
 * would notice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../src/index.ts';
import { NativeDatabase } from '../src/storage/native-database.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** SQLite's value of `synchronous = FULL`. */
const FULL = 2;

/** Every connection the file store opens from now on (each `NativeDatabase` that reads a value). */
function connections(): Set<NativeDatabase> {
  const seen = new Set<NativeDatabase>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
  const { selectValue } = NativeDatabase.prototype;
  vi.spyOn(NativeDatabase.prototype, 'selectValue').mockImplementation(function (
    this: NativeDatabase,
    ...args: Parameters<NativeDatabase['selectValue']>
  ) {
    seen.add(this);
    return selectValue.apply(this, args);
  });
  return seen;
}

/** `PRAGMA synchronous` of each of `dbs` still open (at least one). */
function synchronous(dbs: Iterable<NativeDatabase>): number[] {
  const open = [...dbs].filter((db) => db.connection.open);
  expect(open.length).toBeGreaterThan(0);
  return open.map((db) => Number(db.selectValue('PRAGMA synchronous')));
}

describe('file store: synchronous FULL', () => {
  it("reads 2 on the engine's connections after the open and after writes, and on a second engine's", async () => {
    const path = join(dir, 'full.db');
    const opened = connections();
    const a = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const ofA = new Set(opened);
    for (const value of synchronous(ofA)) expect(value).toBe(FULL);
    await a.rememberMany([{ text: 'an acknowledged write' }, { text: 'and another' }]);
    await a.remember({ text: 'one more, alone' });
    for (const value of synchronous(opened)) expect(value).toBe(FULL);
    const b = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const ofB = [...opened].filter((db) => !ofA.has(db));
    for (const value of synchronous(ofB)) expect(value).toBe(FULL);
    await b.remember({ text: 'written through the second connection' });
    for (const value of synchronous(opened)) expect(value).toBe(FULL);
    expect((await a.stats()).memories).toBe(4);
    await b.close();
    await a.close();
  });
});
