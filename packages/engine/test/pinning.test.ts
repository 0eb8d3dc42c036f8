import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, WEAK_MATCH, type Engine } from '../src/index.ts';
import { defaultEmbedder, rejectsWith } from './helpers.ts';

/**
 * Pinning (issue 70): a pinned memory never decays and is always a candidate for its topics. An
 * old pinned note is found among hundreds of newer notes on the same topic, its score does not
 * fall as time passes, and the pin is stored (reopen, export and import keep it).
 */
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const start = Date.UTC(2026, 10, 18, 12);
let now = start;
let engine: Engine;
let pinnedId: string;
const QUERY = 'where is the spare key for the garden shed';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-pin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => now,
  });
  pinnedId = await engine.remember({
    text: 'The spare key for the garden shed hangs on the hook behind the boiler cupboard door',
    createdAt: start - 2 * YEAR,
  });
  // 300 newer notes on the same topic, each saying the spare shed key words more often
  const places = ['porch', 'car', 'office', 'drawer', 'bag', 'gate', 'mailbox', 'jar', 'shelf'];
  await engine.rememberMany(
    Array.from({ length: 300 }, (_, i) => ({
      text: `Spare key ${i}: the garden shed spare key went to the ${places[i % places.length]} today, shed key log ${i}`,
      createdAt: start - (i + 1) * DAY,
    })),
  );
});
afterAll(() => engine.close());

const rankOf = async (id: string, topK = 5) =>
  (await engine.recall(QUERY, { topK, noCache: true })).findIndex((r) => r.id === id);

