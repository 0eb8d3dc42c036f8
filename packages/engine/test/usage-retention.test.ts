/**
 * Usage that does not grow without bound (issue 39): usage events older than a week are folded
 * into one row per memory and kind (a count and a decayed sum), so the `usage` table holds a week
 * of events whatever the number of recalls, and the usage score (half-life 7 days) is the one the
 * events themselves give, up to rounding. An import keeps at most a thousand events per memory
 * and folds the rest: a line with a million events is one pass, not a million statements.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { FEEDBACK_RIDS } from '../src/recall/recall-legs.ts';
import { defaultEmbedder, textStore } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

/** The usage leg's raw score of each memory a recall returns (profile with a usage leg). */
async function usageScores(engine: Engine, query: string): Promise<Map<string, number>> {
  const hits = await engine.recall(query, {
    profile: 'mnemosyne-rrf',
    explain: true,
    topK: 20,
    noCache: true,
  });
  return new Map(
    hits.map((h) => [h.id, h.explain!.legs.find((l) => l.leg === 'usage')?.score ?? 0]),
  );
}

/** Σ 2^(−age / 7 days) over events at `times`, seen at `now`. */
const exact = (times: readonly number[], now: number) =>
  times.reduce((s, at) => s + Math.pow(2, -Math.max(0, now - at) / (7 * DAY)), 0);

