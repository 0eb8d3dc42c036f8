import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { defaultEmbedder } from './helpers.ts';

/**
 * The chat loop (issue 70): `learn` stores the durable facts a person states, deduplicated and
 * superseding the facts they replace; `augment` gives the next turn the current facts as a
 * fenced memory block, within a token budget, with why each memory was used or left out.
 */
const DAY = 86_400_000;
let clock = Date.UTC(2026, 5, 1, 12);
let engine: Engine;

beforeAll(async () => {
  engine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => clock,
  });
});
afterAll(() => engine.close());

describe('learn', () => {
  it('stores each durable first-person fact with its provenance, and nothing else', async () => {
    const r = await engine.learn({
      userMessage:
        "Hi there! I'm exhausted today. I live in Porto and I work as a pharmacist. " +
        'My brother Luis lives in Faro. If I had a boat I would sail. What should I cook tonight?',
      assistantMessage: 'Hello! How can I help?',
      conversation: 'c1',
      turn: 1,
    });
    expect(r.stored.map((f) => f.text)).toEqual([
      'I live in Porto',
      'I work as a pharmacist',
      'My brother Luis lives in Faro',
    ]);
    expect(r.updated).toEqual([]);
    const reasons = Object.fromEntries(r.skipped.map((s) => [s.text, s.reason]));
    expect(reasons['Hi there!']).toBe('small talk');
    expect(reasons["I'm exhausted today."]).toBe('transient');
    expect(reasons['If I had a boat I would sail.']).toBe('hypothetical');
    expect(reasons['What should I cook tonight?']).toBe('question');
    const stored = await engine.get(r.stored[0]!.id);
    expect(stored?.meta).toEqual({ source: 'learn', conversation: 'c1', turn: 1 });
  });

  it('skips a fact the store already holds', async () => {
    clock += DAY;
    const r = await engine.learn({ userMessage: 'As I said, I live in Porto.' });
    expect(r.stored).toEqual([]);
    expect(r.skipped.find((s) => s.text.includes('Porto'))?.reason).toMatch(/^already stored as /);
  });

  it('a newer value supersedes the older fact through the remember path', async () => {
    clock += 30 * DAY;
    const r = await engine.learn({ userMessage: 'Big news: we moved to Lisbon last month!' });
    expect(r.stored.map((f) => f.text)).toEqual(['We moved to Lisbon last month']);
    expect(r.updated).toHaveLength(1);
    const old = await engine.get(r.updated[0]!.replaces);
    expect(old?.text).toBe('I live in Porto');
  });

  it('stores a confirmed question of the assistant as the person’s fact; nothing else of it', async () => {
    clock += DAY;
    const r = await engine.learn({
      assistantMessage: 'Noted. Do you have a dog, by the way? You mentioned walks.',
      userMessage: 'yes',
    });
    expect(r.stored).toEqual([
      expect.objectContaining({ text: 'I have a dog', kind: 'confirmed' }),
    ]);
    const none = await engine.learn({
      assistantMessage: 'Lisbon is lovely, and the best bakery is Manteigaria.',
      userMessage: 'thanks!',
    });
    expect(none.stored).toEqual([]);
  });

  it('an app extractor: ADD, UPDATE (confirmed supersession) and NOOP', async () => {
    clock += DAY;
    const [pharmacist] = (await engine.recall('I work as a pharmacist')).filter((m) =>
      m.text.includes('pharmacist'),
    );
    const r = await engine.learn({
      userMessage: 'I quit the pharmacy, I teach chemistry now. Nice weather.',
      extractor: async ({ existing }) => {
        expect(existing.length).toBeGreaterThan(0);
        return [
          { op: 'UPDATE', text: 'I teach chemistry', replaces: pharmacist!.id },
          { op: 'NOOP', text: 'Nice weather' },
        ];
      },
    });
    expect(r.stored.map((f) => [f.text, f.kind])).toEqual([['I teach chemistry', 'extractor']]);
    expect(r.updated).toEqual([
      { id: r.stored[0]!.id, text: 'I teach chemistry', replaces: pharmacist!.id },
    ]);
    expect((await engine.history(pharmacist!.id))[0]!.supersededBy?.confirmed).toBe(true);
    expect(r.skipped).toEqual([{ text: 'Nice weather', reason: 'extractor: NOOP' }]);
  });

  it('bad input is INVALID_INPUT', async () => {
    for (const input of [
      null,
      { userMessage: 42 },
      { userMessage: 'x'.repeat(5 * 1024 * 1024) },
      { userMessage: 'I live here', turn: Number.NaN },
      { userMessage: 'I live here', extractor: 'model' },
    ])
      await expect(engine.learn(input as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('augment', () => {
  it('gives the current fact, leaves out the superseded one, and says why', async () => {
    const r = await engine.augment({ userMessage: 'Where do I live these days?' });
    expect(r.memories[0]?.text).toBe('We moved to Lisbon last month');
    expect(r.memories.some((m) => m.text === 'I live in Porto')).toBe(false);
    expect(r.messages).toEqual([{ role: 'user', content: r.block }]);
    expect(r.block).toContain('"We moved to Lisbon last month"');
    const porto = r.debug.find((d) => d.text === 'I live in Porto');
    if (porto) {
      expect(porto.used).toBe(false);
      expect(porto.reason).toMatch(/superseded by/);
    }
    const lisbon = r.debug.find((d) => d.text === 'We moved to Lisbon last month')!;
    expect(lisbon.used).toBe(true);
    expect(lisbon.reason).toMatch(/^score .*match/);
  });

  it('a question about the past keeps the older fact', async () => {
    const r = await engine.augment({ userMessage: 'Where did I live before?' });
    expect(r.memories.some((m) => m.text === 'I live in Porto')).toBe(true);
  });

  it('history turns are recalled lightly, after the message’s own memories', async () => {
    const r = await engine.augment({
      userMessage: 'Any ideas for a weekend walk?',
      history: [
        { role: 'user', content: 'Tell me about my brother Luis' },
        { role: 'assistant', content: 'He lives in Faro.' },
      ],
      includeWeak: true,
    });
    const luis = r.debug.find((d) => d.text.includes('Luis'));
    expect(luis?.from).toBe('history');
    expect(luis?.reason).toMatch(/earlier turn/);
  });

  it('keeps within the token budget', async () => {
    const r = await engine.augment({
      userMessage: 'What do I do for work and where do I live?',
      tokenBudget: 5,
    });
    expect(r.memories.length).toBeLessThanOrEqual(1);
    const none = await engine.augment({ userMessage: 'where do I live', tokenBudget: 0 });
    expect(none).toMatchObject({ block: '', messages: [], memories: [] });
    expect(none.debug.every((d) => !d.used)).toBe(true);
  });

  it('bad input is INVALID_INPUT', async () => {
    for (const input of [
      undefined,
      { userMessage: null },
      { userMessage: 'hi', tokenBudget: Number.NaN },
      { userMessage: 'hi', tokenBudget: -1 },
      { userMessage: 'hi', history: 'no' },
      { userMessage: 'hi', history: [{ role: 'bot', content: 'x' }] },
      { userMessage: 'hi', limit: 1.5 },
      { userMessage: 'x'.repeat(5 * 1024 * 1024) },
    ])
      await expect(engine.augment(input as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
