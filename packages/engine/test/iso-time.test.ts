/**
 * Times given as ISO 8601 strings (issue 71): people and JSON carry dates that way, so `createdAt`
 * (remember, rememberMany, import, the CLI's ingest) and an import's `updatedAt` take them, stored
 * as ms. A date alone is midnight UTC; a time needs `Z` or an offset; what `Date.parse` would
 * guess at ("12/06/2026", a time without a zone) is `INVALID_INPUT`, and nothing is stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { isoTime } from '../src/input/iso-time.ts';
import { rejectsWith } from './helpers.ts';

describe('isoTime', () => {
  it('reads a date as midnight UTC, and a date and time in its zone', () => {
    const at = Date.UTC(2026, 5, 12, 9, 30);
    const cases: [string, number][] = [
      ['2026-06-12', Date.UTC(2026, 5, 12)],
      ['2026-06-12T09:30Z', at],
      ['2026-06-12T09:30:00Z', at],
      ['2026-06-12t09:30:00z', at],
      ['2026-06-12T09:30:00.000Z', at],
      ['2026-06-12T09:30:00.25Z', at + 250],
      ['2026-06-12T09:30:00,5Z', at + 500],
      ['2026-06-12T09:30:00.1239Z', at + 123],
      ['2026-06-12T11:30:00+02:00', at],
      ['2026-06-12T11:30+0200', at],
      ['2026-06-12T11:30+02', at],
      ['2026-06-12T04:00:00-05:30', at],
      ['2026-06-13T00:30:00+15:00', at],
      ['2024-02-29', Date.UTC(2024, 1, 29)],
      // the year 50, not 1950 (as Date.UTC would read it)
      ['0050-01-01', new Date(0).setUTCFullYear(50, 0, 1)],
      ['+275760-09-13T00:00:00Z', 8.64e15],
      ['-271821-04-20', -8.64e15],
    ];
    for (const [text, ms] of cases) {
      expect(isoTime(text, 'createdAt'), text).toBe(ms);
      // and where ECMAScript's own date format reads the text, the same instant
      const parsed = Date.parse(text);
      if (!Number.isNaN(parsed)) expect(parsed, text).toBe(ms);
    }
  });

  it("refuses what Date.parse would guess at, a time without a zone, and days or hours that don't exist", () => {
    for (const text of [
      '12/06/2026', // 12 June or 6 December: Date.parse reads it as a local 6 December
      'June 12, 2026',
      'Fri, 12 Jun 2026 09:30:00 GMT',
      '2026-06-12T09:30:00', // a local time: another instant on every machine
      '2026-06-12 09:30:00Z',
      '2026-06-12T09Z',
      '2026-6-12',
      '20260612',
      '2026-06',
      '2026',
      '',
      ' 2026-06-12',
      '2026-06-12 ',
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-06-00',
      '2026-06-12T24:00:00Z',
      '2026-06-12T23:60Z',
      '2026-06-12T23:59:60Z',
      '2026-06-12T09:30:00+2:00',
      '2026-06-12T09:30:00+24:00',
      '2026-06-12T09:30:00+02:60',
      '-000000-01-01',
      '1781136000000',
    ])
      expect(() => isoTime(text, 'createdAt'), text).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/^The input is not valid: createdAt must be an ISO 8601/),
        }) as Error,
      );
    expect(Date.parse('12/06/2026')).not.toBeNaN();
    expect(Date.parse('2026-06-12T09:30:00')).not.toBeNaN();
  });
});

describe('createdAt and updatedAt as ISO 8601 strings in the engine', () => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  });
  afterEach(() => engine.close());

  it('remember and rememberMany store them as ms', async () => {
    const id = await engine.remember({ text: 'dentist on Friday', createdAt: '2026-06-12' });
    expect((await engine.get(id))!.createdAt).toBe(Date.UTC(2026, 5, 12));
    const ids = await engine.rememberMany([
      { text: 'flight to Lisbon', createdAt: '2026-06-12T11:30:00+02:00' },
      { text: 'flight back', createdAt: new Date('2026-06-19T18:00:00Z') },
      { text: 'hotel booked', createdAt: Date.UTC(2026, 5, 1) },
    ]);
    expect((await Promise.all(ids.map((i) => engine.get(i)))).map((m) => m!.createdAt)).toEqual([
      Date.UTC(2026, 5, 12, 9, 30),
      Date.UTC(2026, 5, 19, 18),
      Date.UTC(2026, 5, 1),
    ]);
  });

  it('a string that is no ISO 8601 time is INVALID_INPUT, and nothing is stored', async () => {
    for (const createdAt of ['12/06/2026', '2026-06-12T09:30:00', 'yesterday']) {
      const e = await rejectsWith(engine.remember({ text: 'when?', createdAt }), 'INVALID_INPUT');
      expect(e.message).toContain('createdAt');
      await rejectsWith(
        engine.rememberMany([{ text: 'fine' }, { text: 'when?', createdAt }]),
        'INVALID_INPUT',
      );
    }
    expect((await engine.stats()).memories).toBe(0);
  });

  it('import reads createdAt and updatedAt as ISO 8601 too', async () => {
    const lines = [
      {
        id: 'a',
        text: 'dentist on Friday',
        createdAt: '2026-06-12',
        updatedAt: '2026-06-13T08:00Z',
      },
      { id: 'b', text: 'flight to Lisbon', createdAt: '2026-06-12T11:30:00+02:00' },
    ];
    expect(await engine.import(lines.map((l) => JSON.stringify(l)).join('\n'))).toBe(2);
    expect(await engine.get('a')).toMatchObject({
      createdAt: Date.UTC(2026, 5, 12),
      updatedAt: Date.UTC(2026, 5, 13, 8),
    });
    // no updatedAt: the creation time
    expect(await engine.get('b')).toMatchObject({
      createdAt: Date.UTC(2026, 5, 12, 9, 30),
      updatedAt: Date.UTC(2026, 5, 12, 9, 30),
    });
    const bad = JSON.stringify({ id: 'c', text: 'x', updatedAt: '13/06/2026' });
    const e = await rejectsWith(engine.import(bad), 'INVALID_INPUT');
    expect(e.message).toContain('updatedAt');
    expect(await engine.get('c')).toBeNull();
  });
});
