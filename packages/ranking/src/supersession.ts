/**
 * Facts that change: where a person lives, works, banks; who their doctor or dentist is; their
 * number, their car, a habit they stopped. A newer memory that states a new value for the same
 * thing as an older one supersedes it ("We moved to Lisbon last month" over "I live in Porto").
 * Detected without a model call, for precision first (a wrong supersession hides a fact that is
 * still true): both memories must speak of the same relation (its words, below), the newer must
 * say that something changed (the language of change: "moved", "switched", "now", "new", "no
 * longer", "instead", "sold"…) or state the relation with another value than the older, and the
 * caller adds that the two are close in meaning and that the newer was made later. English only.
 */

/** A relation a fact states, by the words that say it (lower case, as typed and inflected). */
interface Relation {
  name: string;
  words: readonly string[];
}

/** The relations whose value people change. */
export const RELATIONS: readonly Relation[] = [
  {
    name: 'home',
    words: [
      'live',
      'lives',
      'living',
      'lived',
      'flat',
      'apartment',
      'house',
      'home',
      'address',
      'rent',
      'renting',
      'cottage',
      'bungalow',
    ],
  },
  {
    name: 'work',
    words: [
      'work',
      'works',
      'working',
      'job',
      'employer',
      'employed',
      'company',
      'hired',
      'position',
      'role',
      'office',
      'career',
      'colleagues',
    ],
  },
  { name: 'dentist', words: ['dentist', 'dental', 'orthodontist'] },
  {
    name: 'doctor',
    words: ['doctor', 'gp', 'physician', 'surgery', 'practice', 'clinic'],
  },
  { name: 'therapist', words: ['therapist', 'counsellor', 'counselor', 'psychologist'] },
  { name: 'vet', words: ['vet', 'veterinarian', 'veterinary'] },
  { name: 'phone', words: ['phone', 'number', 'mobile', 'cell'] },
  { name: 'email', words: ['email', 'e-mail', 'mail', 'inbox'] },
  { name: 'car', words: ['car', 'drive', 'drives', 'driving', 'vehicle'] },
  { name: 'bank', words: ['bank', 'banking', 'account'] },
  {
    name: 'partner',
    words: [
      'partner',
      'boyfriend',
      'girlfriend',
      'husband',
      'wife',
      'dating',
      'married',
      'engaged',
      'fiance',
      'fiancee',
    ],
  },
  { name: 'school', words: ['school', 'university', 'college', 'studying', 'course'] },
  { name: 'gym', words: ['gym', 'gyms'] },
  { name: 'diet', words: ['vegetarian', 'vegan', 'diet', 'eat', 'eating'] },
  { name: 'smoking', words: ['smoke', 'smoking', 'smoker', 'cigarettes', 'vape', 'vaping'] },
  { name: 'drinking', words: ['drink', 'drinking', 'alcohol', 'sober'] },
  { name: 'hairdresser', words: ['hairdresser', 'barber', 'haircut', 'salon'] },
  { name: 'internet', words: ['internet', 'broadband', 'wifi', 'provider'] },
  { name: 'insurance', words: ['insurance', 'insurer', 'policy'] },
];

/** Words that say a value changed. */
const CHANGE = [
  /\bmov(?:ed|ing)\b/,
  /\bswitch(?:ed|ing)?\b/,
  /\bchang(?:ed|ing)\b/,
  /\bnow\b/,
  /\bnew\b/,
  /\bno longer\b/,
  /\bnot anymore\b/,
  /\bany ?more\b/,
  /\binstead\b/,
  /\bsold\b/,
  /\bbought\b/,
  /\bstarted\b/,
  /\bquit\b/,
  /\bleft\b/,
  /\bstopped\b/,
  /\bgave up\b/,
  /\bfrom now on\b/,
  /\bthese days\b/,
  /\bnowadays\b/,
  /\brelocat(?:ed|ing)\b/,
  /\bjoined\b/,
  /\bused to\b/,
  /\bformer(?:ly)?\b/,
  /\bprevious(?:ly)?\b/,
  /\bex-/,
];

