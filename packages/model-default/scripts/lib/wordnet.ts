/**
 * WordNet 3.0's data files (`data.noun`, `data.verb`, `data.adj`, `data.adv`; Debian's
 * `wordnet-base` puts them in `/usr/share/wordnet`; WordNet licence: free to use, copy and
 * distribute with its copyright notice), read line by line as the format (`wndb(5WN)`) lays them
 * out: `offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (pointer offset pos source/target)…
 * [frames] | gloss`. Used by `retrofit.ts` (words, hypernyms, glosses) and `order-pairs.ts`
 * (words ↔ definition).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of speech of the data files, as their names spell them. */
export const WORDNET_PARTS = ['noun', 'verb', 'adj', 'adv'] as const;

/** One synset, as its line says. */
export interface Synset {
  /** Its offset and part of speech (`10006177n`): what other synsets' pointers name. */
  key: string;
  /** Its words as the file writes them (`skin_doctor`, `galore(ip)`). */
  words: string[];
  /** The keys of its hypernyms (`@`, instance `@i`) and similar adjectives (`&`). */
  hypernyms: string[];
  /** Its gloss: definitions and quoted examples, separated by `;`. */
  gloss: string;
}

/** The synsets of one data file's text (the licence lines at its head, which begin with two spaces, skipped). */
export function parseWordNetData(text: string): Synset[] {
  const out: Synset[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const bar = line.indexOf(' | ');
    const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
    const count = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(f[4 + 2 * i]!);
    let k = 4 + 2 * count;
    const pointers = Number(f[k++]);
    const hypernyms: string[] = [];
    for (let i = 0; i < pointers; i++, k += 4)
      if (f[k] === '@' || f[k] === '@i' || f[k] === '&') hypernyms.push(`${f[k + 1]}${f[k + 2]}`);
    out.push({
      key: `${f[0]}${f[2]}`,
      words,
      hypernyms,
      gloss: bar < 0 ? '' : line.slice(bar + 3).trim(),
    });
  }
  return out;
}

/** Every synset of the four data files under `dir`. */
export function readWordNet(dir: string): Synset[] {
  return WORDNET_PARTS.flatMap((pos) =>
    parseWordNetData(readFileSync(join(dir, `data.${pos}`), 'utf8')),
  );
}

/** A word as a reader writes it: underscores as spaces, an adjective's marker (`(a)`, `(ip)`) dropped. */
export function plainWord(word: string): string {
  return word.replace(/\(\w+\)$/u, '').replaceAll('_', ' ');
}

/** A gloss's definitions, up to its first quoted example, without the `;` before it. */
export function definitionOf(gloss: string): string {
  return gloss
    .split(/;\s*"/u)[0]!
    .replace(/[;\s]+$/u, '')
    .trim();
}
