import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Chrono } from 'chrono-node';
import * as de from 'chrono-node/de';
import * as en from 'chrono-node/en';
import * as es from 'chrono-node/es';
import * as fr from 'chrono-node/fr';
import { describe, expect, it } from 'vitest';

import { TIME_WORDS } from '../src/recall/query/time-gates.ts';
import { readTime } from '../src/recall/query/time.ts';

/**
 * The gates that keep chrono's Latin-script parsers from queries that say no time in their
 * language (`recall/query/time-gates.ts`): every word of chrono's dictionaries passes its gate, and
 * over the repository's texts (the corpora's memories and dev questions) no text a gate keeps out
 * gets any parse from that parser, so the gates change no reading.
 */
const here = dirname(fileURLToPath(import.meta.url));
const chronoLocales = join(dirname(fileURLToPath(import.meta.resolve('chrono-node'))), 'locales');
const LANGS = { en, de, fr, es } as const satisfies Record<string, { casual: Chrono }>;
type Lang = keyof typeof LANGS;

/** Time said in each language, as people type it (each must be read). */
const TIME_PHRASES = [
  'what did I cook two days ago',
  'the call yesterday',
  'notes from last week',
  'last summer in the mountains',
  'on 3 June 2025',
  'this morning',
  'last Christmas',
  'in 2025',
  'was habe ich vorgestern gekocht',
  'das Treffen letzte Woche',
  'vor drei Tagen',
  'am Montag',
  "la réunion d'hier",
  'il y a deux jours',
  'la semaine dernière',
  'lundi dernier',
  'la reunión de ayer',
  'hace dos días',
  'la semana pasada',
  'el lunes',
];

describe('time gates', () => {
  it("let every word of chrono's month, weekday and unit dictionaries through", async () => {
    const missed: string[] = [];
    for (const lang of Object.keys(LANGS) as Lang[]) {
      const constants = (await import(
        pathToFileURL(join(chronoLocales, lang, 'constants.js')).href
      )) as Record<string, unknown>;
      for (const name of ['MONTH_DICTIONARY', 'WEEKDAY_DICTIONARY', 'TIME_UNIT_DICTIONARY']) {
        const words = Object.keys(constants[name] as Record<string, unknown>);
        expect(words.length, `${lang} ${name}`).toBeGreaterThan(5);
        for (const word of words) {
          // single letters ("h", "d") are left out: they need a number, a digit in practice; a
          // German weekday's two letters ("do") count after "am" or before a comma
          if (word.replace(/\.$/u, '').length < 2) continue;
          if (!TIME_WORDS[lang].test(`was am ${word}, da`)) missed.push(`${lang}: ${word}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('keep out everyday words, and let digits and time words through', () => {
    expect(TIME_WORDS.en.test('my cat likes the sofa')).toBe(false);
    expect(TIME_WORDS.en.test('monitor settings')).toBe(false); // "mon" inside a word
    expect(TIME_WORDS.en.test('what did I cook two days ago')).toBe(true);
    expect(TIME_WORDS.en.test("yesterday's call")).toBe(true);
    expect(TIME_WORDS.en.test('on 3/4')).toBe(true);
    expect(TIME_WORDS.de.test('Wo ist mein Schlüssel')).toBe(false);
    expect(TIME_WORDS.de.test('how do I list files')).toBe(false); // "Do" is Donnerstag after "am"
    expect(TIME_WORDS.de.test('Treffen am Do')).toBe(true);
    expect(TIME_WORDS.en.test('¿Cómo instalo paquetes?')).toBe(false); // "mo", a month, in "Cómo"
    expect(TIME_WORDS.de.test('Treffen vorgestern')).toBe(true);
    expect(TIME_WORDS.fr.test("aujourd'hui")).toBe(true);
    expect(TIME_WORDS.es.test('la reunión de ayer')).toBe(true);
  });

  it('change no reading over the corpora, and keep most questions from every parser', () => {
    const corpora = join(here, '../../../apps/bench/corpora');
    const texts: string[] = [...TIME_PHRASES];
    const questions: string[] = [];
    for (const name of readdirSync(corpora)) {
      let corpus: { memories: { text: string }[]; questions: { text: string; split: string }[] };
      try {
        corpus = JSON.parse(
          readFileSync(join(corpora, name, 'corpus.json'), 'utf8'),
        ) as typeof corpus;
      } catch {
        continue; // not a corpus folder
      }
      texts.push(...corpus.memories.map((m) => m.text));
      questions.push(...corpus.questions.filter((q) => q.split === 'dev').map((q) => q.text));
    }
    texts.push(...questions);
    expect(texts.length).toBeGreaterThan(4000);
    const now = new Date(2026, 10, 18, 15).getTime();
    const changed: string[] = [];
    let read = 0;
    for (const text of texts) {
      const gated = readTime(text, now);
      const all = readTime(text, now, false);
      if (all.readings.length > 0) read++;
      if (JSON.stringify(gated) !== JSON.stringify(all))
        changed.push(
          `${JSON.stringify(text.slice(0, 80))}: ${JSON.stringify(all.readings)} → ${JSON.stringify(gated.readings)}`,
        );
    }
    expect(changed).toEqual([]);
    expect(read).toBeGreaterThan(TIME_PHRASES.length);
    // most questions run none of the four parsers (86 % of the dev questions on 2026-12-07)
    const open = (t: string) => Object.values(TIME_WORDS).some((g) => g.test(t));
    expect(questions.filter((q) => !open(q)).length / questions.length).toBeGreaterThan(0.75);
  });
});