describe('pinning', () => {
  // each test starts with the old note unpinned
  beforeEach(async () => {
    await engine.pin(pinnedId, false);
  });

  it('finds a pinned note two years old among 300 newer ones on its topic, and not when unpinned', async () => {
    expect(await rankOf(pinnedId)).toBe(-1); // without the pin it is outranked
    expect(await engine.pin(pinnedId)).toBe(true);
    expect(await engine.pin(pinnedId)).toBe(false); // pinned already: no change
    const rs = await engine.recall(QUERY, { topK: 5, explain: true });
    const hit = rs.find((r) => r.id === pinnedId);
    expect(hit).toBeDefined();
    expect(hit!.pinned).toBe(true);
    expect(hit!.explain!.pinned).toBe(true);
    expect(hit!.explain!.legs.map((l) => l.leg)).toContain('pinned');
    expect(rs.filter((r) => r.id !== pinnedId).every((r) => !r.pinned)).toBe(true);
    expect(await engine.pin(pinnedId, false)).toBe(true);
    expect(await rankOf(pinnedId)).toBe(-1);
    expect((await engine.get(pinnedId))!.pinned).toBe(false);
  });

  it('shows the pin in get and list, and lists the pinned memories by filter', async () => {
    await engine.pin(pinnedId);
    expect((await engine.get(pinnedId))!.pinned).toBe(true);
    const pinned = await engine.list({ filter: { pinned: true } });
    expect(pinned.map((m) => m.id)).toEqual([pinnedId]);
    const rest = await engine.list({ filter: { pinned: false }, limit: 1000 });
    expect(rest).toHaveLength(300);
    expect(rest.every((m) => !m.pinned)).toBe(true);
    await rejectsWith(engine.list({ filter: { pinned: 'yes' as never } }), 'INVALID_INPUT');
    await engine.pin(pinnedId, false);
  });

  it('a pinned memory is a candidate by meaning too, and not for an unrelated query', async () => {
    await engine.pin(pinnedId);
    // no word of the query in the note: its meaning (boiler cupboard) is above the floor
    const related = await engine.recall('water heater closet', { topK: 5, explain: true });
    const hit = related.find((r) => r.id === pinnedId);
    expect(hit).toBeDefined();
    const leg = hit!.explain!.legs.find((l) => l.leg === 'pinned');
    expect(leg?.rank).toBe(1);
    expect(hit!.explain!.match!.meaning).toBeGreaterThanOrEqual(WEAK_MATCH);
    const unrelated = await engine.recall('chocolate cake recipe with cherries', {
      topK: 400,
      minMatch: 0,
      explain: true,
    });
    for (const r of unrelated) expect(r.explain!.legs.map((l) => l.leg)).not.toContain('pinned');
    await engine.pin(pinnedId, false);
  });

  it('no recency decay: a pinned score stays as now moves a year ahead, an unpinned twin falls', async () => {
    const e = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    try {
      const kept = await e.remember({
        text: 'The boat trailer spare tyre is in the left corner of the garage',
        createdAt: start - 30 * DAY,
      });
      const twin = await e.remember({
        text: 'The boat trailer spare tyre is in the right corner of the garage',
        createdAt: start - 30 * DAY,
      });
      await e.rememberMany(
        ['Buy milk and eggs', 'Call the dentist on Monday', 'Renew the car insurance'].map(
          (text) => ({ text, createdAt: start - DAY }),
        ),
      );
      await e.pin(kept);
      const scores = async () => {
        const rs = await e.recall('boat trailer spare tyre garage', { noCache: true });
        return new Map(rs.map((r) => [r.id, r.score]));
      };
      now = start;
      const before = await scores();
      now = start + YEAR;
      const after = await scores();
      expect(after.get(kept)).toBeCloseTo(before.get(kept)!, 12);
      expect(after.get(twin)!).toBeLessThan(before.get(twin)!);
      // the linear profile with a recency factor: the same
      const linear = async () =>
        new Map(
          (
            await e.recall('boat trailer spare tyre garage', { profile: 'mnemexa', noCache: true })
          ).map((r) => [r.id, r.score]),
        );
      now = start;
      const l0 = await linear();
      now = start + YEAR;
      const l1 = await linear();
      expect(l1.get(kept)).toBeCloseTo(l0.get(kept)!, 12);
      expect(l1.get(twin)!).toBeLessThan(l0.get(twin)!);
    } finally {
      now = start;
      await e.close();
    }
  });

  it('refuses an unknown id and a pinned that is not a boolean', async () => {
    await rejectsWith(engine.pin('no-such-memory'), 'NOT_FOUND');
    await rejectsWith(engine.pin(pinnedId, 'yes' as never), 'INVALID_INPUT');
    await rejectsWith(engine.pin(pinnedId, 1 as never), 'INVALID_INPUT');
    await rejectsWith(engine.pin(42 as never), 'INVALID_INPUT');
    expect((await engine.get(pinnedId))!.pinned).toBe(false);
  });

  it('concurrent pin and unpin calls end in the last call’s state', async () => {
    const calls = [true, false, true, true, false, true, false, false, true];
    const replies = await Promise.all(calls.map((p) => engine.pin(pinnedId, p)));
    // each call applied in order: a reply is true exactly when the state flipped
    let state = false;
    expect(replies).toEqual(calls.map((p) => (p !== state ? ((state = p), true) : false)));
    expect((await engine.get(pinnedId))!.pinned).toBe(true);
    await Promise.all([engine.pin(pinnedId), engine.pin(pinnedId, false)]);
    expect((await engine.get(pinnedId))!.pinned).toBe(false);
  });

  it('export and import carry the pin; an old export without it imports unpinned', async () => {
    await engine.pin(pinnedId);
    const jsonl = await engine.export({ ids: [pinnedId] });
    const copy = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    try {
      expect(await copy.import(jsonl)).toBe(1);
      expect((await copy.get(pinnedId))!.pinned).toBe(true);
      expect((await copy.list({ filter: { pinned: true } })).map((m) => m.id)).toEqual([pinnedId]);
    } finally {
      await copy.close();
    }
    const old = jsonl
      .split('\n')
      .map((line) => {
        if (!line.includes('"memory"')) return line;
        const { pinned: _pinned, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(rest);
      })
      .join('\n');
    expect(old).not.toContain('pinned');
    const fromOld = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    try {
      expect(await fromOld.import(old)).toBe(1);
      expect((await fromOld.get(pinnedId))!.pinned).toBe(false);
      const bad = jsonl.replace('"pinned":true', '"pinned":"yes"');
      await rejectsWith(fromOld.import(bad, { onConflict: 'skip' }), 'INVALID_INPUT');
    } finally {
      await fromOld.close();
    }
    await engine.pin(pinnedId, false);
  });

  it('the pin persists across a reopen of a file store, and goes with a forgotten memory', async () => {
    const path = join(dir, 'pins.db');
    const embedder = await defaultEmbedder();
    const a = await createEngine({ storage: 'file', path, embedder });
    const id = await a.remember({ text: 'The wifi password is on the fridge magnet' });
    const other = await a.remember({ text: 'The bins go out on Thursday night' });
    expect(await a.pin(id)).toBe(true);
    await a.close();
    const b = await createEngine({ storage: 'file', path, embedder });
    try {
      expect((await b.get(id))!.pinned).toBe(true);
      expect((await b.get(other))!.pinned).toBe(false);
      expect((await b.recall('wifi password', { explain: true }))[0]!.explain!.pinned).toBe(true);
      expect(await b.forget(id)).toBe(1);
      expect(await b.list({ filter: { pinned: true } })).toEqual([]);
      expect(await b.verify()).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
