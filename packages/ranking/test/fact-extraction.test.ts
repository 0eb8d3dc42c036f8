import { describe, expect, it } from 'vitest';
import { confirmedFact, extractFacts, sentencesOf } from '../src/index.ts';

/** The facts kept from a message (text and kind). */
const kept = (message: string) => extractFacts(message).facts.map((f) => [f.text, f.kind]);
/** Why each clause of a message was left out. */
const why = (message: string) => extractFacts(message).skipped.map((s) => s.reason);

describe('extractFacts', () => {
  it('keeps durable first-person facts, one per clause, fillers removed', () => {
    expect(kept('Oh, I live in Graz and I work at the opera house, btw.')).toEqual([
      ['I live in Graz', 'relation'],
      ['I work at the opera house', 'relation'],
    ]);
    expect(kept("I'm allergic to shellfish.")).toEqual([["I'm allergic to shellfish", 'health']]);
    expect(kept('My favourite film is Paterson!')).toEqual([
      ['My favourite film is Paterson', 'preference'],
    ]);
    expect(kept('My daughter Noor started school.')).toEqual([
      ['My daughter Noor started school', 'person'],
    ]);
    expect(kept("I'm a paramedic.")).toEqual([["I'm a paramedic", 'identity']]);
    expect(kept('We have two rabbits.')).toEqual([['We have two rabbits', 'possession']]);
    expect(kept('We have three daughters, the youngest is Aya.')).toEqual([
      ['We have three daughters, the youngest is Aya', 'person'],
    ]);
    expect(kept('Fun fact: I have my driving test on 14 May.')).toEqual([
      ['I have my driving test on 14 May', 'plan'],
    ]);
    expect(kept('Moved to Tartu in the spring.')).toEqual([
      ['Moved to Tartu in the spring', 'relation'],
    ]);
  });

  it('leaves out questions, small talk, hypotheticals, passing states and others’ chit-chat', () => {
    expect(kept('Where should I live?')).toEqual([]);
    expect(why('Where should I live? Thanks so much!')).toEqual(['question', 'small talk']);
    expect(why('If I lived in Rome I would eat well.')).toEqual(['hypothetical']);
    expect(why("Maybe I'll get a cat.")).toEqual(['hypothetical']);
    expect(why("I'm so hungry right now.")).toEqual(['transient']);
    expect(why('I had soup for lunch today.')).toEqual(['transient']);
    expect(why('The match was brilliant.')).toEqual(['not about the writer']);
    expect(why('My friend said the film was long.')).toEqual(['not about the writer']);
    // another person's words about the writer's own relations are still theirs
    expect(why('Our landlord says the boiler in my flat is fine.')).toEqual([
      'not about the writer',
    ]);
  });

  it('splits sentences but not at Dr. or an initial', () => {
    expect(sentencesOf('My GP is Dr. Okafor. I see J. Lee too! Why?')).toEqual([
      'My GP is Dr. Okafor.',
      'I see J. Lee too!',
      'Why?',
    ]);
  });
});

describe('confirmedFact', () => {
  it('rewrites a confirmed question as the person’s statement', () => {
    expect(confirmedFact('Got it. So you work at the library now?', 'Yes!')).toBe(
      'I work at the library now',
    );
    expect(confirmedFact('Are you vegan?', 'yep')).toBe('I am vegan');
    expect(confirmedFact('Is your dentist Dr Haas?', 'that’s right')).toBe('My dentist is Dr Haas');
    expect(confirmedFact("You're from Ghent, right?", 'correct')).toBe("I'm from Ghent");
  });

  it('nothing without a yes, without a question, or for no durable fact', () => {
    expect(confirmedFact('So you live in Ghent now?', 'no, Bruges')).toBeUndefined();
    expect(confirmedFact('So you live in Ghent now?', 'yes but not for long')).toBeUndefined();
    expect(confirmedFact('You live in Ghent now.', 'yes')).toBeUndefined();
    expect(confirmedFact('Do you want a recipe?', 'yes')).toBeUndefined();
  });
});
