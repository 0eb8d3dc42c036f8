import { AnamnesisError } from '@anamnesis/errors';

/**
 * ISO 8601 in the forms people and JSON carry times in: a calendar date (`YYYY-MM-DD`, or a
 * six-digit year with its sign), optionally followed by `T`, hours and minutes, optional seconds
 * with an optional fraction (`.` or `,`), and then a zone: `Z` or an offset (`+02:00`, `+0200`,
 * `+02`). `T` and `Z` in either case.
 */
const ISO_8601 =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?))?$/i;

/** What an accepted time looks like, for error messages. */
export const ISO_FORMS =
  'an ISO 8601 date (2026-06-12: midnight UTC) or date and time with a zone (2026-06-12T09:30:00Z, 2026-06-12T11:30+02:00)';

/**
 * The time of an ISO 8601 string, in ms since the epoch (UTC): a date alone is that day's
 * midnight UTC; a date and time needs its zone (`Z` or an offset), since a local time means
 * another instant on every machine. Everything else is `INVALID_INPUT` naming `what`: a date
 * written another way ("12/06/2026", "June 12, 2026"), which `Date.parse` would read one way or
 * another depending on the engine, a time without a zone, a day or hour that does not exist
 * (2026-02-30, 24:00), a leap second (Date has none). Fractions of a second are read to the
 * millisecond (the rest is dropped, as `Date` does).
 */
export function isoTime(text: string, what: string): number {
  const m = ISO_8601.exec(text);
  const invalid = () =>
    new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be ${ISO_FORMS}, got ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`,
    );
  if (!m) throw invalid();
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone, sign, oh = '0', om = '0'] = m;
  // ISO 8601 has no year "minus zero"
  if (y === '-000000') throw invalid();
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const [hours, minutes, seconds] = [Number(h), Number(mi), Number(s)];
  const [offsetHours, offsetMinutes] = [Number(oh), Number(om)];
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hours > 23 ||
    minutes > 59 ||
    seconds > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  )
    throw invalid();
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1) throw invalid(); // 2026-02-30 rolled into March
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  date.setUTCHours(hours, minutes, seconds, ms);
  const offset =
    zone === undefined || sign === undefined
      ? 0
      : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const time = date.getTime() - offset;
  if (!Number.isFinite(time)) throw invalid();
  return time;
}
