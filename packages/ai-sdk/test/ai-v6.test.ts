/**
 * `ai` 6 as well as 7: `ai` 7 requires Node ≥ 22, so on Node 20 `npm install ai` gets 6. The same
 * tools and block, run through ai 6's `generateText` and its mock model (`MockLanguageModelV3`, a
 * fake), installed here as the alias `ai-v6`.
 */
import { createEngine } from '@anamnesis/engine';
import { generateText, stepCountIs } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { expect, test } from 'vitest';

import { memoryMessages, memoryTools, type RecallToolOutput } from '../src/index.ts';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

const turn = (content: GenerateResult['content'], unified: 'stop' | 'tool-calls') => ({
  content,
  finishReason: { unified, raw: undefined },
  usage,
  warnings: [],
});

test('ai 6: generateText runs remember and recall; the memory message reaches the model', async () => {
  const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  await engine.remember({ text: 'The user is allergic to peanuts' });
  const model = new MockLanguageModelV3({
    doGenerate: [
      turn(
        [
          {
            type: 'tool-call',
            toolCallId: 'a',
            toolName: 'remember',
            input: JSON.stringify({ text: 'The user likes apples' }),
          },
        ],
        'tool-calls',
      ),
      turn(
        [
          {
            type: 'tool-call',
            toolCallId: 'b',
            toolName: 'recall',
            input: JSON.stringify({ query: 'apples peanuts' }),
          },
        ],
        'tool-calls',
      ),
      turn([{ type: 'text', text: 'done' }], 'stop'),
    ],
  });
  const question = 'a snack without peanuts';
  const result = await generateText({
    model,
    messages: [
      ...memoryMessages(await engine.recall(question)),
      { role: 'user', content: question },
    ],
    // Typed against the workspace's `ai` (7) here; an app on ai 6 gets ai 6's types.
    tools: memoryTools(engine) as unknown as Parameters<typeof generateText>[0]['tools'],
    stopWhen: stepCountIs(5),
  });
  expect(result.text).toBe('done');
  expect((await engine.stats()).memories).toBe(2);
  const recalled = result.steps[1]!.toolResults[0]!.output as RecallToolOutput;
  expect(recalled.memories.map((m) => m.text).sort()).toEqual([
    'The user is allergic to peanuts',
    'The user likes apples',
  ]);
  const [memories, asked] = model.doGenerateCalls[0]!.prompt;
  expect(memories).toMatchObject({ role: 'user' });
  expect(JSON.stringify(memories)).toContain(') \\"The user is allergic to peanuts\\"');
  expect(JSON.stringify(asked)).toContain(question);
  await engine.close();
});

test('ai 6: memoryMiddleware through wrapLanguageModel learns after the answer and puts the fact in the next prompt', async () => {
  const { wrapLanguageModel } = await import('ai-v6');
  const { memoryMiddleware } = await import('../src/index.ts');
  const engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  const model = new MockLanguageModelV3({
    doGenerate: [
      turn([{ type: 'text', text: 'Noted!' }], 'stop'),
      turn([{ type: 'text', text: 'Try a pear.' }], 'stop'),
    ],
  });
  const middleware = memoryMiddleware(engine);
  // the package's types are compiled against ai 7 here; an app on ai 6 gets ai 6's type of it
  const chat = wrapLanguageModel({
    model,
    middleware: middleware as unknown as Parameters<typeof wrapLanguageModel>[0]['middleware'],
  });
  expect((await generateText({ model: chat, prompt: 'I am allergic to apples.' })).text).toBe(
    'Noted!',
  );
  await middleware.settled();
  expect((await engine.list()).map((m) => m.text)).toEqual(['I am allergic to apples']);
  await generateText({ model: chat, prompt: 'Which fruit am I allergic to?' });
  const prompt = model.doGenerateCalls[1]!.prompt.map((m) =>
    typeof m.content === 'string'
      ? m.content
      : m.content.map((p) => ('text' in p ? p.text : '')).join(''),
  );
  expect(prompt).toHaveLength(2);
  expect(prompt[0]).toContain('"I am allergic to apples"');
  expect(prompt[1]).toBe('Which fruit am I allergic to?');
  await engine.close();
});
