/**
 * `rememberMany(inputs, { replace })` (issue 41): what the filter selects is deleted and the new
 * memories stored in one transaction, so a page saved again (the extension) or a file ingested
 * again (the CLI) never has its old passages gone without the new ones in their place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';

import { createEngine, type Engine, type StoreChange } from '../src/index.ts';
import { onDisk, rejectsWith } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-replace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = 'https://a.example/trip';
const page = (texts: string[]) =>
  texts.map((text, chunk) => ({
    text,
    kind: 'page',
    session: PAGE,
    meta: { source: 'page', chunk },
  }));
const OLD = page(['Lisbon trip: tram 28 at nine', 'Lisbon trip: pastries in Belém']);
const REPLACE = { kind: 'page', session: PAGE, meta: { source: 'page' } };

let engine: Engine;
let changes: StoreChange[];

beforeEach(async () => {
  changes = [];
  engine = await createEngine({
    storage: 'memory',
    embedder: 'tfidf',
    onChange: (c) => changes.push(c),
  });
});
afterEach(() => engine.close());

const texts = async () =>
  (await engine.list({ filter: { session: PAGE }, limit: 100 })).map((m) => m.text).sort();

describe('rememberMany with replace', () => {
  test('deletes what the filter selects and stores the new memories, as one change', async () => {
    const old = await engine.rememberMany(OLD);
    await engine.rememberMany([{ text: 'Lisbon trip: a selection', session: PAGE, kind: 'page' }]);
    changes.length = 0;
    const ids = await engine.rememberMany(page(['Lisbon trip: tram 28 at ten', 'New passage']), {
      replace: REPLACE,
    });
    expect(await texts()).toEqual([
      'Lisbon trip: a selection', // not selected by the filter: kept
      'Lisbon trip: tram 28 at ten',
      'New passage',
    ]);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.kind).toBe('remember');
    expect([...changes[0]!.ids].sort()).toEqual([...old, ...ids].sort());
    for (const id of old) expect(await engine.get(id)).toBeNull();
    const [hit] = await engine.recall('tram', { minMatch: 0 });
    expect(hit!.text).toBe('Lisbon trip: tram 28 at ten');
  });

  test('a text that was stored and is replaced is stored again, not answered with the deleted id', async () => {
    const [first] = await engine.rememberMany(OLD);
    const again = await engine.rememberMany(OLD, { replace: REPLACE });
    expect(again).toHaveLength(2);
    expect(again).not.toContain(first);
    for (const id of again) expect(await engine.get(id)).not.toBeNull();
    expect(await texts()).toEqual(OLD.map((m) => m.text).sort());
    expect((await engine.stats()).memories).toBe(2);
  });

  test('an id given again may take the place of the memory it replaces', async () => {
    await engine.rememberMany([{ id: 'p1', text: 'old text', session: PAGE }]);
    expect(
      await engine.rememberMany([{ id: 'p1', text: 'new text', session: PAGE }], {
        replace: { ids: ['p1'] },
      }),
    ).toEqual(['p1']);
    expect((await engine.get('p1'))!.text).toBe('new text');
    // without replace the id is taken
    await rejectsWith(engine.rememberMany([{ id: 'p1', text: 'x' }]), 'INVALID_INPUT');
  });

  test('a filter that sets no condition is INVALID_INPUT, and nothing changes', async () => {
    await engine.rememberMany(OLD);
    for (const replace of [{}, { meta: {} }, 'x', null]) {
      await rejectsWith(engine.rememberMany(page(['new']), { replace } as never), 'INVALID_INPUT');
    }
    expect(await texts()).toEqual(OLD.map((m) => m.text).sort());
  });

  test('a write that fails inside the transaction leaves the old memories (a failure after the delete)', async () => {
    await engine.rememberMany(OLD);
    // the second new memory links to a memory that does not exist: NOT_FOUND inside the insert
    await rejectsWith(
      engine.rememberMany([...page(['New one']), { text: 'New two', links: [{ to: 'missing' }] }], {
        replace: REPLACE,
      }),
      'NOT_FOUND',
    );
    expect(await texts()).toEqual(OLD.map((m) => m.text).sort());
    const [hit] = await engine.recall('pastries', { minMatch: 0 });
    expect(hit!.text).toBe('Lisbon trip: pastries in Belém');
  });
});

test('on a file store, SQLite refusing the insert (a full disk, simulated) leaves the old memories, and a reopen shows them', async () => {
  const path = join(dir, 'full.db');
  const file = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
  try {
    await file.rememberMany(OLD);
    // another connection makes SQLite refuse new texts containing "Belém, again" from now on
    const other = onDisk(path);
    other.exec(
      "CREATE TRIGGER full BEFORE INSERT ON memories WHEN NEW.text LIKE '%again%' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    other.close();
    await expect(
      file.rememberMany(page(['Lisbon trip: tram 28', 'Lisbon trip: Belém, again']), {
        replace: REPLACE,
      }),
    ).rejects.toThrow();
    const kept = await file.list({ filter: { session: PAGE }, limit: 10 });
    expect(kept.map((m) => m.text).sort()).toEqual(OLD.map((m) => m.text).sort());
  } finally {
    await file.close();
  }
  const reopened = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
  try {
    const kept = await reopened.list({ filter: { session: PAGE }, limit: 10 });
    expect(kept.map((m) => m.text).sort()).toEqual(OLD.map((m) => m.text).sort());
  } finally {
    await reopened.close();
  }
});
