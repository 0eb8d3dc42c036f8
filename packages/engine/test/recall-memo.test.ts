import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import { createEngine, type Engine, type RecallResult } from '../src/index.ts';
import { RecallMemo, RidMemo } from '../src/recall/rid-memo.ts';
import type { Reader } from '../src/store/reader.ts';
import { defaultEmbedder, NOTES } from './helpers.ts';

describe('RidMemo', () => {
  it('answers what the reader would, ascending by rid, reading only rids it does not hold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 40 }),
        (asks, capacity) => {
          const memo = new RidMemo<string | null>(capacity);
          // the store: even rids exist (odd ones are absent); rids divisible by 4 hold null
          const value = (rid: number) => (rid % 4 === 0 ? null : `v${rid}`);
          const held = new Set<number>();
          for (const rids of asks) {
            let asked: number[] = [];
            const got = memo.get(rids, (missing) => {
              asked = missing;
              return missing.filter((r) => r % 2 === 0).map((r) => [r, value(r)] as const);
            });
            const want = [...new Set(rids)].filter((r) => r % 2 === 0).sort((a, b) => a - b);
            expect([...got.keys()]).toEqual(want);
            for (const [rid, v] of got) expect(v).toBe(value(rid));
            for (const rid of asked) expect(held.has(rid)).toBe(false);
            if (held.size + asked.filter((r) => r % 2 === 0).length > capacity) held.clear();
            for (const rid of asked) if (rid % 2 === 0) held.add(rid);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts again empty once the values it would keep pass its capacity', () => {
    const memo = new RidMemo<number>(4);
    const read = (missing: number[]) => missing.map((r) => [r, r * 10] as const);
    memo.get([1, 2, 3], read);
    memo.get([4, 5], read); // 3 kept + 2 read > 4: the memo starts again, keeping 4 and 5
    let asked: number[] = [];
    expect([...memo.get([1, 4, 5], (m) => ((asked = m), read(m))).values()]).toEqual([10, 40, 50]);
    expect(asked).toEqual([1]);
  });

  it('reads everything again after clear()', () => {
    const memo = new RidMemo<number>();
    const read = (missing: number[]) => missing.map((r) => [r, r * 10] as const);
    memo.get([3, 1, 2], read);
    let asked: number[] = [];
    memo.get([1, 2, 3], (m) => ((asked = m), read(m)));
    expect(asked).toEqual([]);
    memo.clear();
    memo.get([1, 2, 3], (m) => ((asked = m), read(m)));
    expect(asked).toEqual([1, 2, 3]);
  });
});

describe('RecallMemo', () => {
  it('keeps what the lexical legs counted and read when only usage changed, and nothing after clear()', () => {
    const memo = new RecallMemo();
    memo.match.slotCounts.set('"kitten"', 3);
    let vocabReads = 0;
    // a reader of the vocabulary alone, counting its reads (the memo's only use of it here)
    const vocab = {
      all: () => (vocabReads++, [{ term: 'kitten', doc: 3 }]),
    } as unknown as Reader;
    memo.match.words.beginning(vocab, 'kit');
    let phraseReads = 0;
    const matches = () => {
      phraseReads++;
      return { rids: Int32Array.of(1, 2, 3), bm25: Float64Array.of(-1, -2, -3) };
    };
    memo.match.phrases.get('bm25(memories_fts)', '"kitten"', matches);
    const read = (missing: number[]) => missing.map((r) => [r, null] as const);
    const row = (missing: number[]) => missing.map((r) => [r, {} as never] as const);
    memo.speakers.get([1], read);
    memo.rows.get([1], row);
    memo.usageChanged();
    let asked: number[] = [];
    memo.rows.get([1], (m) => ((asked = m), row(m)));
    expect(asked).toEqual([1]); // rows hold access counts: read again
    asked = [];
    memo.speakers.get([1], (m) => ((asked = m), read(m)));
    expect(asked).toEqual([]);
    expect(memo.match.slotCounts.get('"kitten"')).toBe(3);
    expect(memo.match.words.beginning(vocab, 'kit')).toHaveLength(1);
    expect(vocabReads).toBe(1);
    memo.match.phrases.get('bm25(memories_fts)', '"kitten"', matches);
    expect(phraseReads).toBe(1);
    memo.clear();
    expect(memo.match.slotCounts.size).toBe(0);
    memo.match.words.beginning(vocab, 'kit');
    expect(vocabReads).toBe(2);
    memo.match.phrases.get('bm25(memories_fts)', '"kitten"', matches);
    expect(phraseReads).toBe(2);
  });
});

/** A result's contribution value of `component`, or undefined. */
const valueOf = (r: RecallResult | undefined, component: string) =>
  r?.explain?.contributions.find((c) => c.component === component)?.value;

describe('recall after a change reads the rows as they are now (kept values are dropped)', () => {
  const clock = Date.UTC(2026, 5, 1);
  let engine: Engine;
  afterEach(async () => engine.close());
  const open = async () =>
    (engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => clock,
    }));

  it('an updated importance', async () => {
    await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten on the sofa';
    const opts = { explain: true, noCache: true, profile: 'mnemosyne' } as const;
    const before = (await engine.recall(q, opts)).find((r) => r.id === 'cat');
    expect(valueOf(before, 'importance')).toBe(0.5);
    await engine.update('cat', { importance: 0.9 });
    const after = (await engine.recall(q, opts)).find((r) => r.id === 'cat');
    expect(valueOf(after, 'importance')).toBe(0.9);
  });

  it('an updated importance, with no retrieval count pending to flush first', async () => {
    await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten on the sofa';
    // reads the candidates' rows (kept by the memo) but answers nothing, so records no retrieval:
    // only the write's own clearing can drop the kept row
    expect(await engine.recall(q, { noCache: true, minSimilarity: 0.9999 })).toEqual([]);
    await engine.update('cat', { importance: 0.9 });
    const opts = { explain: true, noCache: true, profile: 'mnemosyne' } as const;
    const after = (await engine.recall(q, opts)).find((r) => r.id === 'cat');
    expect(valueOf(after, 'importance')).toBe(0.9);
  });

  it('access counts written behind recalls', async () => {
    await open();
    await engine.rememberMany(NOTES);
    const q = 'kitten on the sofa';
    const opts = { explain: true, noCache: true, profile: 'mnemexa' } as const;
    const first = (await engine.recall(q, opts)).find((r) => r.id === 'cat');
    expect(valueOf(first, 'frequency')).toBe(0);
    await engine.stats(); // a call other than recall writes the queued retrievals
    const next = (await engine.recall(q, opts)).find((r) => r.id === 'cat');
    expect(valueOf(next, 'frequency')).toBeGreaterThan(0);
  });

  it('a new turn between two of a session', async () => {
    await open();
    const turn = (id: string, text: string, seconds: number) => ({
      id,
      text,
      session: 'chat',
      createdAt: clock - 60_000 + seconds * 1000,
    });
    await engine.rememberMany([
      turn('a', 'I adopted a kitten named Luna, she sleeps on the sofa', 0),
      turn('c', 'The quarterly tax filing deadline is in April', 2),
    ]);
    const q = 'kitten Luna sofa';
    const opts = { explain: true, noCache: true, topK: 3 } as const;
    const before = await engine.recall(q, opts);
    expect(
      valueOf(
        before.find((r) => r.id === 'c'),
        'context:neighbor',
      ),
    ).toBeGreaterThan(0);
    await engine.remember(turn('b', 'Sourdough needs flour, water and salt', 1));
    const after = await engine.recall(q, opts);
    expect(
      valueOf(
        before.find((r) => r.id === 'c'),
        'context:near',
      ),
    ).toBeUndefined();
    // b is now a's neighbour; c is two turns from a
    expect(
      valueOf(
        after.find((r) => r.id === 'c'),
        'context:near',
      ),
    ).toBeGreaterThan(0);
  });

  it("a turn's new speaker", async () => {
    await open();
    const turns = [
      'Ana: how was your weekend?',
      'Ben: we went kayaking on the lake and grilled fish',
      'Ben: I signed up for a pottery class yesterday',
      'Ana: pottery sounds relaxing',
    ];
    await engine.rememberMany(
      turns.map((text, i) => ({
        id: `t${i}`,
        text,
        meta: { speaker: text.slice(0, text.indexOf(':')) },
        session: 's',
        createdAt: clock - 9e6 + i * 1000,
      })),
    );
    const q = 'what class did Ana sign up for?';
    const opts = { explain: true, noCache: true, topK: 4 } as const;
    const lifted = (rs: RecallResult[]) =>
      rs.filter((r) => valueOf(r, 'speaker') !== undefined).map((r) => r.id);
    expect(lifted(await engine.recall(q, opts))).not.toContain('t2');
    await engine.update('t2', { meta: { speaker: 'Ana' } });
    expect(lifted(await engine.recall(q, opts))).toContain('t2');
  });
});
