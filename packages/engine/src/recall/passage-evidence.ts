import { ftsTokens } from '@anamnesis/ranking';
import { lexicalText } from '../store/lexical.ts';
import { porterStem } from './phrase-key.ts';

/**
 * Passage evidence inside a long memory: a 2,000-word diary holds most words of most queries
 * somewhere, so that its lexical coverage as a whole says little. Its coverage is the best of its
 * passages' instead: runs of consecutive sentences (or lines) of at most {@link WINDOW_CHARS},
 * each searched for the query's slots as the lexical index would match them (words and their
 * stems, phrases in order, a prefix being typed, a negation within reach of its word), each within
 * one sentence. The best passage is also the one a result shows, where it matched.
 */

/**
 * Characters from which a memory is long: its coverage is its best passage's. Two of ranking's
 * `PASSAGE_CHARS`: a saved page's passage or a note of a few paragraphs answers with its whole text
 * (on the dev corpora's passages of man pages and web pages, read by windows, more answers were
 * marked weak and fewer found).
 */
export const LONG_CHARS = 1600;
/** Longest passage searched, in characters (more than one sentence where they fit). */
const WINDOW_CHARS = 600;

/** One alternative of a slot: a phrase (in order, its last word possibly a prefix) or two words near each other. */
export type Alternative =
  | { kind: 'phrase'; stems: readonly string[]; prefix: boolean }
  | { kind: 'near'; a: string; b: string; reach: number }
  | { kind: 'anywhere' };

/** What every window of a memory holds: a slot it matches outside its text (an address's `site`). */
export const ANYWHERE: Alternative = { kind: 'anywhere' };

/** A slot as a window is searched for it: its alternatives, and its share of the query. */
export interface WindowSlot {
  alternatives: readonly Alternative[];
  share: number;
  /** The model's nearest words, counting `relatedShare` of the slot where the slot is not matched. */
  related?: readonly Alternative[];
  relatedShare?: number;
}

/** A sentence of a memory's text: where it is, and its tokens as the index holds them. */
export interface Window {
  start: number;
  end: number;
  /** Stems, in order. */
  stems: readonly string[];
  /** The tokens before stemming (for prefixes), lower case. */
  words: readonly string[];
}

/** The best passage of a long memory for a query. */
export interface PassageMatch {
  /** Its share of the query, in [0, 1]. */
  coverage: number;
  /** Where it is in the memory's text (UTF-16 offsets, end excluded). */
  start: number;
  end: number;
}

const PHRASE = /^"([^"]*)"(\*?)$/u;
const NEAR = /^NEAR\("([^"]+)" "([^"]+)", (\d+)\)$/u;

/**
 * One FTS5 term of a query slot (as `query/parse.ts` and `query/resolve.ts` write them) as an
 * alternative a window can be searched for; undefined for one it cannot be (an address's `site`
 * column is not in the text).
 */
export function alternative(term: string): Alternative | undefined {
  const phrase = PHRASE.exec(term);
  if (phrase) {
    const words = tokensOf(phrase[1]!);
    if (words.length === 0) return undefined;
    const prefix = phrase[2] === '*';
    return {
      kind: 'phrase',
      stems: words.map((w, i) => (prefix && i === words.length - 1 ? w : stem(w))),
      prefix,
    };
  }
  const near = NEAR.exec(term);
  if (near) return { kind: 'near', a: stem(near[1]!), b: stem(near[2]!), reach: Number(near[3]) };
  return undefined;
}

/** The sentences (or lines) of a text, each with its tokens as the index holds them. */
export function windows(text: string): Window[] {
  const out: Window[] = [];
  const sentence = (start: number, stop: number) => {
    if (!/\S/u.test(text.slice(start, stop))) return;
    const words = tokensOf(lexicalText(text.slice(start, stop)));
    out.push({ start, end: stop, words, stems: words.map(stem) });
  };
  let from = 0;
  for (const m of text.matchAll(/[.!?。！？]+(?=\s)|\n+/gu)) {
    sentence(from, m.index + m[0].length);
    from = m.index + m[0].length;
  }
  sentence(from, text.length);
  return out;
}

/**
 * The passage of consecutive sentences, at most {@link WINDOW_CHARS} long (or one sentence), that
 * covers most of the query (the shortest of equals, then the first), with its share.
 */
export function bestWindow(
  sentences: readonly Window[],
  slots: readonly WindowSlot[],
): PassageMatch {
  // which slots each sentence holds (2: the slot itself; 1: only its model's nearest words)
  const held = sentences.map((w) =>
    slots.map((s) =>
      s.alternatives.some((a) => holds(w, a)) ? 2 : s.related?.some((a) => holds(w, a)) ? 1 : 0,
    ),
  );
  let best: PassageMatch = { coverage: 0, start: 0, end: 0 };
  for (let i = 0; i < sentences.length; i++) {
    const most = slots.map(() => 0);
    for (let j = i; j < sentences.length; j++) {
      const start = sentences[i]!.start;
      const end = sentences[j]!.end;
      if (j > i && end - start > WINDOW_CHARS) break;
      held[j]!.forEach((h, k) => (most[k] = Math.max(most[k]!, h)));
      let coverage = 0;
      most.forEach((h, k) => {
        const s = slots[k]!;
        coverage += h === 2 ? s.share : h === 1 ? s.share * (s.relatedShare ?? 0) : 0;
      });
      coverage = Math.min(1, coverage);
      const shorter = coverage === best.coverage && end - start < best.end - best.start;
      if (coverage > best.coverage || (coverage > 0 && shorter)) best = { coverage, start, end };
    }
  }
  return best;
}

/** Whether a window holds an alternative. */
function holds(w: Window, a: Alternative): boolean {
  if (a.kind === 'anywhere') return true;
  if (a.kind === 'near') {
    for (let i = 0; i < w.stems.length; i++) {
      if (w.stems[i] !== a.a && w.stems[i] !== a.b) continue;
      const other = w.stems[i] === a.a ? a.b : a.a;
      for (let j = i + 1; j < w.stems.length && j - i - 1 <= a.reach; j++)
        if (w.stems[j] === other) return true;
    }
    return false;
  }
  const n = a.stems.length;
  if (n === 0) return false;
  for (let i = 0; i + n <= w.stems.length; i++) {
    let all = true;
    for (let k = 0; k < n && all; k++) {
      const last = k === n - 1;
      all =
        a.prefix && last
          ? w.words[i + k]!.startsWith(a.stems[k]!) || w.stems[i + k]!.startsWith(a.stems[k]!)
          : w.stems[i + k] === a.stems[k];
    }
    if (all) return true;
  }
  return false;
}

/** `unicode61`'s tokens of a text, lower case, Latin diacritics removed (as the index holds them before stemming). */
function tokensOf(text: string): string[] {
  return ftsTokens(
    text
      .normalize('NFD')
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFC')
      .toLowerCase(),
  );
}

/** The `porter` stem of a token of ASCII letters and digits; any other token as it is. */
function stem(token: string): string {
  return /^[a-z0-9]+$/u.test(token) ? porterStem(token) : token;
}
