import { describe, expect, it } from 'vitest';
import { lexicalText, lexicalWords, queryStopwords } from '../src/store/lexical.ts';

describe('lexical words', () => {
  it('cuts scripts without spaces into words and stems Russian', () => {
    expect(lexicalWords('我今天在北京吃了烤鸭')).toEqual(expect.arrayContaining(['北京', '烤鸭']));
    expect(lexicalWords('昨日は東京で寿司を食べました')).toEqual(
      expect.arrayContaining(['東京', '寿司']),
    );
    expect(lexicalWords('велосипеды')).toEqual(['велосипед']);
  });

  it('adds Snowball stems when function words show German or Spanish, keeping the words', () => {
    const de = lexicalWords('Die Größe wird in den Einheiten des Systems angezeigt');
    expect(de).toEqual(expect.arrayContaining(['Einheiten', 'einheit']));
    const es = lexicalWords('El tamaño se muestra en las unidades del sistema');
    expect(es).toEqual(expect.arrayContaining(['unidades', 'unidad']));
    expect(lexicalText('Die Größe wird in den Einheiten angezeigt')).toMatch(/\n.*\beinheit\b/);
  });

  it('leaves English text (and text too short to tell) as it is', () => {
    for (const text of [
      'I want to see the units in which the size is shown',
      'Einheiten',
      'hello world',
    ])
      expect(lexicalText(text)).toBe(text);
  });
});

describe('query stopwords', () => {
  it('drops Russian function words (as stems) from a Cyrillic query, English ones always', () => {
    const ru = queryStopwords('как посмотреть, от каких библиотек зависит программа');
    for (const w of ['как', 'от', 'the']) expect(ru.has(w), w).toBe(true);
    expect(ru.has('библиотек')).toBe(false);
    const en = queryStopwords('how do I see the libraries a program needs');
    expect(en.has('the')).toBe(true);
    expect(en.has('как')).toBe(false);
  });
});
