import type { Chrono, ParsedResult, ParsingContext } from 'chrono-node';
import * as de from 'chrono-node/de';
import * as en from 'chrono-node/en';
import * as es from 'chrono-node/es';
import * as fr from 'chrono-node/fr';
import * as ja from 'chrono-node/ja';
import * as ru from 'chrono-node/ru';
import * as zh from 'chrono-node/zh';

import { TIME_WORDS, type TimeGate } from './time-gates.ts';

/**
 * The time a query asks about: "two days ago", "last Tuesday", "this morning", "last week", "last
 * summer", "in April", "on 3 June 2025", read against the recall's `now` by `chrono-node` (its
 * casual parsers for English, German, French, Spanish, Russian, Japanese and Chinese), each as a
 * window of creation times. The windows feed the date leg and the match strength; the words that
 * said them leave the query the lexical and vector legs read ("what did I cook two days ago" asks
 * them for "what did I cook").
 *
 * How an expression becomes a window, in the process's local time zone (the person's):
 * - a day (yesterday, two days ago, last Tuesday, 14 September 2026): that calendar day, widened
 *   by {@link DAY_MARGIN_H} on each side (a full date by {@link DATE_MARGIN_H}: it may be another
 *   zone's day, or a session's that began the evening before);
 * - a part of a day (this morning, last night): those hours;
 * - a week (last week, two weeks ago): Sunday to Saturday, widened by a day (so Monday to Sunday
 *   too); a weekend, Saturday and Sunday;
 * - a month (last month, in April, March 2026), a year (last year, in 2025), a season (last
 *   summer, this spring; meteorological, northern hemisphere) whole; a named day (last Christmas,
 *   at New Year, on Halloween) its days;
 * - a range ("from Monday to Wednesday"): its first day to the end of its last.
 *
 * A month, weekday or season named without a year is the latest one that has begun; a window
 * still wholly in the future ("tomorrow", "next week") is no window (no memory was made then:
 * its words stay in the query, as a note about tomorrow may say them). Not read as time: a bare
 * abbreviation ("sat", "sun", "mar"), "may" and "march" with no preposition, numbers alone ("1/2
 * cup", a version, a code; a date needs a word or four-digit year: "2026-05-02" is one), a time
 * of day alone ("at 10:30") and "now".
 */

/** A window of creation times, `[start, end)` in ms since the epoch, and what said it. */
export interface TimeReading {
  /** The words of the query that said it, as typed. */
  text: string;
  start: number;
  end: number;
}

/** What a query says of time, and the query without it. */
export interface QueryTime {
  readings: TimeReading[];
  /** The query with the time expressions (and their prepositions) blanked out. */
  rest: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Hours a day window reaches into the days either side. */
export const DAY_MARGIN_H = 6;
/** … and a day stated as a date. */
export const DATE_MARGIN_H = 12;

const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/**
 * Seasons and bare years, which chrono does not read: "last summer", "this spring", "in the
 * winter", "summer 2025", "in 2025". A season needs a qualifier or a year ("spring water" and "I
 * fall" are no time). The result is a range, first day to last, tagged for its unit.
 */
const seasonParser = {
  pattern: () =>
    /\b(?:(?:(last|this|past|previous)|in|during|over|from)\s+(?:the\s+)?)(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d{2}))?\b|\b(spring|summer|autumn|fall|winter)\s+((?:19|20)\d{2})\b/i,
  extract: (context: ParsingContext, match: RegExpMatchArray) => {
    const which = match[1]?.toLowerCase();
    const season = (match[2] ?? match[4])!.toLowerCase();
    const year = match[3] ?? match[5];
    const first = SEASONS[season]!;
    const now = context.refDate;
    let y: number;
    if (year !== undefined) {
      y = Number(year);
    } else {
      // the latest such season that has begun; "last": the latest that has ended
      y = now.getFullYear();
      const begins = (yy: number) => new Date(yy, first, 1).getTime();
      const ends = (yy: number) => new Date(yy, first + 3, 1).getTime();
      while (begins(y) > now.getTime()) y--;
      if ((which === 'last' || which === 'past' || which === 'previous') && ends(y) > now.getTime())
        y--;
    }
    const start = new Date(y, first, 1);
    const last = new Date(y, first + 3, 0);
    const result = context.createParsingResult(
      match.index!,
      match[0],
      { year: start.getFullYear(), month: start.getMonth() + 1, day: 1 },
      { year: last.getFullYear(), month: last.getMonth() + 1, day: last.getDate() },
    );
    result.addTag('anamnesis/season');
    return result;
  },
};
const yearParser = {
  pattern: () => /\b(?:in|during|from|of|throughout)\s+((?:19|20)\d{2})\b(?![-/.:]\d)/i,
  extract: (context: ParsingContext, match: RegExpMatchArray) => {
    const year = Number(match[1]);
    const result = context.createParsingResult(
      match.index!,
      match[0],
      { year, month: 1, day: 1 },
      { year, month: 12, day: 31 },
    );
    result.addTag('anamnesis/year');
    return result;
  },
};