/** Words of a text as written, a possessive's `'s` dropped ("Mum's" → "Mum"). */
function tokensOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).map((w) => w.replace(/['’]s$/u, ''));
}

/** Lower-case words of a text. */
function wordsOf(text: string): string[] {
  return tokensOf(text).map((w) => w.toLowerCase());
}

/** A word without a plural's or a third person's `s` ("dentists", "lives"). */
function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** Each relation's words, singular. */
const RELATION_WORDS = RELATIONS.map((r) => ({
  name: r.name,
  words: new Set(r.words.map(singular)),
}));

/** The relations each word names (singular), in {@link RELATIONS}' order. */
const WORD_RELATIONS = new Map<string, string[]>();
for (const r of RELATION_WORDS)
  for (const w of r.words) WORD_RELATIONS.set(w, [...(WORD_RELATIONS.get(w) ?? []), r.name]);

/**
 * Two words that name a relation where neither alone does: "moved to Leeds" is a new home,
 * "moved my account" is not, nor "after the move".
 */
const RELATION_PAIRS: readonly [relation: string, first: ReadonlySet<string>, second: RegExp][] = [
  ['home', new Set(['move', 'moved', 'moves', 'moving']), /^(?:to|into|in|again|house|home|out)$/u],
  ['home', new Set(['relocate', 'relocated', 'relocating']), /^(?:to|again)$/u],
];

/** The relations a text speaks of, each with the positions of its words. */
function relationsAt(words: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const add = (name: string, i: number) => out.set(name, [...(out.get(name) ?? []), i]);
  words.forEach((w, i) => {
    for (const name of WORD_RELATIONS.get(singular(w)) ?? []) add(name, i);
    for (const [name, first, second] of RELATION_PAIRS)
      if (first.has(w) && second.test(words[i + 1] ?? '')) add(name, i);
  });
  return out;
}

/** What {@link supersedingRelation} reads of a text, read once per text. */
interface Statement {
  /** Its words as written (a possessive's `'s` dropped). */
  tokens: string[];
  /** The same, lower case. */
  words: string[];
  /** The relations it speaks of, each with the positions of its words. */
  relations: Map<string, number[]>;
  /** Where it says that something changed (positions of its words of change), once asked. */
  changeAt?: number[];
}

/** The positions of a statement's words of change, or none where the text says no change. */
function changeAt(statement: Statement, text: string): number[] {
  if (statement.changeAt) return statement.changeAt;
  const { words } = statement;
  const cues: number[] = [];
  if (saysChange(text))
    words.forEach((w, i) => {
      if (CHANGE.some((re) => re.test(w)) || (w === 'no' && words[i + 1] === 'longer'))
        cues.push(i);
    });
  return (statement.changeAt = cues);
}

/** The texts read last, at most {@link STATEMENTS_KEPT}: a write compares one text with many. */
const statements = new Map<string, Statement>();
const STATEMENTS_KEPT = 256;

/** A text's {@link Statement}. */
function statementOf(text: string): Statement {
  const seen = statements.get(text);
  if (seen) return seen;
  const tokens = tokensOf(text);
  const words = tokens.map((w) => w.toLowerCase());
  const statement = { tokens, words, relations: relationsAt(words) };
  if (statements.size >= STATEMENTS_KEPT) statements.clear();
  statements.set(text, statement);
  return statement;
}

/**
 * Whether a text could speak of a relation: one of {@link WORD_RELATIONS}' words or a first word of
 * {@link RELATION_PAIRS} standing alone, a plural's `s` or anything but a letter or digit after it.
 * Every word `relationsAt` reads is one (a word's singular drops at most an `s`), so a text without
 * one states no relation. Most texts have none (86 % of the bench corpora's memories), and this
 * one expression over a text costs less than reading its words: `relationsOf` took 14–21 µs a
 * memory of those corpora instead of 43–59, and 9–10 µs a note of `bench:speed`'s corpus (half of
 * which say "at home") instead of 11–15 (Node 20, 2026-12-07; `relation-words.test.ts` checks
 * that it says what reading every word says).
 */
const MAY_STATE_RELATION = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[
    ...WORD_RELATIONS.keys(),
    ...RELATION_PAIRS.flatMap(([, first]) => [...first]),
  ]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('|')})s?(?![\\p{L}\\p{N}])`,
  'u',
);

/** The relations a text speaks of. */
export function relationsOf(text: string): string[] {
  if (!MAY_STATE_RELATION.test(text.toLowerCase())) return [];
  return [...statementOf(text).relations.keys()];
}

/**
 * The other words of each relation that `word` says (lower case, as {@link RELATIONS} lists
 * them): "address" → live, flat, house, home…; "car" → drive, driving, vehicle. A question about a
 * person's own fact ("what is my address", "which car do I have") is answered by a note that
 * states the relation in other words ("the new place is a cottage in Ely", "now driving a Leaf").
 */
export function relationWordsOf(word: string): string[] {
  const w = singular(word.toLowerCase());
  const out = new Set<string>();
  for (const [i, r] of RELATION_WORDS.entries())
    if (r.words.has(w)) for (const other of RELATIONS[i]!.words) out.add(other);
  for (const other of [...out]) if (singular(other) === w) out.delete(other);
  return [...out];
}

/** Words of a person other than the one writing (a relative, a friend). */
const OTHERS = new Set(
  'mum mom mother dad father sister brother son daughter wife husband partner friend grandma grandmother grandad grandfather granny grandpa aunt uncle cousin niece nephew colleague boss neighbour neighbor he she they his her their'.split(
    ' ',
  ),
);
/** Words of the one writing. */
const SELF = new Set(['i', "i'm", "i've", 'me', 'my', 'mine', 'we', "we're", "we've", 'us', 'our']);

/**
 * Whose fact a text states, by the words before the relation's word at `at`: another person's
 * (a relative's or friend's word before it, or a capitalised name just before it: "Sister Ana
 * lives in Madrid", "Mum's phone number", "Ana moved"), else the writer's (first person, or a
 * note with no subject: "Moved to Lisbon", "Working at Acme", "Sold the Golf, now driving…").
 */
function subjectOf(tokens: readonly string[], at: number): string {
  const before = tokens.slice(0, at).map((w) => w.toLowerCase());
  const other = before.find((w) => OTHERS.has(w));
  if (other) return other;
  // a name just before the relation's word; a first word only if it is no verb ("Ana moved", not
  // "Switched dentists")
  const name = tokens[at - 1];
  if (
    name !== undefined &&
    /^\p{Lu}\p{Ll}+$/u.test(name) &&
    !SELF.has(name.toLowerCase()) &&
    (at - 1 > 0 || (!/(?:ed|ing)$/u.test(name) && !saysChange(name)))
  )
    return name.toLowerCase();
  return 'self';
}

/** Whether a text says that something changed. */
export function saysChange(text: string): boolean {
  const lower = text.toLowerCase();
  return CHANGE.some((re) => re.test(lower));
}

/**
 * The relation on which `newer` supersedes `older`, or undefined. Both must state the same
 * relation of the same person, and the newer either says that it changed (a word of change within
 * five words of the relation's word: "Switched dentists", "moved to Lisbon, the new flat") or
 * states it the same way with another value ("My dentist is Dr Silva" → "My dentist is Dr Costa").
 * A newer text holding every word of the older (a restatement) supersedes nothing. Whether the two
 * are close in meaning, and made in that order, is the caller's to check.
 */
export function supersedingRelation(newer: string, older: string): string | undefined {
  const mine = statementOf(newer);
  const theirs = statementOf(older);
  const newWords = mine.words;
  const oldWords = theirs.words;
  const oldSet = new Set(oldWords);
  if (newWords.every((w) => oldSet.has(w))) return undefined;
  if (![...mine.relations.keys()].some((r) => theirs.relations.has(r))) return undefined;
  const cues = changeAt(mine, newer);
  for (const [relation, at] of mine.relations) {
    const old = theirs.relations.get(relation);
    if (!old) continue;
    if (subjectOf(mine.tokens, at[0]!) !== subjectOf(theirs.tokens, old[0]!)) continue;
    const changed = cues.some((c) => at.some((a) => Math.abs(a - c) <= 5));
    // the same phrase before the value: the relation's word and the word after it
    const samePhrase = at.some((a) =>
      old.some(
        (o) =>
          singular(newWords[a]!) === singular(oldWords[o]!) &&
          newWords[a + 1] !== undefined &&
          newWords[a + 1] === oldWords[o + 1],
      ),
    );
    if (changed || samePhrase) return relation;
  }
  return undefined;
}

/**
 * Whose fact a text states about each relation it speaks of (`'self'`, or the other person's word
 * or name): "My sister Hana lives in Glasgow" is Hana's home, "Dad works at the garden centre" is
 * dad's work.
 */
export function factSubjects(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const { tokens, relations } = statementOf(text);
  for (const [relation, at] of relations) out.set(relation, subjectOf(tokens, at[0]!));
  return out;
}

/**
 * Whether a query asks about the writer's own fact: first person ("where do I live", "my phone
 * number") and no other person named.
 */
export function asksSelf(query: string): boolean {
  const words = wordsOf(query);
  return words.some((w) => SELF.has(w)) && !words.some((w) => OTHERS.has(w));
}

/** Words by which a query asks about the past of a fact, not its current value. */
const HISTORY =
  /\b(?:used to|before|previous(?:ly)?|former(?:ly)?|old|earlier|originally|first|history|past|ago|back then|then|last)\b/;

/** Whether a query asks about a fact's past ("where did I live before", "my old dentist"). */
export function asksHistory(query: string): boolean {
  return HISTORY.test(query.toLowerCase());
}
