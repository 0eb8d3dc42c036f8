/**
 * The write path on its own (the engine closes it only after its calls in flight, so these guards
 * are its contract rather than something an engine test can reach): a write still queued, or
 * still embedding, when the engine is closed fails with `CLOSED` and commits nothing.
 */
import { describe, expect, it } from 'vitest';

import { asDatabase, loadSqlite } from '../src/store/sqlite.ts';
import { WritePath } from '../src/writes/write-path.ts';

async function setUp() {
  const sqlite3 = await loadSqlite();
  const db = asDatabase(new sqlite3.oo1.DB(':memory:', 'c'));
  db.exec('CREATE TABLE t(x)');
  const state = { closed: false, bumps: 0 };
  const path = new WritePath(db, {
    closed: () => state.closed,
    bump: () => {
      state.bumps++;
    },
    catchUp: () => false,
    ownChanges: () => () => undefined,
    now: () => 0,
  });
  return { db, state, path };
}

describe('WritePath', () => {
  it('a write still embedding when the engine closes fails with CLOSED and commits nothing, and so does one queued behind it', async () => {
    const { db, state, path } = await setUp();
    let started!: () => void;
    const embeddingStarted = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const embedding = new Promise<void>((r) => (release = r));
    const first = path.run({
      what: 'first',
      kind: 'remember',
      encode: async () => {
        started();
        await embedding;
      },
      tx: (d) => d.exec('INSERT INTO t VALUES (1)'),
    });
    const queued = path.run({
      what: 'queued',
      kind: 'remember',
      tx: (d) => d.exec('INSERT INTO t VALUES (2)'),
    });
    await embeddingStarted; // the first write is past its start: only the check after encode stops it
    state.closed = true;
    release();
    await expect(first).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(queued).rejects.toMatchObject({ code: 'CLOSED' });
    expect(db.selectValue('SELECT count(*) FROM t')).toBe(0);
    expect(state).toMatchObject({ bumps: 0 });
    db.close();
  });

  it('once closed, a write sent again under a recorded operation id fails with CLOSED rather than answering from the record', async () => {
    const { db, state, path } = await setUp();
    db.exec('CREATE TABLE operations(id TEXT PRIMARY KEY, reply TEXT, at INTEGER)');
    const write = () =>
      path.run({
        what: 'one',
        kind: 'remember',
        tx: (d) => (d.exec('INSERT INTO t VALUES (1)'), 'done'),
      });
    expect(await path.once('op-1', write)).toBe('done');
    expect(await path.once('op-1', write)).toBe('done'); // answered from its record
    state.closed = true;
    await expect(path.once('op-1', write)).rejects.toMatchObject({ code: 'CLOSED' });
    db.close();
  });

  it('commits, then bumps and persists, a write that changed the store', async () => {
    const { db, state, path } = await setUp();
    expect(
      await path.run({
        what: 'one',
        kind: 'remember',
        tx: (d) => (d.exec('INSERT INTO t VALUES (1)'), 1),
      }),
    ).toBe(1);
    expect(db.selectValue('SELECT count(*) FROM t')).toBe(1);
    expect(state).toMatchObject({ bumps: 1 });
    db.close();
  });
});
