/**
 * Which of chrono-node's parsers a query could give a time to, told before they run: a query with
 * no number in a form of time ({@link DIGITS}) and none of a language's words of time (its months,
 * weekdays and units of time, with their abbreviations, and the words of its casual parsers:
 * "today", "tonight", "gestern", "hier", "ayer"…) gets no reading from that language's parser, so
 * it is not run. Most queries say no time (95 % of the corpora's dev questions; 86 % when any
 * digit opened the gates): they skip all four parsers of the Latin script. Measured in Node 20 on
 * 710 dev questions (2026-12-07, a fresh process each; a CI run beside): the first query that says
 * no time took 4.8 ms instead of 26.3 (each parser compiles its patterns at its first parse), the
 * second 3.1 instead of 129.3 (V8 compiles the largest to machine code at their second use), and a
 * warm one 17–21 µs instead of 75–105.
 *
 * The words are those of chrono-node 2.10.3's dictionaries (`locales/<lang>/constants.js`) and
 * casual parsers, and the engine's own season, year and named-day parsers (English);
 * `time-gates.test.ts` checks every dictionary word is here and that the gate changes no reading
 * over the corpora's memories and dev questions. Left out: single-letter abbreviations of units
 * ("2 h", "3 d"), which need a number before them and are let through with it ({@link DIGITS});
 * two-letter ones are kept as whole words ("mo", "hr"), German weekdays' ("do", "mi") only where
 * chrono's weekday parser could read them with a word before or a comma (see
 * {@link DE_WEEKDAY_ABBREVIATIONS}).
 *
 * A word counts where no letter, digit or underscore touches it.
 */

/** Months, weekdays, units and casual words of English, and the engine's seasons and named days. */
const EN = [
  // months
  'january february march april may june july august september october november december',
  'jan feb mar apr jun jul aug sep sept oct nov dec',
  // weekdays
  'sunday monday tuesday wednesday thursday friday saturday sun mon tue wed thurs thur thu fri sat',
  // units
  'sec secs second seconds min mins minute minutes hr hrs hour hours day days week weeks',
  'mo mos month months qtr quarter quarters yr year years',
  // casual dates and times
  'now today tonight tomorrow overmorrow tmr tmrw yesterday morning afternoon evening night',
  'midnight midday noon',
  // the engine's parsers: seasons, named days; a weekend
  'spring summer autumn fall winter christmas xmas boxing new halloween valentine weekend',
];
const DE = [
  'januar jänner janner jan februar feber feb märz maerz mär mrz april apr mai juni jun juli jul',
  'august aug september sep sept oktober okt november nov dezember dez',
  'sonntag montag dienstag mittwoch donnerstag freitag samstag',
  'sek sekunde sekunden min minute minuten std stunde stunden tag tage tagen woche wochen',
  'monat monate monaten monats quartal quartals quartale quartalen jr jahr jahre jahren jahres',
  'jetzt heute morgen übermorgen uebermorgen gestern vorgestern nacht vormittag mittag mittags',
  'nachmittag abend mitternacht wochenende',
];
const FR = [
  'janvier jan janv février fév févr fevrier fev fevr mars mar avril avr mai juin jun juillet',
  'juil jul août aout septembre sep sept octobre oct novembre nov décembre decembre dec déc',
  'dimanche dim lundi lun mardi mercredi mer jeudi jeu vendredi ven samedi sam',
  'sec seconde secondes min mins minute minutes hr hrs heure heures jour jours semaine semaines',
  'mois trimestre trimestres ans année années',
  'maintenant aujourd hier demain après-midi aprem soir matin midi minuit week-end weekend',
];
const ES = [
  'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre',
  'diciembre ene feb mar abr may jun jul ago sep oct nov dic',
  'domingo dom lunes lun martes miércoles miercoles mié mie jueves jue viernes vie sábado sabado',
  'sáb sab',
  'sec segundo segundos min mins minuto minutos hr hrs hora horas día días dia dias semana',
  'semanas mes meses cuarto cuartos año años ano anos',
  'ahora hoy mañana manana ayer tarde noche medianoche mediodia mediodía finde',
];

