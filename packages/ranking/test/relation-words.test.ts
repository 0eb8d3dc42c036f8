import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { factSubjects, relationWordsOf, relationsOf } from '../src/index.ts';
import { RELATIONS } from '../src/supersession.ts';

describe('relationWordsOf', () => {
  it('gives the other words of the relations a word says, in any case and number', () => {
    const home = relationWordsOf('Address');
    expect(home).toEqual(expect.arrayContaining(['live', 'flat', 'house', 'cottage']));
    expect(home).not.toContain('address');
    expect(relationWordsOf('cars')).toEqual(expect.arrayContaining(['drive', 'driving']));
    expect(relationWordsOf('cars')).not.toContain('car');
  });

  it('nothing for a word no relation says', () => {
    expect(relationWordsOf('lentils')).toEqual([]);
    expect(relationWordsOf('')).toEqual([]);
  });

  it('each word it gives says the same relation', () => {
    for (const w of relationWordsOf('dentist')) expect(relationsOf(`my ${w}`)).toContain('dentist');
  });
});

describe('relationsOf', () => {
  // it skips texts with none of the relations' words; the same texts read whole (factSubjects
  // reads every text) must say the same relations
  const forms = (w: string) => [
    w,
    w.toUpperCase(),
    w[0]!.toUpperCase() + w.slice(1),
    `${w}s`,
    `${w}'s`,
    `${w}’s`,
    `ex-${w}`,
    `${w}-free`,
  ];
  const sentences = (f: string) => [
    f,
    `My ${f} is new.`,
    `(${f})`,
    `moved to the ${f}, again`,
    `${f}!`,
    `x${f}`,
    `${f}2`,
  ];

  it('says what reading every word says, for every form of every relation word', () => {
    const texts = [
      ...RELATIONS.flatMap((r) => r.words.flatMap(forms).flatMap(sentences)),
      ...['moves to', 'Relocating to Leeds', 'we MOVED out', 'relocated again', 'moving house'],
    ];
    for (const text of texts)
      expect(relationsOf(text), text).toEqual([...factSubjects(text).keys()]);
  });

  it('says the same over the bench corpora', () => {
    const corpora = fileURLToPath(new URL('../../../apps/bench/corpora/', import.meta.url));
    let texts = 0;
    for (const name of readdirSync(corpora)) {
      let corpus: { memories: { text: string }[] };
      try {
        corpus = JSON.parse(
          readFileSync(join(corpora, name, 'corpus.json'), 'utf8'),
        ) as typeof corpus;
      } catch {
        continue; // not a corpus folder
      }
      for (const { text } of corpus.memories) {
        texts++;
        expect(relationsOf(text), text).toEqual([...factSubjects(text).keys()]);
      }
    }
    expect(texts).toBeGreaterThan(3000);
  });
});
