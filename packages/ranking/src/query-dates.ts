/** A time window `[start, end)` in ms since the epoch (UTC). */
export interface TimeWindow {
  start: number;
  end: number;
}

const MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;
const MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';
const ORD = '(?:st|nd|rd|th)?';
const DAY_MONTH_YEAR = new RegExp(
  `\\b(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MONTH}\\.?,?\\s+(\\d{4})\\b`,
  'giu',
);
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})${ORD},?\\s+(\\d{4})\\b`, 'giu');
const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/gu;
const MONTH_YEAR = new RegExp(`\\b${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'giu');
const HOUR = 3_600_000;

function month(name: string): number {
  return MONTHS.indexOf(name.toLowerCase().slice(0, 3) as (typeof MONTHS)[number]);
}

/**
 * The calendar dates a query names, as time windows: a day ("8 May, 2023", "May 8th 2023",
 * "2023-05-08") widened by `marginHours` on each side (time zones, a session that started the
 * evening before), or a month ("in May 2023"). Years alone and relative dates ("last week") are
 * not read. An invalid day (31 February) is skipped (its month is still read). Deterministic, no
 * clock.
 */
export function queryDateWindows(text: string, marginHours = 12): TimeWindow[] {
  const out: TimeWindow[] = [];
  const days: [number, number][] = [];
  const day = (y: number, m: number, d: number, at: number, length: number) => {
    const t = Date.UTC(y, m, d);
    const back = new Date(t);
    if (m < 0 || back.getUTCMonth() !== m || back.getUTCDate() !== d) return;
    days.push([at, at + length]);
    out.push({ start: t - marginHours * HOUR, end: t + 24 * HOUR + marginHours * HOUR });
  };
  for (const m of text.matchAll(DAY_MONTH_YEAR))
    day(Number(m[3]), month(m[2]!), Number(m[1]), m.index, m[0].length);
  for (const m of text.matchAll(MONTH_DAY_YEAR))
    day(Number(m[3]), month(m[1]!), Number(m[2]), m.index, m[0].length);
  for (const m of text.matchAll(ISO_DAY))
    day(Number(m[1]), Number(m[2]) - 1, Number(m[3]), m.index, m[0].length);
  for (const m of text.matchAll(MONTH_YEAR)) {
    // a month that is part of a day already read is not a month window
    if (days.some(([a, b]) => m.index < b && m.index + m[0].length > a)) continue;
    const y = Number(m[2]);
    const mo = month(m[1]!);
    out.push({ start: Date.UTC(y, mo, 1), end: Date.UTC(y, mo + 1, 1) });
  }
  return out;
}