describe('usage retention', () => {
  it('folds events older than a week; the usage score is the same sum, and the table stays a week long', async () => {
    let now = T0;
    const engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    const ids = await engine.rememberMany(
      ['garden roses', 'garden tomatoes', 'garden fences', 'garden tools'].map((t) => ({
        text: `a note about ${t}`,
      })),
    );
    const times = new Map<string, number[]>(ids.map((id) => [id, []]));
    // 60 days of use: each memory used on its own days, and recalls every day
    for (let day = 0; day < 60; day++) {
      now = T0 + day * DAY + 3_600_000;
      ids.forEach((id, i) => {
        if ((day + i) % (i + 2) === 0) times.get(id)!.push(now);
      });
      for (const [id, list] of times) if (list.at(-1) === now) await engine.markUsed(id, 'used');
      await engine.recall('garden'); // 'retrieved' events, written by the next call
    }
    now += 2 * DAY;
    const scores = await usageScores(engine, 'a note about garden');
    for (const id of ids) expect(scores.get(id)!).toBeCloseTo(exact(times.get(id)!, now), 10);
    const stats = await engine.stats();
    // every event counted (folded ones too), the table holds the last week only
    const used = [...times.values()].reduce((n, l) => n + l.length, 0);
    expect(stats.usageEvents).toBe(used + 61 * ids.length); // 61 recalls: the one above too
    const exported = (await engine.export()).trim().split('\n').slice(1);
    for (const line of exported) {
      const { usage, usageFolded } = JSON.parse(line) as {
        usage: { at: number }[];
        usageFolded?: { event: string; count: number }[];
      };
      expect(usage.every((u) => u.at >= now - 9 * DAY)).toBe(true);
      expect(usageFolded!.length).toBeGreaterThan(0);
    }
    // the export round-trips with the same scores
    const copy = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    await copy.import(await engine.export());
    const copied = await usageScores(copy, 'a note about garden');
    for (const id of ids) expect(copied.get(id)!).toBeCloseTo(scores.get(id)!, 10);
    await copy.close();
    await engine.close();
  });

  it('an import keeps at most 1,000 events of a memory and folds the rest: a million events in one line', async () => {
    const now = T0;
    const engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    const times = Array.from({ length: 1_000_000 }, (_, i) => now - (i % 20_000) * 60_000);
    const line = JSON.stringify({
      type: 'memory',
      id: 'busy',
      text: 'a memory used a million times',
      usage: times.map((at) => ({ event: 'used', at })),
    });
    const started = performance.now();
    expect(await engine.import(line)).toBe(1);
    console.info(
      `import of a million usage events: ${(performance.now() - started).toFixed(0)} ms`,
    );
    const [exported] = (await engine.export()).trim().split('\n').slice(1);
    const { usage, usageFolded } = JSON.parse(exported!) as {
      usage: unknown[];
      usageFolded: { count: number }[];
    };
    expect(usage).toHaveLength(1000);
    expect(usageFolded[0]!.count).toBe(999_000);
    expect((await engine.stats()).usageEvents).toBe(1_000_000);
    const score = (await usageScores(engine, 'used a million times')).get('busy')!;
    expect(score / exact(times, now)).toBeCloseTo(1, 9);
    await engine.close();
  });

  it("setDeviceUsage: another device's folded usage counts beside the store's own, replaced whole, checked, and gone with its memory", async () => {
    const now = T0;
    const engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    const [id] = await engine.rememberMany([
      { text: 'the garden hose is in the shed' },
      { text: 'the shed key hangs by the door' },
    ]);
    await engine.markUsed(id!, 'used');
    expect((await usageScores(engine, 'garden hose shed')).get(id!)).toBeCloseTo(1, 9);
    // two events a day ago, one a week ago (folded: their decayed sum at the newest)
    const other = { event: 'used' as const, count: 3, decayed: 1 + 1 + 0.5, at: now - DAY };
    await engine.setDeviceUsage(id!, 'phone', [other]);
    const expected = 1 + exact([now - DAY, now - DAY, now - 8 * DAY], now);
    expect((await usageScores(engine, 'garden hose shed')).get(id!)).toBeCloseTo(expected, 9);
    await engine.setDeviceUsage(id!, 'phone', [other]); // replaced, not added
    expect((await usageScores(engine, 'garden hose shed')).get(id!)).toBeCloseTo(expected, 9);
    await engine.setDeviceUsage(id!, 'phone', []);
    expect((await usageScores(engine, 'garden hose shed')).get(id!)).toBeCloseTo(1, 9);
    // only this store's own events leave in an export
    expect(await engine.export({ ids: [id!] })).not.toContain('phone');
    for (const bad of [
      ['', [other]],
      ['x'.repeat(65), [other]],
      ['phone', [{ ...other, event: 'retrieved' }]],
      ['phone', [other, other]],
      ['phone', [{ ...other, count: -1 }]],
      ['phone', [{ ...other, decayed: Number.NaN }]],
      ['phone', 'used'],
    ] as const)
      await expect(engine.setDeviceUsage(id!, bad[0], bad[1] as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    await expect(engine.setDeviceUsage('nope', 'phone', [other])).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await engine.setDeviceUsage(id!, 'phone', [other]);
    await engine.forget(id!);
    await engine.remember({ text: 'the garden hose is in the shed' }); // a new memory, no usage
    expect(
      [...(await usageScores(engine, 'garden hose shed')).values()].every((v) => v === 0),
    ).toBe(true);
    await engine.close();
  });

  it('a memory used after recalls counts at the next recall: in this engine, and in another that shares the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anamnesis-usage-'));
    try {
      const path = join(dir, 'shared.db');
      const embedder = await defaultEmbedder();
      const a = await createEngine({ storage: 'file', path, embedder });
      const b = await createEngine({ storage: 'file', path, embedder });
      const [first, second] = await a.rememberMany([
        { text: 'the garden hose is in the shed' },
        { text: 'the garden shed key hangs by the door' },
      ]);
      // recalls that read the memories with feedback (none yet), and the 'retrieved' events they write
      for (let i = 0; i < 3; i++) expect((await usageScores(a, 'garden shed')).get(first!)).toBe(0);
      await a.markUsed(first!, 'used');
      expect((await usageScores(a, 'garden shed')).get(first!)).toBeGreaterThan(0);
      expect((await usageScores(a, 'garden shed')).get(second!)).toBe(0);
      await b.markUsed(second!, 'selected'); // another process
      expect((await usageScores(a, 'garden shed')).get(second!)).toBeGreaterThan(0);
      await b.setDeviceUsage(first!, 'phone', [
        { event: 'used', count: 1, decayed: 5, at: Date.now() },
      ]);
      const withPhone = (await usageScores(a, 'garden shed')).get(first!)!;
      expect(withPhone).toBeGreaterThan(5);
      await a.close();
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the memories with feedback are read through partial indexes, not every usage row', async () => {
    const { db } = await textStore(['a note']);
    try {
      const details = db
        .selectArrays(`EXPLAIN QUERY PLAN ${FEEDBACK_RIDS}`)
        .map((row) => String(row[3]))
        .filter((d) => /^(SCAN|SEARCH) /.test(d));
      expect(details).toEqual([
        expect.stringContaining('usage_feedback'),
        expect.stringContaining('usage_folded_feedback'),
        expect.stringContaining('usage_devices_feedback'),
      ]);
    } finally {
      db.close();
    }
  });
});
