import { afterEach, describe, expect, it, vi } from 'vitest';
import { BloomFilter } from '../src/store/bloom-filter.ts';
import { DedupIndex } from '../src/store/dedup-index.ts';
import { WasmReader } from '../src/store/reader.ts';
import { migrate } from '../src/store/schema.ts';
import { asDatabase, loadSqlite } from '../src/store/sqlite.ts';
import { dedupKey, insertMemories } from '../src/store/store.ts';

async function store(count: number) {
  const sqlite3 = await loadSqlite();
  const wasm = new sqlite3.oo1.DB(':memory:', 'c');
  const db = asDatabase(wasm);
  migrate(db, 'memory');
  const row = (i: number) => ({
    id: `m${i}`,
    text: `text ${i}`,
    kind: 'note',
    session: i % 2 ? 'odd' : null,
    tags: [],
    meta: {},
    importance: 0.5,
    createdAt: i,
    updatedAt: i,
    accessCount: 0,
    memoryScore: 0,
    contentHash: `h${i}`,
  });
  insertMemories(
    db,
    Array.from({ length: count }, (_, i) => row(i)),
  );
  return { db, read: new WasmReader(wasm, sqlite3), row };
}

describe('DedupIndex', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers from the index while the filter is rebuilt, and from the filter once complete', async () => {
    const { db, read, row } = await store(5000);
    const dedup = new DedupIndex(db, read);
    dedup.load(5000);
    dedup.stop(); // steps run by hand below
    expect(dedup.complete).toBe(false);
    expect(dedup.find('odd', 'h4999')).toBe('m4999');
    expect(dedup.find(null, 'h4999')).toBeUndefined();

    expect(dedup.buildStep(2000)).toBe(true);
    // a write between steps: its row lies beyond the cursor and its key is added by the writer
    insertMemories(db, [row(5000)]);
    dedup.add('\u0000h5000');
    expect(dedup.buildStep(2000)).toBe(true);
    expect(dedup.buildStep(2000)).toBe(false);
    expect(dedup.complete).toBe(true);

    // complete: every stored key is in the filter, so each lookup is found
    for (const i of [0, 1, 2999, 4999, 5000])
      expect(dedup.find(i % 2 ? 'odd' : null, `h${i}`)).toBe(`m${i}`);
    // and a key never stored is answered "no" (by the filter, or by the index on a false positive)
    expect(dedup.find('odd', 'h-none')).toBeUndefined();
    // the rebuilt filter can be saved, and a snapshot loads complete
    expect(dedup.saveSnapshot()).toBe(true);
    const again = new DedupIndex(db, read);
    again.load(5001);
    expect(again.complete).toBe(true);
    expect(again.find(null, 'h5000')).toBe('m5000');
  });

  it('rebuilds behind the open only while the engine is quiet: each call postpones the next step', async () => {
    const { db, read } = await store(5000);
    vi.useFakeTimers();
    let steps = 0;
    const dedup = new DedupIndex(db, read, (f) => {
      steps++;
      return f();
    });
    dedup.load(5000);
    vi.advanceTimersByTime(200);
    expect(steps).toBe(0); // not right after the open
    dedup.postpone(); // a call, every 200 ms: no step runs while they come
    vi.advanceTimersByTime(200);
    dedup.postpone();
    vi.advanceTimersByTime(200);
    expect(steps).toBe(0);
    vi.advanceTimersByTime(49);
    expect(steps).toBe(0);
    vi.advanceTimersToNextTimer(); // quiet for 250 ms: the first step
    expect(steps).toBe(1);
    dedup.postpone();
    vi.advanceTimersByTime(100);
    expect(steps).toBe(1);
    vi.runAllTimers();
    expect(steps).toBe(3); // 2000 + 2000 + 1000 rows
    expect(dedup.complete).toBe(true);
    dedup.postpone(); // nothing left to postpone: no step
    vi.runAllTimers();
    expect(steps).toBe(3);
  });

  it('saves no snapshot while the rebuild is incomplete', async () => {
    const { db, read } = await store(3000);
    const dedup = new DedupIndex(db, read);
    dedup.load(3000);
    dedup.stop();
    expect(dedup.saveSnapshot()).toBe(false);
    while (dedup.buildStep(1000));
    expect(dedup.saveSnapshot()).toBe(true);
  });

  it('rebuilds from the stored bytes the same bits as adding each key, each step a bulk read', async () => {
    const { db, read, row } = await store(0);
    // sessions of every width of UTF-8 (and none, and an empty one), hashes of any text
    const sessions = [null, '', 'odd', 'café', '日本語のセッション', '🧠 memory', 'a'.repeat(300)];
    const rows = Array.from({ length: 700 }, (_, i) => ({
      ...row(i),
      session: sessions[i % sessions.length]!,
      contentHash: i % 5 === 0 ? `ħ${i}✓` : `h${i}`,
    }));
    insertMemories(db, rows);
    // each step's read runs through the engine's bulk read (a small page cache on OPFS)
    let bulkReads = 0;
    const dedup = new DedupIndex(db, read, (f) => {
      bulkReads++;
      return f();
    });
    dedup.load(rows.length);
    dedup.stop();
    while (dedup.buildStep(256));
    expect(bulkReads).toBe(3); // 256 + 256 + 188 rows
    expect(dedup.saveSnapshot()).toBe(true);
    const expected = new BloomFilter(100_000, 0.001);
    for (const r of rows) expected.add(dedupKey(r.session, r.contentHash));
    const saved = db.selectValue("SELECT value FROM meta WHERE key = 'bloom'") as Uint8Array;
    expect(saved).toEqual(expected.toBytes());
  });
});