/** Named days: month (0-based), first day, days long. */
const HOLIDAYS: Record<string, [number, number, number]> = {
  christmas: [11, 24, 3],
  xmas: [11, 24, 3],
  'christmas eve': [11, 24, 1],
  'christmas day': [11, 25, 1],
  'boxing day': [11, 26, 1],
  "new year's eve": [11, 31, 1],
  "new year's day": [0, 1, 1],
  "new year's": [11, 31, 2],
  'new year': [11, 31, 2],
  halloween: [9, 31, 1],
  "valentine's day": [1, 14, 1],
};
/**
 * Named days of the year, with a qualifier ("last Christmas", "at New Year", "on Halloween"; a
 * bare "Christmas presents" is a topic): the latest that has begun, or with "last" the latest
 * that has ended. Their days, as a range.
 */
const holidayParser = {
  pattern: () =>
    /\b(?:(last|this|past|previous)|at|on|over|for|during|from|since)\s+(?:the\s+)?(christmas(?: eve| day)?|xmas|boxing day|new year(?:['’]s(?: eve| day)?)?|halloween|valentine['’]s day)\b/i,
  extract: (context: ParsingContext, match: RegExpMatchArray) => {
    const which = match[1]?.toLowerCase();
    const [month, first, days] = HOLIDAYS[match[2]!.toLowerCase().replace('’', "'")]!;
    const now = context.refDate.getTime();
    let y = context.refDate.getFullYear();
    const begins = (yy: number) => new Date(yy, month, first).getTime();
    const ends = (yy: number) => new Date(yy, month, first + days).getTime();
    while (begins(y) > now) y--;
    if ((which === 'last' || which === 'past' || which === 'previous') && ends(y) > now) y--;
    const start = new Date(y, month, first);
    const last = new Date(y, month, first + days - 1);
    return context.createParsingResult(
      match.index!,
      match[0],
      { year: start.getFullYear(), month: start.getMonth() + 1, day: start.getDate() },
      { year: last.getFullYear(), month: last.getMonth() + 1, day: last.getDate() },
    );
  },
};

function withTimeOfYear(chrono: Chrono): Chrono {
  const c = chrono.clone();
  c.parsers.push(seasonParser, yearParser, holidayParser);
  return c;
}

/** Before the gates, the Latin-script parsers ran on every query. */
const ANY = /(?:)/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
const HAN = /\p{Script=Han}/u;

/**
 * English first; the others where English read nothing. Each runs where its `gate` lets the query
 * through: the scripts' own where present, the Latin script's where the query has a digit or one
 * of the language's words of time (`time-gates.ts`); `script` is where each ran before the gates.
 */
const PARSERS: readonly { parser: Chrono; gate: TimeGate; script: RegExp }[] = [
  { parser: withTimeOfYear(en.casual), gate: TIME_WORDS.en, script: ANY },
  { parser: de.casual, gate: TIME_WORDS.de, script: ANY },
  { parser: fr.casual, gate: TIME_WORDS.fr, script: ANY },
  { parser: es.casual, gate: TIME_WORDS.es, script: ANY },
  { parser: ru.casual, gate: CYRILLIC, script: CYRILLIC },
  { parser: ja.casual, gate: JAPANESE, script: JAPANESE },
  { parser: zh.casual, gate: HAN, script: HAN },
];

/**
 * Queries that bring every parser's patterns into use, each parser's twice: chrono compiles a
 * parser's patterns at its first parse, and V8 compiles its largest regular expressions to machine
 * code at their second. Unwarmed, a search box's first keystroke paid 30 ms and its second 70–100
 * ms more in Node (2026-12-07, before the gates of `time-gates.ts`), a first query in Cyrillic 75
 * ms and its next 35–40 ms. Each query here reaches one parser (the gates keep it from the others).
 */
const WARM_UP: readonly string[] = [
  'two days ago',
  'last summer',
  'vor zwei Tagen',
  'letzte Woche',
  'il y a deux jours',
  'la semaine dernière',
  'hace dos días',
  'la semana pasada',
  'встреча во вторник',
  'встреча вчера',
  '先週の火曜日',
  '昨日の会議',
  '上周二',
  '昨天的会议',
];
let warmed = 0;

/**
 * Reads the next of the warm-up queries, once per program (the parsers are shared): a step of
 * work behind the engine's calls, so that the first searches a person types do not pay for the
 * parsers' compiling. Returns whether any remain.
 */
export function warmTimeStep(): boolean {
  if (warmed < WARM_UP.length) readTime(WARM_UP[warmed++]!, 0);
  return warmed < WARM_UP.length;
}

/** Words of a week or a weekend, in the parsers' languages. */
const WEEK = /\bweeks?\b|woche|semaine|semana|недел|週|周|星期|禮拜|礼拜/iu;
const WEEKEND = /weekend|wochenende|fin de semaine|fin de semana|выходн|週末|周末/iu;
/** Words of a year, for "four years ago" (a year, not the day four years back). */
const YEARS = /\byears?\b|jahre?n?\b|\bans?\b|années?|\baños?\b|\bлет\b|\bгод/iu;
/** Units below a day: "after five minutes", "for an hour" are durations, not when a memory was made. */
const BELOW_DAY =
  /\b(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|sekunden?|minuten?|stunden?|secondes?|heures?|segundos?|minutos?|horas?)\b|секунд|минут|час|秒|分钟|分鐘|小时|小時|時間/iu;
/** A part of a day named alone ("opening night"): time only with a day ("last night", "this morning"). */
const PART_OF_DAY = /^(?:night|morning|evening|afternoon|noon|midnight|tonight)$/iu;
/** Prepositions and modifiers of a time expression, which leave the query with it. */
const LEAD =
  /(?:^|\s)(?:on|in|at|during|from|since|over|around|of|by|until|till|before|after|earlier|later|early|mid|late|the|am|im|le|en|el|la|в|во)\s*$/iu;
/** A possessive after one ("this morning's call"). */
const TRAIL = /^['’]s\b/u;
/** Words read as a month or weekday only after a preposition. */
const AMBIGUOUS = new Set(['may', 'march']);

/**
 * The time expressions of `query`, read at `now` (ms since the epoch). `gated` false runs every
 * parser of the query's scripts, as before the gates of `time-gates.ts` (for the check that they
 * change no reading).
 */
export function readTime(query: string, now: number, gated = true): QueryTime {
  const reference = new Date(now);
  let results: ParsedResult[] = [];
  for (const { parser, gate, script } of PARSERS) {
    if (!(gated ? gate : script).test(query)) continue;
    results = parser.parse(query, reference).filter((r) => accepted(query, r, now));
    if (results.length > 0) break;
  }
  const readings: TimeReading[] = [];
  let rest = query;
  for (const r of results) {
    const window = windowOf(r, now);
    if (!window) continue;
    let start = r.index;
    let end = r.index + r.text.length;
    for (let lead = LEAD.exec(query.slice(0, start)); lead; lead = LEAD.exec(query.slice(0, start)))
      start = lead.index + lead[0].length - lead[0].trimStart().length;
    const trail = TRAIL.exec(query.slice(end));
    if (trail) end += trail[0].length;
    readings.push({ text: query.slice(start, end).trim(), start: window[0], end: window[1] });
    rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end);
  }
  return { readings, rest };
}

/** Whether a parse is time the person meant, not a word or number that looks like it. */
function accepted(query: string, r: ParsedResult, now: number): boolean {
  const text = r.text.trim();
  const tags = r.tags();
  // numbers alone: a fraction, a version, a code (unless a four-digit year is in it)
  if (!/\p{L}/u.test(text) && !/(?:^|\D)(?:19|20)\d{2}(?:\D|$)/u.test(text)) return false;
  if (tags.has('casualReference/now') || BELOW_DAY.test(text)) return false;
  const single = !/\s/u.test(text);
  if (single && PART_OF_DAY.test(text)) return false;
  if (single && /^\p{Script=Latin}{1,3}\.?$/u.test(text)) return false;
  if (single && AMBIGUOUS.has(text.toLowerCase()) && !LEAD.test(query.slice(0, r.index)))
    return false;
  const s = r.start;
  // "immediately" and the like: the moment of asking, not a time to search
  const casual = [...tags].some((t) => t.startsWith('casualReference/'));
  if (!casual && Math.abs(s.date().getTime() - now) < MINUTE) return false;
  // a time of day alone is no window
  const dated =
    s.isCertain('day') ||
    s.isCertain('weekday') ||
    s.isCertain('month') ||
    s.isCertain('year') ||
    [...tags].some((t) => t.startsWith('casualReference/') || t === 'result/relativeDate') ||
    WEEK.test(text) ||
    WEEKEND.test(text);
  return dated;
}

/** A parse's window `[start, end)`, or undefined where it is wholly in the future. */
function windowOf(r: ParsedResult, now: number): [number, number] | undefined {
  const tags = r.tags();
  const s = r.start;
  const at = s.date();
  const text = r.text;
  const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const hours = (d: Date, from: number, to: number): [number, number] => [
    dayStart(d) + from * HOUR,
    dayStart(d) + to * HOUR,
  ];
  let w: [number, number];
  let step: 'week' | 'year' | undefined;
  if (r.end) {
    w = [dayStart(at), dayStart(r.end.date()) + DAY];
    if (tags.has('anamnesis/season')) step = 'year';
  } else if (tags.has('casualReference/morning')) {
    w = hours(at, 5, 12);
  } else if (tags.has('casualReference/afternoon')) {
    w = hours(at, 12, 18);
  } else if (tags.has('casualReference/evening') || tags.has('casualReference/tonight')) {
    w = hours(at, 17, 24);
  } else if (/night/iu.test(text) && !s.isCertain('hour')) {
    // "last night": the evening before and the small hours after
    w = hours(at, 18, 30);
  } else if (tags.has('result/relativeDate') && YEARS.test(text)) {
    const y = at.getFullYear();
    w = [new Date(y, 0, 1).getTime(), new Date(y + 1, 0, 1).getTime()];
  } else if (WEEKEND.test(text)) {
    const saturday = dayStart(at) - ((at.getDay() + 1) % 7) * DAY;
    w = [saturday - DAY_MARGIN_H * HOUR, saturday + 2 * DAY + DAY_MARGIN_H * HOUR];
    step = 'week';
  } else if (WEEK.test(text)) {
    // chrono's weeks begin on Sunday ("this week" is the last Sunday); a day more either side
    // holds the Monday-to-Sunday week too
    const sunday = dayStart(at) - at.getDay() * DAY;
    w = [sunday - DAY, Math.min(sunday + 8 * DAY, now + HOUR)];
  } else if (s.isCertain('day') || s.isCertain('weekday')) {
    const relative = [...tags].some(
      (t) => t.startsWith('casualReference/') || t === 'result/relativeDate',
    );
    const stated = s.isCertain('month') && s.isCertain('day') && !relative;
    const m = (stated ? DATE_MARGIN_H : DAY_MARGIN_H) * HOUR;
    w = [dayStart(at) - m, dayStart(at) + DAY + m];
    if (tags.has('casualReference/today')) w[1] = Math.min(w[1], now + HOUR);
    if (!s.isCertain('year')) step = s.isCertain('day') ? 'year' : 'week';
  } else if (s.isCertain('month')) {
    const y = at.getFullYear();
    const mo = at.getMonth();
    w = [new Date(y, mo, 1).getTime(), new Date(y, mo + 1, 1).getTime()];
    if (!s.isCertain('year')) step = 'year';
  } else if (s.isCertain('year')) {
    const y = at.getFullYear();
    w = [new Date(y, 0, 1).getTime(), new Date(y + 1, 0, 1).getTime()];
  } else if (tags.has('casualReference/today')) {
    w = [dayStart(at) - DAY_MARGIN_H * HOUR, now + HOUR];
  } else {
    return undefined;
  }
  // named without a year: the latest that has begun
  while (step && w[0] > now) w = back(w, step);
  return w[0] > now ? undefined : w;
}

/** A window a week or a year earlier (a year by the calendar: months differ in length). */
function back([start, end]: [number, number], step: 'week' | 'year'): [number, number] {
  if (step === 'week') return [start - 7 * DAY, end - 7 * DAY];
  const a = new Date(start);
  const b = new Date(end);
  a.setFullYear(a.getFullYear() - 1);
  b.setFullYear(b.getFullYear() - 1);
  return [a.getTime(), b.getTime()];
}
