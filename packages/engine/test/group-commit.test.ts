/**
 * Group commit on the file store (issue 69): a COMMIT appends to the write-ahead log without
 * waiting for the disk (`synchronous = NORMAL` on every connection the engine opens), and a
 * write's caller is answered only once the log is synced, by a sync that started after the
 * write's commit; writes that come together share one. Without the sync an acknowledged write
 * could be lost to a crash of the operating system, and no other test would notice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnamnesisError } from '@anamnesis/errors';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../src/index.ts';
import { GroupSync, type OpenFile } from '../src/storage/group-sync.ts';
import { NativeDatabase } from '../src/storage/native-database.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** SQLite's value of `synchronous = NORMAL`. */
const NORMAL = 1;

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

describe('file store: group commit', () => {
  it('every awaited write is answered after a sync of the log, on every connection', async () => {
    const path = join(dir, 'each.db');
    const opened = connections();
    const a = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const syncs = async () => (await a.stats()).diskSyncs!;
    const writes = [
      () => a.remember({ text: 'an acknowledged write' }),
      () => a.rememberMany([{ text: 'two at once' }, { text: 'in one batch' }]),
    ];
    for (const write of writes) {
      const before = await syncs();
      await write();
      expect(await syncs()).toBeGreaterThan(before);
    }
    const [id] = await a.rememberMany([{ text: 'edited later' }]);
    let before = await syncs();
    await a.update(id!, { text: 'edited now' });
    expect(await syncs()).toBeGreaterThan(before);
    before = await syncs();
    await a.forget([id!]);
    expect(await syncs()).toBeGreaterThan(before);
    for (const value of synchronous(opened)) expect(value).toBe(NORMAL);
    const b = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await b.remember({ text: 'written through the second connection' });
    expect((await b.stats()).diskSyncs).toBeGreaterThan(0);
    for (const value of synchronous(opened)) expect(value).toBe(NORMAL);
    expect((await a.stats()).memories).toBe(4);
    await b.close();
    await a.close();
  });

  it('60 writes made together share syncs, the first answered before the last commits, and each is on disk for another process', async () => {
    const path = join(dir, 'together.db');
    let commits = 0;
    const a = await createEngine({
      storage: 'file',
      path,
      embedder: 'tfidf',
      onChange: () => commits++,
    });
    await a.remember({ text: 'the first write makes the log' });
    const before = (await a.stats()).diskSyncs!;
    commits = 0;
    let committedAtFirstAnswer = -1;
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        a.remember({ text: `note number ${i} of a burst` }).then((id) => {
          if (committedAtFirstAnswer < 0) committedAtFirstAnswer = commits;
          return id;
        }),
      ),
    );
    // a sync's end is heard between two queued writes, not once the queue is empty
    expect(committedAtFirstAnswer).toBeGreaterThan(0);
    expect(committedAtFirstAnswer).toBeLessThan(60);
    const used = (await a.stats()).diskSyncs! - before;
    expect(new Set(ids).size).toBe(60);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(30);
    const b = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    for (const id of ids) expect((await b.get(id))?.id).toBe(id);
    await b.close();
    await a.close();
  });
});

/** A file system whose `fsync`s wait until the test lets each go. */
function heldDisk() {
  const released: (() => void)[] = [];
  let opened = 0;
  const open: OpenFile = (path) => {
    opened++;
    if (path.endsWith('missing.db-wal'))
      return Promise.reject(Object.assign(new Error('no log'), { code: 'ENOENT' }));
    const handle = {
      stat: () => Promise.resolve({ dev: 1, ino: 1 }),
      sync: () =>
        path.endsWith('broken.db-wal')
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
          : path.endsWith('.db-wal')
            ? new Promise<void>((resolve) => released.push(resolve))
            : Promise.resolve(),
      close: () => Promise.resolve(),
    };
    return Promise.resolve(handle as unknown as FileHandle);
  };
  return { open, released, opened: () => opened };
}

/** Lets the microtasks and the I/O callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('GroupSync', () => {
  it('a write made while a sync runs waits for the next one, which the writes meanwhile share', async () => {
    const disk = heldDisk();
    const group = new GroupSync('/s/store.db', '/s', disk.open);
    let first = false;
    let second = false;
    void group.sync().then(() => (first = true));
    await settle();
    expect(disk.released).toHaveLength(1);
    // two commits while the first sync runs: it may have started before them
    const b = group.sync();
    const c = group.sync();
    expect(c).toBe(b);
    void b.then(() => (second = true));
    disk.released[0]!();
    await settle();
    expect(first).toBe(true);
    expect(second).toBe(false);
    expect(disk.released).toHaveLength(2);
    disk.released[1]!();
    await Promise.all([b, c]);
    expect(second).toBe(true);
    expect(group.syncs).toBe(2);
  });

  it('no log (checkpointed away) is nothing to sync; a failed sync is INTERNAL', async () => {
    const none = new GroupSync('/s/missing.db', '/s', heldDisk().open);
    await none.sync();
    expect(none.syncs).toBe(0);
    const broken = new GroupSync('/s/broken.db', '/s', heldDisk().open);
    const error = await broken.sync().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnamnesisError);
    expect((error as AnamnesisError).code).toBe('INTERNAL');
    expect((error as AnamnesisError).message).toMatch(/committed but may not survive/);
    // the next write's sync runs again
    expect(await broken.sync().catch((e: unknown) => (e as AnamnesisError).code)).toBe('INTERNAL');
  });
});
