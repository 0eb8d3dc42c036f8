import { createEngine } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, test } from 'vitest';

import { DATA_NOTICE, DEFAULT_HEADING, memoryBlock, memoryInstructions } from '../src/index.ts';

const DAY_MS = Date.UTC(2024, 4, 1, 12);

describe('memoryBlock', () => {
  test('numbers the memories in order, with ids and dates, each text a JSON string', () => {
    const block = memoryBlock([
      { id: 'm1', text: 'I adopted a kitten named Luna', createdAt: DAY_MS },
      { id: 'm2', text: 'Line one\nline two', createdAt: '2024-06-02T08:00:00.000Z' },
      { id: 'm3', text: 'No date' },
    ]);
    expect(block).toBe(
      [
        DEFAULT_HEADING,
        DATA_NOTICE,
        '[1] (id m1, 2024-05-01) "I adopted a kitten named Luna"',
        '[2] (id m2, 2024-06-02) "Line one\\nline two"',
        '[3] (id m3) "No date"',
      ].join('\n'),
    );
  });

  test('nothing to say is the empty string; heading and dates are options', () => {
    expect(memoryBlock([])).toBe('');
    expect(
      memoryBlock([{ id: 'a', text: 'x', createdAt: DAY_MS }], {
        heading: 'Sources:',
        dates: false,
      }),
    ).toBe(`Sources:\n${DATA_NOTICE}\n[1] (id a) "x"`);
  });

  test('a token budget keeps the longest prefix that fits, so [n] is still results[n-1]', () => {
    const results = [
      { id: 'a', text: 'x'.repeat(40) }, // 10 tokens
      { id: 'b', text: 'y'.repeat(40) }, // 10
      { id: 'c', text: 'z'.repeat(8) }, // 2
    ];
    // 5 tokens left after 'a': too few to cut 'b' to (MIN_CUT_TOKENS)
    expect(memoryBlock(results, { tokenBudget: 15 }).split('\n')).toHaveLength(3);
    expect(memoryBlock(results, { tokenBudget: 22 }).split('\n')).toHaveLength(5);
    // a first memory longer than the budget comes cut, marked
    const cut = memoryBlock(results, { tokenBudget: 5, dates: false }).split('\n');
    expect(cut.slice(2)).toEqual([`[1] (id a, cut to 20 of 40 characters) "${'x'.repeat(20)}"`]);
  });

  test('bad input is INVALID_INPUT', () => {
    for (const run of [
      () => memoryBlock('x' as never),
      () => memoryBlock([{ id: 1, text: 'x' }] as never),
      () => memoryBlock([], { tokenBudget: -1 }),
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the old name keeps working
      () => memoryInstructions([], { heading: 1 as never }),
    ]) {
      expect(run).toThrow(AnamnesisError);
    }
  });

  test('the deprecated memoryInstructions still works as the AI SDK instructions (now fenced)', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
    await engine.rememberMany([
      { text: 'The user is allergic to peanuts' },
      { text: 'The user lives in Lisbon' },
    ]);
    const hits = await engine.recall('peanuts allergy', { tokenBudget: 200 });
    const model = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: 'text', text: 'Noted.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      },
    });
    await generateText({
      model,
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the old name keeps working
      instructions: memoryInstructions(hits),
      prompt: 'Suggest a snack.',
    });
    const [system] = model.doGenerateCalls[0]!.prompt;
    expect(system).toEqual({
      role: 'system',
      content: expect.stringContaining(`[1] (id ${hits[0]!.id}, `),
    });
    expect((system as { content: string }).content).toContain('"The user is allergic to peanuts"');
    expect((system as { content: string }).content).toContain(DATA_NOTICE);
    await engine.close();
  });
});
