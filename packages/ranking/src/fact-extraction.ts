/**
 * The durable facts a person states about themselves in a chat message, found without a model
 * (issue 70: `Engine.learn`). A message is cut into sentences, and a sentence into clauses at
 * "…, and I…", "… but my…" and semicolons; a clause is kept when it speaks in the first person
 * (or is a note with no subject: "Moved to Lisbon last month") and carries a durable cue: a
 * relation whose value people keep and change (`RELATIONS`: home, work, doctor, phone, car…), a
 * preference ("I love…", "my favourite…"), health ("allergic to…", "vegetarian"), identity ("my
 * name is…", "I'm a nurse", "I'm from…"), a person in their life ("my sister Ana…"), something
 * they have ("I have two cats") or a plan with a date ("flying to Oslo on 3 March"). It is left
 * out, with the reason, when it is a question, a greeting or small talk, a hypothetical ("if I…",
 * "maybe I'll…"), a passing state ("I'm tired", "today"), not about the writer, or holds no cue.
 * Precision first: a wrong fact, stored, is recalled for months. English only.
 */
import { relationsOf } from './supersession.ts';

/** What kind of durable fact a clause states (the first cue found, in this order). */
export type FactKind =
  'plan' | 'health' | 'preference' | 'identity' | 'person' | 'possession' | 'relation';

/** Why a sentence was not kept as a fact. */
export type SkipReason =
  | 'question'
  | 'small talk'
  | 'hypothetical'
  | 'transient'
  | 'not about the writer'
  | 'no durable cue';

/** A fact found in a message. */
export interface ExtractedFact {
  /** The fact as it is stored: the clause, fillers ("oh,", "btw") and end punctuation removed. */
  text: string;
  /** What kind of fact it is. */
  kind: FactKind;
}

/** A sentence or clause of a message that was not kept. */
export interface SkippedClause {
  /** The clause as written (trimmed). */
  text: string;
  /** Why it was not kept. */
  reason: SkipReason;
}

/** What {@link extractFacts} found in a message. */
export interface FactExtraction {
  /** The facts, in the message's order. */
  facts: ExtractedFact[];
  /** The clauses left out, in the message's order. */
  skipped: SkippedClause[];
}

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'st',
  'prof',
  'mt',
  'jr',
  'sr',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'ave',
  'rd',
]);

