import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { readTime, warmTimeStep } from '../src/recall/query/time.ts';
import { defaultEmbedder } from './helpers.ts';

/**
 * Time words in a query (issue 66): read against the recall's `now` in the local time zone, as
 * windows of creation times that feed the date leg and the match strength; their words leave the
 * lexical and vector legs. Dates here are local (as the person's are), so the tests hold in any
 * time zone.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Wednesday 18 November 2026, 15:00 local time. */
const now = new Date(2026, 10, 18, 15).getTime();
const day = (m: number, d: number, y = 2026) => new Date(y, m, d).getTime();

describe('readTime', () => {
  const window = (q: string) => {
    const t = readTime(q, now);
    expect(t.readings).toHaveLength(1);
    return [t.readings[0]!.start, t.readings[0]!.end];
  };

  it('reads days, weeks, months, seasons and years as windows, the latest that has begun', () => {
    // a day: that calendar day, six hours either side
    expect(window('two days ago')).toEqual([day(10, 16) - 6 * HOUR, day(10, 17) + 6 * HOUR]);
    expect(window('yesterday')).toEqual([day(10, 17) - 6 * HOUR, day(10, 18) + 6 * HOUR]);
    expect(window('last Tuesday')).toEqual([day(10, 17) - 6 * HOUR, day(10, 18) + 6 * HOUR]);
    // a weekday named alone is the latest one past
    expect(window('on Friday')).toEqual([day(10, 13) - 6 * HOUR, day(10, 14) + 6 * HOUR]);
    // a date stated in full: twelve hours either side
    expect(window('on 3 June 2025')).toEqual([
      day(5, 3, 2025) - 12 * HOUR,
      day(5, 4, 2025) + 12 * HOUR,
    ]);
    expect(window('2026-05-02')).toEqual([day(4, 2) - 12 * HOUR, day(4, 3) + 12 * HOUR]);
    // parts of a day
    expect(window('this morning')).toEqual([day(10, 18) + 5 * HOUR, day(10, 18) + 12 * HOUR]);
    expect(window('last night')).toEqual([day(10, 17) + 18 * HOUR, day(10, 18) + 6 * HOUR]);
    // a week: Sunday to Saturday and a day more either side
    expect(window('last week')).toEqual([day(10, 7), day(10, 16)]);
    // a month, a month without a year (the latest past one), a year, a season
    expect(window('last month')).toEqual([day(9, 1), day(10, 1)]);
    expect(window('in April')).toEqual([day(3, 1), day(4, 1)]);
    expect(window('in December')).toEqual([day(11, 1, 2025), day(0, 1)]);
    expect(window('in 2025')).toEqual([day(0, 1, 2025), day(0, 1)]);
    expect(window('four years ago')).toEqual([day(0, 1, 2022), day(0, 1, 2023)]);
    expect(window('last summer')).toEqual([day(5, 1), day(8, 1)]);
    expect(window('this spring')).toEqual([day(2, 1), day(5, 1)]);
    expect(window('last winter')).toEqual([day(11, 1, 2025), day(2, 1)]);
    // a named day, with a qualifier
    expect(window('last Christmas')).toEqual([day(11, 24, 2025), day(11, 27, 2025)]);
    expect(window('on Halloween')).toEqual([day(9, 31), day(10, 1)]);
  });

  it('takes the time words and their prepositions out of the query', () => {
    const rest = (q: string) => readTime(q, now).rest.replace(/\s+/gu, ' ').trim();
    expect(rest('what did I cook two days ago')).toBe('what did I cook');
    expect(rest("this morning's call")).toBe('call');
    expect(rest('photos from last summer')).toBe('photos');
    expect(rest('the invoice in April')).toBe('the invoice');
    expect(rest('vor zwei Tagen gekocht')).toBe('gekocht');
  });

  it('leaves alone what only looks like time, and what is still to come', () => {
    for (const q of [
      'ticket 4521-0092',
      'node 18.19.1',
      '1/2 cup sugar',
      'sat nav',
      'sun cream',
      'march on',
      'may I',
      'meeting at 10:30',
      'cache entries expire after five minutes',
      'the opening night',
      'now playing',
      'Christmas presents',
      'tomorrow',
      'next week',
      '立即写到磁盘',
    ]) {
      const t = readTime(q, now);
      expect(t.readings, q).toEqual([]);
      expect(t.rest, q).toBe(q);
    }
  });
});

