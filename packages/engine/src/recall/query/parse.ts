import { ftsTokens } from '@anamnesis/ranking';
import { emojiIn } from '../../store/emoji.ts';
import { queryStopwords, queryWordForms } from '../../store/lexical.ts';
import { siteWords } from '../../store/site.ts';
import { americanSpelling } from '../../store/spelling.ts';

/**
 * What a typed query becomes before the store is asked anything: its slots, one per thing the
 * person asked for. A slot is searched as a group of FTS5 alternatives (a word and its other
 * forms, a phrase, a code) and counts once in a result's match strength.
 *
 * - `"quoted words"` are a phrase (an unclosed quote while typing too);
 * - an address (`https://…`, `www.…`, `host.tld/path`) or a domain (`gov.uk`) is a `site` slot:
 *   its host and path words, as the index's `site` column holds a page's `meta.url`;
 * - a token whose parts are joined by `-` `.` `/` `#` `:` `_` `+` `@` ("4521-0092", "18.19.1",
 *   "node.js") is a `code`: its parts as a phrase, and each part as a word of half the weight;
 * - an emoji is its name, as a phrase ("🎉" → "party popper");
 * - a negator ("no", "not", "without", "never", and "n't" read as "not") and the word after it
 *   are a `negation`: held by a memory that says the word near a negation of its own;
 * - every other word is a `word` (British spellings folded into American ones), stop words
 *   dropped (a negator with no word after it kept); a number and letters
 *   written as one ("7pm") also match the two apart ("7 pm"), and two words the store holds as
 *   one ("note book") match that word (`resolve.ts`).
 *
 * With `typing`, the word the query ends in (no space or punctuation after it) is a `prefix`: the
 * person is still typing it, and the store's words it begins are searched too (`resolve.ts`).
 */

/** What a slot is. */
export type SlotKind = 'word' | 'phrase' | 'code' | 'site' | 'emoji' | 'negation';

/** One thing the query asks for. */
export interface QuerySlot {
  /** What it is. */
  kind: SlotKind;
  /** As the person typed it. */
  text: string;
  /** Its words as the index holds them, lower case (a phrase's in order). */
  words: string[];
  /** FTS5 expressions, any of which matches the slot (joined by OR). */
  terms: string[];
  /** The word still being typed: the store's words it begins are searched too. */
  prefix: boolean;
  /** Its share in the match strength, against 1 for a word (a code's parts: 0.5). */
  weight: number;
}

/**
 * Question words, dropped as stop words are: "what did the vet suggest" asks about the vet and a
 * suggestion, and a memory that happens to say "what" is no closer to the answer. So are the verbs
 * that ask about any event ("what happened yesterday" asks what was noted yesterday).
 */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'when',
  'where',
  'which',
  'who',
  'whom',
  'whose',
  'why',
  'happen',
  'happened',
  'happening',
  'happens',
]);

/** Words the query keeps although they are stop words: a negation changes what is asked. */
const NEGATORS: ReadonlySet<string> = new Set(['no', 'not', 'nor', 'never', 'without']);

/** An opening or closing quotation mark. */
const QUOTE = '["“”„«»]';
const QUOTED = new RegExp(`${QUOTE}([^"“”„«»]*)(${QUOTE}|$)`, 'gu');
/** An address: with a scheme, from `www.`, or a host with a path. */
const ADDRESS =
  /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s"“”<>]+|\b(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}\/[^\s"“”<>]*/giu;
