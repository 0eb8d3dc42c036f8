/**
 * A deterministic synthetic corpus of note-like texts (seeded generator), and distinct queries.
 * Every run with the same seed produces the same texts, so speed numbers are comparable.
 */

import { mulberry32 } from '@anamnesis/ranking';

/** The seeded PRNG every corpus, query set and browser benchmark here draws from. */
export const rng = mulberry32;

const PEOPLE = [
  'Alice',
  'Bob',
  'Carmen',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Luca',
];
const VERBS = [
  'met',
  'called',
  'emailed',
  'visited',
  'reviewed',
  'planned',
  'cooked',
  'discussed',
  'fixed',
  'booked',
  'bought',
  'read',
];
const PLACES = [
  'at the cafe',
  'over video',
  'at home',
  'in the office',
  'near the station',
  'at the market',
  'by the lake',
  'downtown',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Words of the note template, left out of queries. */
const TEMPLATE_WORDS = new Set(
  ['the', 'noting', 'and', 'on', ...PEOPLE, ...VERBS, ...PLACES, ...DAYS].flatMap((p) =>
    p.toLowerCase().split(' '),
  ),
);

/**
 * Content words drawn with a Zipf law (P(rank r) ∝ 1/(r + 50)) from a frequency-ordered English
 * word list, so term statistics look like real notes: a few common words, a long tail of rare ones.
 */
export class ZipfWords {
  readonly #words: readonly string[];
  readonly #cumulative: Float64Array;

  /** @param words content words, most frequent first */
  constructor(words: readonly string[]) {
    if (words.length === 0) throw new Error('ZipfWords needs words');
    this.#words = words;
    this.#cumulative = new Float64Array(words.length);
    let sum = 0;
    words.forEach((_, r) => (this.#cumulative[r] = sum += 1 / (r + 50)));
  }

  draw(random: () => number): string {
    const x = random() * this.#cumulative[this.#cumulative.length - 1]!;
    let lo = 0;
    let hi = this.#cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return this.#words[lo]!;
  }
}

/**
 * Content words from a WordPiece vocabulary (the default model's, ordered by frequency): alphabetic,
 * at least three letters, skipping the 100 most frequent entries and any ## piece.
 */
export function contentWords(vocab: Readonly<Record<string, number>>, limit = 20_000): string[] {
  return Object.entries(vocab)
    .sort((a, b) => a[1] - b[1])
    .map(([w]) => w)
    .filter((w) => /^[a-z]{3,}$/.test(w))
    .slice(100, 100 + limit);
}

/** One note: who did what where, and a few content words, one to three sentences. */
export function makeNote(random: () => number, words: ZipfWords): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sentences = 1 + Math.floor(random() * 3);
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const w = () => words.draw(random);
    out.push(
      `On ${pick(DAYS)} ${pick(PEOPLE)} ${pick(VERBS)} the ${w()} ${w()} ${pick(PLACES)}, noting ${w()}, ${w()} and ${w()}.`,
    );
  }
  return out.join(' ');
}

/** `n` notes from `seed`. */
export function makeCorpus(n: number, words: ZipfWords, seed = 42): string[] {
  const random = rng(seed);
  return Array.from({ length: n }, () => makeNote(random, words));
}

/**
 * `n` distinct queries from `seed`: two or three content words of a random note of the corpus
 * (so queries find something) plus, half the time, one unrelated word.
 */
export function makeQueries(
  corpus: readonly string[],
  words: ZipfWords,
  n: number,
  seed = 7,
): string[] {
  const random = rng(seed);
  const seen = new Set<string>();
  for (let guard = 0; seen.size < n && guard < n * 100; guard++) {
    const note = corpus[Math.floor(random() * corpus.length)]!;
    const terms = [...new Set(note.match(/\b[a-z]{3,}\b/g) ?? [])].filter(
      (t) => !TEMPLATE_WORDS.has(t),
    );
    const chosen: string[] = [];
    const count = 2 + Math.floor(random() * 2);
    for (let i = 0; i < count && terms.length > 0; i++)
      chosen.push(terms.splice(Math.floor(random() * terms.length), 1)[0]!);
    if (random() < 0.5) chosen.push(words.draw(random));
    seen.add(chosen.join(' '));
  }
  return [...seen];
}

/** The period the speed corpus's memories are spread over: 2024-01-01 to 2026-01-01 (UTC). */
const SPAN_START = Date.UTC(2024, 0, 1);
const SPAN_END = Date.UTC(2026, 0, 1);
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * When note `i` of `n` was written (spread evenly over {@link SPAN_START}–{@link SPAN_END}, in
 * corpus order) and who wrote it (the first person the note names, as an app-given
 * `meta.speaker`): so a query naming a month or a day finds memories in the date leg, and one
 * naming a person lifts that person's notes (the speaker signal).
 */
export function noteFacts(text: string, i: number, n: number) {
  const speaker = PEOPLE.find((p) => text.includes(` ${p} `)) ?? PEOPLE[0]!;
  return {
    createdAt: SPAN_START + Math.floor(((SPAN_END - SPAN_START) * i) / Math.max(1, n)),
    meta: { speaker },
  };
}

/**
 * `n` distinct queries that name people, months and days: each of {@link makeQueries}'s content
 * queries from `seed`, in turn with a person ("what did Alice say about …"), a month of the
 * corpus's period ("… in March 2025"), a calendar day ("… on 3 June 2024"), a person and a month,
 * or nothing added. Deterministic.
 */
export function makeNamedQueries(
  corpus: readonly string[],
  words: ZipfWords,
  n: number,
  seed = 7,
): string[] {
  const random = rng(seed + 1000);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const year = () => 2024 + Math.floor(random() * 2);
  const out = new Set<string>();
  for (const [i, q] of makeQueries(corpus, words, n, seed).entries()) {
    const person = pick(PEOPLE);
    const month = `${pick(MONTHS)} ${year()}`;
    const day = `${1 + Math.floor(random() * 28)} ${pick(MONTHS)} ${year()}`;
    const forms = [
      `what did ${person} say about ${q}`,
      `${q} in ${month}`,
      `${q} on ${day}`,
      `${person} ${q} in ${month}`,
      q,
    ];
    out.add(forms[i % forms.length]!);
  }
  return [...out];
}
