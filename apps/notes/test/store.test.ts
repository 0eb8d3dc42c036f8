import { createEngine, type Engine } from '@anamnesis/engine';
import { afterEach, describe, expect, it } from 'vitest';

import { NotesStore, type MemoryApi } from '../src/store.ts';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

/**
 * The engine, with the answers of `list` calls made while held kept back until released: a slow
 * read racing later ones.
 */
function withHeldLists(e: Engine): {
  api: MemoryApi;
  hold: () => void;
  stopHolding: () => void;
  release: () => void;
} {
  let held = false;
  const waiting: (() => void)[] = [];
  const api = new Proxy(e, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'list' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        const wait = held;
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (wait) await new Promise<void>((resolve) => waiting.push(resolve));
        return answer;
      };
    },
  }) as MemoryApi;
  return {
    api,
    hold: () => (held = true),
    stopHolding: () => (held = false),
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

describe('NotesStore', () => {
  it('keeps a note saved while an older load was still reading (the older load is dropped)', async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    const lists = withHeldLists(engine);
    const store = new NotesStore(lists.api);
    lists.hold();
    const stale = store.load(); // reads the store before the save, answers after it
    await new Promise((resolve) => setTimeout(resolve, 10));
    lists.stopHolding();
    const id = await store.save({ title: 'Walk', body: 'zqwalk along the river', tags: [] });
    expect(store.has(id)).toBe(true);
    lists.release();
    await stale;
    expect(store.has(id)).toBe(true);
    expect(store.get(id)!.body).toBe('zqwalk along the river');
  });

  it('loads what another client wrote once a later load runs', async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    const store = new NotesStore(engine);
    const other = new NotesStore(engine);
    const id = await other.save({ title: 'Bread', body: 'zqbread sourdough', tags: ['food'] });
    expect(store.has(id)).toBe(false);
    await store.load();
    expect(store.get(id)?.tags).toEqual(['food']);
  });

  it('loadFirst lists the most recent notes whole at once, the rest behind them; saves and deletes wait for all', async () => {
    let now = 1_700_000_000_000;
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf', now: () => now++ });
    const writer = new NotesStore(engine);
    const long = 'a long body paragraph about the garden and the river. '.repeat(80);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(await writer.save({ title: `Note ${i}`, body: `zq${i} ${long}`, tags: [] }));
    }
    let changes = 0;
    const store = new NotesStore(engine, () => changes++);
    await store.loadFirst(5); // returns with the first page; the rest is still being read
    expect(store.size).toBe(5);
    expect(store.complete).toBe(false);
    // The most recently updated five, whole (chunks included): the editor may open them.
    expect(store.all().map((n) => n.id)).toEqual(ids.slice(7).reverse());
    expect(store.get(ids[11]!)!.body).toBe(writer.get(ids[11]!)!.body);
    // A delete waits for every note: the load behind the first page cannot bring it back.
    await store.delete(ids[0]!);
    await store.whenComplete();
    expect(store.complete).toBe(true);
    expect(store.size).toBe(11);
    expect(store.has(ids[0]!)).toBe(false);
    expect(changes).toBeGreaterThanOrEqual(2);
    // A small store is read whole at once.
    const small = new NotesStore(engine);
    await small.loadFirst(100);
    expect(small.complete).toBe(true);
    expect(small.size).toBe(11);
  });

  it("finds the pages the person's browser extension saved beside the notes (synced here), each page once, and still nothing about what is not stored", async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    const store = new NotesStore(engine);
    await store.save({ title: 'Passport', body: 'The passport is in the blue folder.', tags: [] });
    // as the extension saves a page: its passages as memories of kind `page`, one session per address
    const url = 'https://example.org/litter';
    await engine.rememberMany(
      [
        'Kitten care: a shallow litter box, cleaned daily.',
        'Kitten care: scoop the litter box twice a day.',
      ].map((text, chunk) => ({
        text,
        kind: 'page',
        session: url,
        meta: { url, title: 'Kitten care', source: 'page', chunk, chunks: 2 },
      })),
    );
    await engine.remember({
      text: 'A page with no address of its own: not shown',
      kind: 'page',
      meta: { title: 'Lost page' },
    });
    await store.load();
    const hits = await store.search('kitten litter box', 'default');
    expect(hits.map((h) => h.noteId)).toEqual([`page:${url}`]);
    expect(hits[0]!.page).toEqual({ url, title: 'Kitten care' });
    expect((await store.search('blue folder passport', 'default'))[0]!.page).toBeUndefined();
    expect(await store.search('address of its own', 'default')).toEqual([]);
    expect(await store.search('zqxv quantum harpsichord', 'default')).toEqual([]);
  });
});