/** A domain name: labels of letters, digits and dashes, the last one of letters ("gov.uk"). */
const DOMAIN = /^(?:[\p{L}\p{N}-]+\.)+(?:[a-z]{2,}|xn--[a-z0-9-]+)$/iu;
/** A token of parts joined by code punctuation. */
const CODE = /^[\p{L}\p{N}]+(?:[-./#:_+@][\p{L}\p{N}]+)+$/u;
/** Punctuation around a token ("(4521-0092)," → "4521-0092"). */
const EDGE = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
/** A contraction of "not": "don't", "isn’t". */
const NOT_CONTRACTION = /\p{L}n['’]t$/iu;
/** A number. */
const NUMBER = /^\p{N}+$/u;
/** A number and letters written as one word ("7pm", "ba2490", "5km"): also the two apart. */
const NUMBER_AND_LETTERS = /^(?:(\p{N}+)(\p{L}+)|(\p{L}+)(\p{N}+))$/u;

/** An FTS5 string: the words quoted as one term or phrase (they are letters and digits only). */
export function ftsString(words: readonly string[]): string {
  return `"${words.join(' ')}"`;
}

/** The slots of a query (see the module comment). */
export function parseQuery(query: string, typing = false): QuerySlot[] {
  const stillTyping = typing && /[\p{L}\p{N}\p{M}]$/u.test(query);
  const stopwords = queryStopwords(query);
  const slots: QuerySlot[] = [];
  const keepWord = (w: string, prefix: boolean) =>
    prefix ||
    ((Array.from(w).length >= 2 || NUMBER.test(w)) &&
      (!(stopwords.has(w) || QUESTION_WORDS.has(w)) || NEGATORS.has(w)));

  // Quoted phrases.
  let rest = query.replace(QUOTED, (_m, inner: string, close: string, offset: number) => {
    const words = ftsTokens(inner).map((w) => w.toLowerCase());
    const prefix = stillTyping && close === '' && offset + _m.length === query.length;
    if (words.length >= 2) {
      slots.push(slot('phrase', inner, words, [`${ftsString(words)}${prefix ? '*' : ''}`], prefix));
    } else if (words.length === 1) {
      slots.push(slot('word', inner, words, [ftsString(words)], prefix));
    }
    return ' '.repeat(_m.length);
  });

  // Addresses.
  rest = rest.replace(ADDRESS, (url) => {
    const words = siteWords(url.replace(/[.,;:!?)\]]+$/u, ''))
      .split(' ')
      .filter(Boolean);
    if (words.length > 0) {
      const host = siteWords(url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split('/')[0]!).split(' ');
      const terms = [`site : ${ftsString(words)}`];
      if (host.length > 1 || host[0] !== words.join(' ')) terms.push(ftsString(host));
      slots.push(slot('site', url, words, terms, false));
    }
    return ' '.repeat(url.length);
  });

  // Codes and emoji, token by token; what is left are words.
  let words = '';
  let last: string | undefined;
  for (const raw of rest.split(/\s+/u)) {
    if (raw === '') continue;
    let token = raw;
    for (const { emoji, name } of emojiIn(token)) {
      const nameWords = name.split(' ');
      slots.push(slot('emoji', emoji, nameWords, [ftsString(nameWords)], false));
      token = token.replace(emoji, ' ');
    }
    const bare = token.replace(EDGE, '');
    if (DOMAIN.test(bare)) {
      // a domain ("gov.uk", "nasa.gov"): the address of pages saved from it
      const words = siteWords(bare).split(' ');
      slots.push(
        slot('site', bare, words, [`site : ${ftsString(words)}`, ftsString(words)], false),
      );
      last = undefined;
      continue;
    }
    if (CODE.test(bare)) {
      // as the index holds them (a Cyrillic part stemmed, as lexicalText stores it)
      const parts = queryWordForms(bare).map((forms) => forms[0]!);
      slots.push(slot('code', bare, parts, [ftsString(parts)], false));
      for (const part of parts)
        if (keepWord(part, false))
          slots.push({ ...slot('word', part, [part], [ftsString([part])], false), weight: 0.5 });
      last = undefined;
      continue;
    }
    if (NOT_CONTRACTION.test(bare)) {
      // "don't" asks "do not": the verb as its own word ("can't": "can"), then the negation
      const verb = bare.replace(/n['’]t$/iu, '');
      token = `${{ ca: 'can', wo: 'will', sha: 'shall' }[verb.toLowerCase()] ?? verb} not`;
    }
    words += ` ${token}`;
    last = bare;
  }
  const groups = queryWordForms(words);
  const lastWord =
    stillTyping && last !== undefined && /[\p{L}\p{N}\p{M}]$/u.test(rest)
      ? groups.at(-1)
      : undefined;
  // a negator and the word after it are one slot ("without cheese"), unless that word is the one
  // being typed; a negator with no word after it is a word
  let negator: string | undefined;
  const negatorAlone = () => {
    if (negator) slots.push(slot('word', negator, [negator], [ftsString([negator])], false));
    negator = undefined;
  };
  for (const forms of groups) {
    const word = forms[0]!;
    const prefix = forms === lastWord;
    if (NEGATORS.has(word) && !prefix) {
      negatorAlone();
      negator = word;
      continue;
    }
    if (!keepWord(word, prefix)) continue;
    const us = americanSpelling(word);
    const all = us === undefined ? forms : [us, ...forms];
    if (negator && !prefix) {
      slots.push(negation(negator, all));
      negator = undefined;
      continue;
    }
    negatorAlone();
    const terms = all.map((f) => ftsString([f]));
    const apart = NUMBER_AND_LETTERS.exec(word);
    if (apart) terms.push(ftsString(apart.slice(1).filter(Boolean)));
    slots.push(slot('word', word, [all[0]!], terms, prefix));
  }
  negatorAlone();
  return dedupe(slots);
}

/**
 * Words a memory says a negation with, as the index holds them: "don't" is indexed as "don" and
 * "t", and "cheese-free" as "cheese" and "free".
 */
const NEGATION_WORDS = ['no', 'not', 'without', 'never', 't', 'free'];
/** Words at most between a negation and what it negates, in a memory ("no onions or garlic"). */
const NEGATION_REACH = 3;

/**
 * A negated word ("without cheese", "no sugar", "don't add"): held by a memory that says the word
 * near a negation of its own ("Pizza, no cheese"; "dairy-free"), in any order, whatever the
 * negation's word, and not by one that only says the word ("with extra cheese").
 */
function negation(negator: string, forms: readonly string[]): QuerySlot {
  const terms = forms.flatMap((f) =>
    NEGATION_WORDS.map((n) => `NEAR(${ftsString([n])} ${ftsString([f])}, ${NEGATION_REACH})`),
  );
  return slot('negation', `${negator} ${forms[0]!}`, [forms[0]!], terms, false);
}

function slot(
  kind: SlotKind,
  text: string,
  words: string[],
  terms: string[],
  prefix: boolean,
): QuerySlot {
  return { kind, text, words, terms, prefix, weight: 1 };
}

/** Slots asking for the same thing are one (the first kept; a prefix wins). */
function dedupe(slots: QuerySlot[]): QuerySlot[] {
  const seen = new Map<string, QuerySlot>();
  for (const s of slots) {
    const key = s.terms.join(' OR ');
    const kept = seen.get(key);
    if (!kept) seen.set(key, s);
    else if (s.prefix) kept.prefix = true;
    else kept.weight = Math.max(kept.weight, s.weight);
  }
  return [...seen.values()];
}