/**
 * German weekdays' two-letter abbreviations ("so", "do", "mi"), read only after "am", "an",
 * "diesen", "letzten", "nächsten" or before a comma or bracket (else our reading drops a bare one):
 * as plain words they would open the gate to every "how do I".
 */
const DE_WEEKDAY_ABBREVIATIONS =
  /(?:a[mn]|diese[mn]|letzte[mn]|n(?:ä|ae)chste[mn])\s*(?:so|mo|di|mi|do|fr|sa)(?![\p{L}\p{N}_])|(?<![\p{L}\p{N}_])(?:so|mo|di|mi|do|fr|sa)\s*[,)）]|[,(（]\s*(?:so|mo|di|mi|do|fr|sa)(?![\p{L}\p{N}_])/u;

/**
 * Digits in a form a time could take: numbers joined by a date's or a clock's separator
 * ("3/6", "2025-06-03", "3.6.", "10:30"), four digits in a row (a year: "in 2025"), letters right
 * after a number ("3rd", "5pm", "2w", "1er", "15h30"), or a single-letter unit of time after one
 * ("3 d ago": English s, m, h, d, w, y; German a, j; h in every language). Any other number ("room
 * 12", "5 cats") gets no reading from any parser unless a word of time is beside it, which opens
 * the gate itself: a parse with no letter needs a four-digit year to be kept, and one with letters
 * needs a day, month, weekday or year (`accepted` in `time.ts`). `time-gates.test.ts` checks this
 * over numbers in 84 forms in 16 phrases.
 */
const DIGITS = /\d\s*[/.\-:]\s*\d|\d{4}|\d\p{L}|\d\s+[smhdwyaj](?![\p{L}\p{N}_])/u;

/** A word: letters, digits and underscores, and hyphens between them ("après-midi"). */
const WORD = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu;

/** Whether a query could say a time in one language: {@link TimeGate.test}. */
export interface TimeGate {
  /** Whether `query` has a number as a time could have it, or one of the language's words of time. */
  test(query: string): boolean;
}

/** What every language's gate reads of a query: its lowercase, its words, a number of time. */
interface QueryRead {
  query: string;
  lower: string;
  /** Whether it holds a number in a form of time ({@link DIGITS}). */
  digits: boolean;
  /** Its words ({@link WORD}), and the parts of each hyphened one. */
  words: string[];
}
/** The query read last: `readTime` asks each language's gate in turn about the same query. */
let last: QueryRead | undefined;

function read(query: string): QueryRead {
  if (last?.query === query) return last;
  const lower = query.toLowerCase();
  const words: string[] = [];
  for (const [word] of lower.matchAll(WORD)) {
    words.push(word);
    if (word.includes('-')) words.push(...word.split('-'));
  }
  return (last = { query, lower, digits: DIGITS.test(lower), words });
}

/**
 * A gate for one language: a number as a time could have it, one of its words standing alone (a
 * word of the query, or a part of a hyphened one), or a match of `more`. The words are looked up
 * in a set: a regular expression of every word took 1–2.5 ms to compile at its first query in Node
 * and more again at its second, when V8 compiles it to machine code. The query is lowercased and
 * cut into words once for every gate, and every pattern here is lowercase: a case-insensitive
 * `\p{L}` is costly to compile.
 */
function gate(lines: readonly string[], more?: RegExp): TimeGate {
  const words = new Set(lines.join(' ').split(/\s+/u).filter(Boolean));
  return {
    test(query) {
      const q = read(query);
      return q.digits || q.words.some((w) => words.has(w)) || (more?.test(q.lower) ?? false);
    },
  };
}

/** Per language of chrono's Latin-script parsers: whether a query could say a time in it. */
export const TIME_WORDS: Readonly<Record<'en' | 'de' | 'fr' | 'es', TimeGate>> = {
  en: gate(EN),
  de: gate(DE, DE_WEEKDAY_ABBREVIATIONS),
  fr: gate(FR),
  es: gate(ES),
};