/** The sentences of a text, each with its end punctuation. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const boundary = /[.!?]+["')\]]*(?=\s|$)|\n+/g;
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && m[0].length === 1) {
      const word = /([\p{L}.]+)$/u.exec(text.slice(start, m.index))?.[1]?.toLowerCase();
      // "Dr. Silva", "e.g. this", an initial ("J. Smith"): not an end
      if (word !== undefined && (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word))) continue;
    }
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') out.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') out.push(rest);
  return out;
}

const FIRST_PERSON = /^(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|us|our|ours)$/;

/** Clauses of a sentence: at a semicolon, and at "and"/"but" before a new first-person subject. */
function clausesOf(sentence: string): string[] {
  return sentence
    .split(/\s*;\s*|,?\s+(?:and|but|plus)\s+(?=(?:i|i'm|i've|my|we|we're|our)\b)/i)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** Words that open a clause without adding to it. */
const FILLER =
  /^(?:oh|well|so|yeah|yes|yep|no|nope|um+|uh+|hm+|also|btw|by the way|actually|anyway|and|but|haha|lol|ok|okay|honestly|fyi|fun fact|just so you know|for the record|to be honest|tbh|as i (?:said|mentioned)|like i said|(?!(?:my|i|our|we)\b)(?:[\p{L}']+ ){0,2}[\p{L}']+:)(?:\b|(?<=:))[,!:\s-]*/iu;

/** A clause without its opening fillers and its end punctuation, capitalised. */
function cleaned(clause: string): string {
  let text = clause.trim();
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(FILLER, '').trim();
  }
  text = text
    .replace(/[\s.!,;:]+$/u, '')
    .replace(/,?\s+(?:btw|by the way|lol|haha|though|fyi|tbh)$/iu, '')
    .replace(/\s+/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const QUESTION =
  /^(?:what|where|when|who|whom|whose|why|how|which|do|does|did|can|could|would|should|is|are|am|was|were|will|shall|have|has|had|may|might|any idea|any tips)\b/i;
const SMALL_TALK =
  /^(?:hi|hello|hey|hiya|thanks|thank you|thx|cheers|good (?:morning|night|evening|afternoon)|bye|goodbye|see you|ok|okay|cool|great|nice|awesome|lol|haha|sure|yes|no|yep|nope|right|perfect|sounds good|got it|no worries|you too|same|wow|oh)\b/i;
const HYPOTHETICAL =
  /\b(?:if|would|could|might|maybe|perhaps|suppose|imagine|wonder|wondering|wish|hypothetically|someday|one day|thinking (?:about|of)|considering|not sure|unsure|i'd|should i|in case)\b/i;
const TRANSIENT_TIME =
  /\b(?:today|tonight|right now|this (?:morning|afternoon|evening)|at the moment|just now|currently feeling|this week|earlier)\b/i;
const TRANSIENT_STATE =
  /\bi(?:'m| am) (?:so |really |very |a bit |kinda |pretty |super |quite |feeling |just )*(?:tired|hungry|thirsty|bored|sleepy|exhausted|cold|hot|stressed|busy|excited|happy|sad|annoyed|sick|ill|late|running late|back|here|off|done|ready|sorry|glad|fine|good|ok|okay|curious|confused|lost|stuck|nervous|worried|cooking|eating|watching|reading|waiting|looking|trying|working on|on my way|heading)\b/i;
/** Another person's words reported ("my colleague said…", "our neighbour thinks…"): theirs, not the writer's facts. */
const REPORTED =
  /^(?:my|our) (?:[\p{L}'-]+ ){0,2}?(?:said|says|told|tells|thinks|thought|reckons|mentioned|claims|claimed|believes|complained|complains|asked|wants me)\b/iu;
const SUBJECTLESS =
  /^(?:moved|started|switched|quit|got|bought|sold|changed|joined|left|working|living)\b/i;

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const DATE = new RegExp(
  `\\b(?:on (?:${WEEKDAYS})|next (?:week|month|year|weekend|${WEEKDAYS}|spring|summer|autumn|fall|winter)|in (?:${MONTHS})|(?:${MONTHS}) \\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:${MONTHS})|in (?:\\d+|a|two|three|four|six) (?:days?|weeks?|months?)|tomorrow|this (?:weekend|summer|spring|autumn|fall|winter)|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?)\\b`,
  'i',
);
const PLAN =
  /\b(?:going to|gonna|flying|fly|travel(?:l?ing)?|moving|visiting|appointment|wedding|trip|holiday|vacation|interview|meeting|surgery|operation|exam|due|starting|start|booked|leaving|getting married|planning|plan to|concert|conference|birthday|deadline|check-?up|party|test|lesson|class|flight|race|marathon|gig|graduation|scan)\b/i;
const HEALTH =
  /\b(?:allergic|allergy|allergies|intolerant|intolerance|diabetic|diabetes|asthma|asthmatic|celiac|coeliac|vegetarian|vegan|pescatarian|gluten|lactose|medication|blood type|pregnant|migraines?|epilep(?:sy|tic)|adhd|autistic|colou?r ?blind)\b/i;
const PREFERENCE =
  /\b(?:i|we) (?:really |absolutely |just |also |actually |still |totally |kind of |kinda )?(?:love|like|hate|prefer|enjoy|adore|dislike|can't stand|cannot stand|don't like|do not like|don't eat|never eat|don't drink|never drink|avoid)\b|\b(?:my|our) (?:all-time )?favou?rites?\b|\bi(?:'m| am) (?:a (?:big |huge )?)?fan of\b|\bi(?:'m| am) (?:really )?into\b/i;
const IDENTITY =
  /\bmy name(?:'s| is)\b|\bcall me\b|\bi(?:'m| am) (?:from|called|\d+\b|an? (?!bit\b|little\b|lot\b|few\b))|\bi was born\b|\bmy birthday\b|\bi speak\b|\bi grew up\b|\bi (?:study|studied|teach|taught)\b|\bmy pronouns\b/i;
const RELATIVES =
  'wife|husband|partner|sister|brother|mum|mom|mother|dad|father|son|daughter|kids?|children|boyfriend|girlfriend|fianc[eé]e?|grandma|grandmother|granny|grandpa|grandad|grandfather|aunt|uncle|cousin|niece|nephew|best friend|boss|manager|flatmate|roommate|stepdad|stepmum|stepmom|twin';
const PERSON = new RegExp(
  `\\b(?:my|our) (?:(?:older|younger|little|big|twin|eldest|youngest) )?(?:${RELATIVES})(?:'s)? (?:(?:name(?:'s| is))|is|lives|works|just|studies|goes|has|named|called|\\p{Lu}\\p{Ll}+)|\\b(?:i|we) have (?:a|an|one|two|three|four|five|\\d+) (?:(?:older|younger|little|big|twin|grown-up) )?(?:${RELATIVES}|sons?|daughters?|sisters?|brothers?)\\b|\\bi(?:'m| am) (?:married|engaged|divorced|single|widowed)\\b`,
  'iu',
);
const POSSESSION =
  /\b(?:i|we) (?:have|own|got|adopted|keep) (?:a|an|one|two|three|four|\d+)\s+(?:[\p{L}-]+\s+)?(?:dogs?|cats?|pupp(?:y|ies)|kittens?|horses?|parrots?|rabbits?|hamsters?|fish|bikes?|motorbikes?|boats?|cars?|vans?|allotment|garden|tattoos?)\b|\b(?:my|our) (?:dog|cat|puppy|kitten|horse|parrot|rabbit|hamster)(?:'s name)?\b/iu;

/** The durable cue a clause carries, if any. */
function cueOf(clause: string): FactKind | undefined {
  if (DATE.test(clause) && PLAN.test(clause)) return 'plan';
  if (HEALTH.test(clause)) return 'health';
  if (PREFERENCE.test(clause)) return 'preference';
  if (PERSON.test(clause)) return 'person';
  if (IDENTITY.test(clause)) return 'identity';
  if (POSSESSION.test(clause)) return 'possession';
  if (relationsOf(clause).length > 0) return 'relation';
  return undefined;
}

/** Lower-case words of a clause, apostrophes kept ("i'm"). */
function words(clause: string): string[] {
  return (
    clause
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []
  );
}

/** Whether a clause (cleaned) is a fact, and which kind; or why it is not. */
function judge(raw: string, clause: string): FactKind | SkipReason {
  const ws = words(clause);
  if (raw.trimEnd().endsWith('?') || QUESTION.test(clause)) return 'question';
  if (ws.length === 0 || (SMALL_TALK.test(clause) && ws.length <= 4)) return 'small talk';
  const normal = clause.replace(/’/g, "'");
  if (HYPOTHETICAL.test(normal)) return 'hypothetical';
  if (!ws.some((w) => FIRST_PERSON.test(w)) && !SUBJECTLESS.test(clause))
    return 'not about the writer';
  if (REPORTED.test(normal)) return 'not about the writer';
  const cue = cueOf(normal);
  if (cue !== 'plan' && (TRANSIENT_TIME.test(normal) || TRANSIENT_STATE.test(normal)))
    return cue === 'health' || cue === 'person' || cue === 'identity' ? cue : 'transient';
  return cue ?? 'no durable cue';
}

const REASONS = new Set<string>([
  'question',
  'small talk',
  'hypothetical',
  'transient',
  'not about the writer',
  'no durable cue',
]);

/** Longest clause looked at, in characters: a longer one is a paste, not a statement. */
export const MAX_FACT_CHARS = 300;

/**
 * The durable first-person facts of a chat message, and the clauses left out with the reason
 * (see the module comment). Pure and deterministic; a clause longer than {@link MAX_FACT_CHARS}
 * is left out (`'no durable cue'`).
 */
export function extractFacts(message: string): FactExtraction {
  const facts: ExtractedFact[] = [];
  const skipped: SkippedClause[] = [];
  for (const sentence of sentencesOf(message)) {
    const isQuestion = sentence.trimEnd().endsWith('?');
    for (const raw of clausesOf(sentence)) {
      const text = cleaned(raw);
      const verdict =
        text.length > MAX_FACT_CHARS
          ? 'no durable cue'
          : judge(isQuestion ? `${raw.replace(/\?+$/, '')}?` : raw, text);
      if (REASONS.has(verdict)) skipped.push({ text: raw.trim(), reason: verdict as SkipReason });
      else if (!facts.some((f) => f.text === text)) facts.push({ text, kind: verdict as FactKind });
    }
  }
  return { facts, skipped };
}

/** A reply that says yes, and nothing against it. */
const YES =
  /^(?:yes|yeah|yep|yup|ya|correct|right|exactly|indeed|sure|absolutely|true|mhm|uh-huh|that's right|that is right|that's correct|that is correct|you got it|you're right|spot on)\b(?![\s,]*(?:but|and no|not)\b)/i;

/** Second-person words and the first-person words they become. */
const PERSON_SWAP: Record<string, string> = {
  "you're": "I'm",
  "you've": "I've",
  "you'll": "I'll",
  "you'd": "I'd",
  your: 'my',
  yours: 'mine',
  yourself: 'myself',
};

/**
 * The assistant's question rewritten as the person's statement, when the person's reply confirms
 * it: assistant "So you live in Lisbon now?", user "yes" → "I live in Lisbon now". Handles a
 * question that states (`You live in…?`, `Your dentist is…?`) or asks with `do`/`are`/`have`/`is`
 * (`Do you have a dog?` → "I have a dog", `Is your dentist Dr Silva?` → "My dentist is Dr Silva").
 * `undefined` when the reply does not say yes, the assistant asked nothing of that form, or the
 * statement is no durable fact ({@link extractFacts}).
 */
export function confirmedFact(assistantMessage: string, userMessage: string): string | undefined {
  if (!YES.test(userMessage.trim().replace(/’/g, "'"))) return undefined;
  const question = sentencesOf(assistantMessage)
    .filter((s) => s.endsWith('?'))
    .at(-1);
  if (question === undefined) return undefined;
  let q = question
    .replace(/’/g, "'")
    .replace(/\?+$/, '')
    .replace(/,?\s*(?:right|correct|is that right|is that correct|yes|no|then)$/i, '')
    .trim();
  for (let before = ''; before !== q;) {
    before = q;
    q = q.replace(
      /^(?:so|and|oh|ok|okay|right|just to (?:confirm|check)|to confirm|got it|great|nice)[,:\s]+/i,
      '',
    );
  }
  const aux = /^(do|are|have|is)\s+(you|your)\b\s*(.*)$/i.exec(q);
  let statement: string | undefined;
  if (aux) {
    const [, verb, who, rest] = aux as unknown as [string, string, string, string];
    const v = verb.toLowerCase();
    if (who.toLowerCase() === 'you') {
      if (v === 'do') statement = `you ${rest}`;
      else if (v === 'are') statement = `you are ${rest}`;
      else if (v === 'have') statement = `you have ${rest}`;
    } else if (v === 'is') {
      // "Is your dentist Dr Silva" → "your dentist is Dr Silva": the subject's words, then "is"
      const subject = /^(\S+)\s+(.*)$/.exec(rest);
      if (subject) statement = `your ${subject[1]} is ${subject[2]}`;
    }
  } else if (/^(?:you|you're|your)\b/i.test(q)) statement = q;
  if (statement === undefined) return undefined;
  let first = true;
  const swapped = statement.replace(
    /\b(?:you're|you've|you'll|you'd|yourself|yours|your|you are|you)\b/gi,
    (w) => {
      const lower = w.toLowerCase();
      if (lower === 'you are') return first ? ((first = false), 'I am') : 'we are';
      if (lower === 'you') return first ? ((first = false), 'I') : 'me';
      if (lower.startsWith("you'")) first = false;
      return PERSON_SWAP[lower]!;
    },
  );
  const text = cleaned(swapped);
  const { facts } = extractFacts(text);
  return facts.length === 1 && facts[0]!.text === text ? text : undefined;
}