describe('recall with time words', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    await engine.rememberMany([
      { id: 'stew', text: 'Baked a beef pie with red wine gravy', createdAt: now - 5 * HOUR },
      { id: 'dal', text: 'Baked banana bread for the kids', createdAt: now - 2 * DAY - 2 * HOUR },
      { id: 'pie', text: 'Baked an apple crumble with the neighbours', createdAt: now - 9 * DAY },
      { id: 'hedge', text: 'Trim the hedge before the frost', createdAt: now - 2 * DAY - HOUR },
      { id: 'roof', text: 'Roofer quoted for the gutters', createdAt: now - 20 * DAY },
      { id: 'dentist', text: 'Dentist: a filling on the lower left', createdAt: day(3, 14) },
      { id: 'optician', text: 'Optician: new glasses prescription', createdAt: day(6, 2) },
      {
        id: 'gig',
        text: 'The jazz gig at the harbour, front row',
        createdAt: day(5, 3, 2025) + 20 * HOUR,
      },
    ]);
  });
  afterAll(() => engine.close());

  it('a memory of the time asked about, on the topic, comes first and is not weak; others on the topic are weak', async () => {
    const rs = await engine.recall('what did I bake two days ago', { explain: true });
    expect(rs[0]!.id).toBe('dal');
    expect(rs[0]!.weak).toBeUndefined();
    expect(rs[0]!.explain!.match!.time).toBe(true);
    for (const id of ['stew', 'pie']) {
      const r = rs.find((x) => x.id === id);
      expect(r?.weak, id).toBe(true);
      expect(r!.explain!.match!.time).toBe(false);
    }
    // the hedge note was made then too, but on another topic: no answer
    expect(rs.find((r) => r.id === 'hedge')?.weak ?? true).toBe(true);
  });

  it('a month without a year, a full date and a time alone find their memory, strong', async () => {
    for (const [q, id] of [
      ['the dentist in April', 'dentist'],
      ['the gig on 3 June 2025', 'gig'],
      ['what happened this morning', 'stew'],
    ] as const) {
      const rs = await engine.recall(q);
      expect(rs[0]?.id, q).toBe(id);
      expect(rs[0]!.weak, q).toBeUndefined();
    }
  });

  it('explain.query shows the window', async () => {
    const [r] = await engine.recall('the dentist in April', { explain: true });
    expect(r!.explain!.query).toEqual([
      { kind: 'word', text: 'dentist', words: ['dentist'] },
      { kind: 'time', text: 'in April', words: [], window: { start: day(3, 1), end: day(4, 1) } },
    ]);
  });
});

describe('the time parsers warmed up behind the calls', () => {
  it('a step per warm-up query until none remain; what a query reads is the same before and after', () => {
    const before = ['what did I cook two days ago', 'встреча во вторник', '上周二的会议'].map((q) =>
      readTime(q, now),
    );
    let steps = 0;
    while (warmTimeStep() && steps < 100) steps++;
    expect(steps).toBeLessThan(20); // one step per warm-up query (14)
    expect(warmTimeStep()).toBe(false);
    expect(
      ['what did I cook two days ago', 'встреча во вторник', '上周二的会议'].map((q) =>
        readTime(q, now),
      ),
    ).toEqual(before);
    expect(before.map((t) => t.readings.length)).toEqual([1, 1, 1]);
  });
});
