import { describe, expect, it } from 'vitest';
import { queryDateWindows } from '../src/query-dates.ts';

const iso = (text: string, margin?: number) =>
  queryDateWindows(text, margin).map((w) => [
    new Date(w.start).toISOString().slice(0, 13),
    new Date(w.end).toISOString().slice(0, 13),
  ]);

describe('queryDateWindows', () => {
  it('reads days in three spellings, widened by the margin', () => {
    expect(iso('what did she say on 3 June, 2023?')).toEqual([['2023-06-02T12', '2023-06-04T12']]);
    expect(iso('on October 13th, 2023')).toEqual([['2023-10-12T12', '2023-10-14T12']]);
    expect(iso('the note of 2024-02-29', 0)).toEqual([['2024-02-29T00', '2024-03-01T00']]);
  });

  it('reads a month with its year as the whole month', () => {
    expect(iso('What did Maria donate in December 2023?')).toEqual([
      ['2023-12-01T00', '2024-01-01T00'],
    ]);
    expect(iso('in Sept. 2022')).toEqual([['2022-09-01T00', '2022-10-01T00']]);
  });

  it('reads nothing without a date: words, years alone, relative dates', () => {
    expect(queryDateWindows('May I ask what happened last week?')).toEqual([]);
    expect(queryDateWindows('in 2023')).toEqual([]);
    expect(queryDateWindows('')).toEqual([]);
  });

  it('skips an impossible day but keeps its month', () => {
    expect(iso('on 31 February, 2023')).toEqual([['2023-02-01T00', '2023-03-01T00']]);
    expect(queryDateWindows('on 2023-13-01')).toEqual([]);
  });
});
