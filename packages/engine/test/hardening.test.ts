/**
 * Nothing deleted or stored that the caller did not mean (issue 28): a destructive call needs an
 * explicit, non-empty target; metadata, links and imported text have limits; `recoverStore` on a
 * crafted file does no more work than the file's size allows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEngine,
  MAX_LINKS,
  MAX_META_CHARS,
  MAX_META_KEYS,
  recoverStore,
  type Engine,
  type MemoryFilter,
} from '../src/index.ts';
import { exportDatabase, importDatabase, loadSqlite } from '../src/store/sqlite.ts';
import { rejectsWith } from './helpers.ts';

let engine: Engine;
beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf', maxTextLength: 1000 });
  await engine.rememberMany([
    { text: 'the cat sleeps on the sofa', kind: 'note', tags: ['home'], session: 's1' },
    { text: 'quarterly tax receipts are in the blue folder', kind: 'document', meta: { n: 1 } },
    { text: 'call the plumber about the sink', kind: 'note' },
  ]);
});
afterEach(() => engine.close());

const count = async () => (await engine.stats()).memories;

describe('forget needs a target that selects something', () => {
  /** Filters that look like conditions but set none. */
  const emptyLooking = fc.oneof(
    fc.constant({}),
    fc.constant({ meta: {} }),
    fc.record(
      {
        tags: fc.constant(undefined),
        kind: fc.constant(undefined),
        session: fc.constant(undefined),
        ids: fc.constant(undefined),
        after: fc.constant(undefined),
        before: fc.constant(undefined),
        meta: fc.constantFrom(undefined, {}),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        tags: fc.constantFrom([], undefined),
        kind: fc.constantFrom([], undefined),
        session: fc.constantFrom([], undefined),
        ids: fc.constantFrom([], undefined),
        meta: fc.constantFrom({}, undefined),
        unknown: fc.anything(),
        all: fc.constantFrom(false, 0, 'true', null, undefined),
      },
      { requiredKeys: [] },
    ),
  );

  it('no empty-looking filter deletes anything (property)', async () => {
    const before = await engine.export();
    await fc.assert(
      fc.asyncProperty(emptyLooking, async (filter) => {
        await rejectsWith(engine.forget(filter as MemoryFilter), 'INVALID_INPUT');
        expect(await engine.export()).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it('{ meta: {} } and { tags: undefined } are refused, as through structured clone', async () => {
    for (const filter of [
      { meta: {} },
      { tags: undefined },
      structuredClone({ tags: undefined, meta: {} }),
    ]) {
      await rejectsWith(engine.forget(filter), 'INVALID_INPUT');
    }
    expect(await count()).toBe(3);
  });

  it('{ all: true } deletes every memory; all with another key, or not true, is refused', async () => {
    await rejectsWith(engine.forget({ all: true, kind: 'note' } as never), 'INVALID_INPUT');
    await rejectsWith(engine.forget({ all: false } as never), 'INVALID_INPUT');
    expect(await count()).toBe(3);
    expect(await engine.forget({ all: true })).toBe(3);
    expect(await count()).toBe(0);
  });

  it('a real condition still deletes what it selects, and recall still takes an empty meta', async () => {
    expect(await engine.forget({ kind: 'note', meta: {} })).toBe(2);
    expect(await count()).toBe(1);
    expect(await engine.recall('tax', { filter: { meta: {} } })).toHaveLength(1);
  });
});

describe('limits on what one memory carries', () => {
  it('meta: too many keys, too many characters, reserved names', async () => {
    const keys = Object.fromEntries(
      Array.from({ length: MAX_META_KEYS + 1 }, (_, i) => [`k${i}`, i]),
    );
    await rejectsWith(engine.remember({ text: 'many keys', meta: keys }), 'INVALID_INPUT');
    await rejectsWith(
      engine.remember({ text: 'huge value', meta: { v: 'x'.repeat(MAX_META_CHARS) } }),
      'INVALID_INPUT',
    );
    const id = (await engine.list({ limit: 1 }))[0]!.id;
    await rejectsWith(engine.update(id, { meta: { v: 'y'.repeat(20_000_000) } }), 'INVALID_INPUT');
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const meta = JSON.parse(`{"${key}": 1}`) as Record<string, number>;
      await rejectsWith(engine.remember({ text: `reserved ${key}`, meta }), 'INVALID_INPUT');
      await rejectsWith(engine.recall('x', { filter: { meta } }), 'INVALID_INPUT');
    }
    expect(await count()).toBe(3);
    // the largest allowed meta is stored whole
    const fits = { v: 'z'.repeat(MAX_META_CHARS - 20) };
    const id2 = await engine.remember({ text: 'big but allowed', meta: fits });
    expect((await engine.get(id2))?.meta).toEqual(fits);
  });

  it('links: at most MAX_LINKS per memory, through remember and link', async () => {
    const targets = await engine.rememberMany(
      Array.from({ length: MAX_LINKS + 1 }, (_, i) => ({ text: `target number ${i}` })),
    );
    await rejectsWith(
      engine.remember({ text: 'too linked', links: targets.map((to) => ({ to })) }),
      'INVALID_INPUT',
    );
    const hub = await engine.remember({
      text: 'hub',
      links: targets.slice(0, MAX_LINKS).map((to) => ({ to })),
    });
    await rejectsWith(engine.link(hub, targets[MAX_LINKS]!), 'INVALID_INPUT');
    // re-linking an existing pair (an upsert) is not a new link
    await engine.link(hub, targets[0]!, { weight: 2 });
    expect((await engine.stats()).links).toBe(MAX_LINKS);
  });

  it('import keeps the engine text limit', async () => {
    const other = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await other.remember({ text: 'long '.repeat(400) });
    const jsonl = await other.export();
    await other.close();
    await rejectsWith(engine.import(jsonl), 'INVALID_INPUT');
    expect(await count()).toBe(3);
  });
});

describe('recoverStore on a crafted file', () => {
  it('a store claiming rids up to 2^53 with its table smashed finishes and reports no phantoms', async () => {
    const bytes = await smashedStore(2 ** 53 - 1);
    const r = await recoverStore(bytes);
    expect(r.recovered + r.unreadable).toBeLessThanOrEqual(3);
  });

  it('a store claiming 160,000 rids reports at most the three memories it has', async () => {
    const bytes = await smashedStore(160_000);
    const r = await recoverStore(bytes);
    expect(r.unreadable).toBeGreaterThan(0);
    expect(r.recovered + r.unreadable).toBeLessThanOrEqual(3);
  });

  it('a healthy store with a rid of 2^53 - 1 is recovered whole', async () => {
    const bytes = await storeWithTopRid(2 ** 53 - 1);
    const r = await recoverStore(bytes);
    expect(r.recovered).toBe(3);
    expect(r.unreadable).toBe(0);
  });
});

/** The bytes of a store holding three memories with rids 1, 2 and `top`. */
async function storeWithTopRid(top: number): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-harden-'));
  try {
    const path = join(dir, 'store.db');
    const e = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    await e.rememberMany(['alpha note', 'beta note', 'gamma note'].map((text) => ({ text })));
    await e.close();
    const sqlite3 = await loadSqlite();
    const db = importDatabase(sqlite3, new Uint8Array(readFileSync(path)));
    try {
      db.exec('PRAGMA foreign_keys = OFF');
      db.exec({ sql: 'UPDATE memories SET rid = ? WHERE rid = 3', bind: [top] });
      db.exec({ sql: 'UPDATE embeddings SET rid = ? WHERE rid = 3', bind: [top] });
      return exportDatabase(sqlite3, db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** {@link storeWithTopRid} with the memories table's root page (a leaf) overwritten with 0xff. */
async function smashedStore(top: number): Promise<Uint8Array> {
  const bytes = await storeWithTopRid(top);
  const sqlite3 = await loadSqlite();
  const db = importDatabase(sqlite3, bytes.slice());
  let root: number;
  let pageSize: number;
  try {
    root = Number(db.selectValue("SELECT rootpage FROM sqlite_master WHERE name = 'memories'"));
    pageSize = Number(db.selectValue('PRAGMA page_size'));
  } finally {
    db.close();
  }
  bytes.fill(0xff, (root - 1) * pageSize, root * pageSize);
  return bytes;
}
