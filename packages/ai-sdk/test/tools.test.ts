/**
 * The tools through the AI SDK's own tool execution path: `generateText` with the AI SDK's mock
 * language model (`MockLanguageModelV4` from `ai/test`: a fake, no real model runs here) emitting
 * tool calls, which the SDK validates against the zod schemas, executes, and feeds back.
 */
import { createEngine, type Engine } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { countTokens } from '@anamnesis/ranking';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { DEFAULT_TOKEN_BUDGET, memoryTools, type RecallToolOutput } from '../src/index.ts';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One model turn that calls a tool. */
function callTool(toolName: string, input: unknown, id = toolName): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** One model turn that answers with text. */
function say(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

let engine: Engine;

beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
});

afterEach(() => engine.close());

describe('memoryTools through generateText', () => {
  test('the model remembers, then recalls; the SDK runs both tools and feeds the results back', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        callTool('remember', { text: 'The user adopted a kitten named Luna', tags: ['pets'] }),
        callTool('recall', { query: 'kitten name' }),
        say('Your kitten is called Luna.'),
      ],
    });
    const result = await generateText({
      model,
      tools: memoryTools(engine, { remember: { session: 'user-1' } }),
      stopWhen: stepCountIs(5),
      prompt: 'I adopted a kitten named Luna. What is she called?',
    });

    expect(result.text).toBe('Your kitten is called Luna.');
    expect(result.steps).toHaveLength(3);
    // What was remembered: the tool's input plus the configured fields.
    const [stored] = await engine.list();
    expect(stored).toMatchObject({
      text: 'The user adopted a kitten named Luna',
      tags: ['model:pets'], // the model's tags are prefixed (see hostile.test.ts)
      session: 'user-1',
    });
    expect(result.steps[0]!.toolResults).toMatchObject([
      { toolName: 'remember', output: { id: stored!.id } },
    ]);
    // What was recalled, as the SDK recorded it and as the model saw it in its next prompt.
    const recalled = result.steps[1]!.toolResults[0]!.output as RecallToolOutput;
    expect(recalled.memories).toEqual([
      {
        id: stored!.id,
        text: 'The user adopted a kitten named Luna',
        score: expect.any(Number),
        createdAt: new Date(stored!.createdAt).toISOString(),
        tags: ['model:pets'],
      },
    ]);
    const lastPrompt = JSON.stringify(model.doGenerateCalls[2]!.prompt);
    expect(lastPrompt).toContain('tool-result');
    expect(lastPrompt).toContain(stored!.id);
    // The model was offered both tools, with JSON schemas from the zod schemas.
    const offered = model.doGenerateCalls[0]!.tools!.map((t) => t.name).sort();
    expect(offered).toEqual(['recall', 'remember']);
  });

  test('recall results are trimmed to the token budget (estimated tokens of the texts)', async () => {
    const texts = Array.from(
      { length: 30 },
      (_, i) => `Note ${i} about the garden: tomatoes, basil and peppers need water daily`,
    );
    await engine.rememberMany(texts.map((text) => ({ text })));
    const run = async (tokenBudget?: number) => {
      const model = new MockLanguageModelV4({
        doGenerate: [callTool('recall', { query: 'garden tomatoes water' }), say('ok')],
      });
      const result = await generateText({
        model,
        tools: memoryTools(engine, tokenBudget === undefined ? {} : { tokenBudget }),
        stopWhen: stepCountIs(3),
        prompt: 'what about the garden?',
      });
      return (result.steps[0]!.toolResults[0]!.output as RecallToolOutput).memories;
    };
    const perText = countTokens(texts[0]!);
    const small = await run(3 * perText);
    expect(small).toHaveLength(3);
    expect(small.reduce((n, m) => n + countTokens(m.text), 0)).toBeLessThanOrEqual(3 * perText);
    for (let i = 1; i < small.length; i++) {
      expect(small[i]!.score).toBeLessThanOrEqual(small[i - 1]!.score);
    }
    // The default budget (1,000 tokens) holds all 30 (about 18 tokens each).
    expect(30 * perText).toBeLessThan(DEFAULT_TOKEN_BUDGET);
    expect(await run()).toHaveLength(30);
  });

  test('the filter option limits what recall sees', async () => {
    await engine.rememberMany([
      { text: 'Alice likes green tea', session: 'alice' },
      { text: 'Bob likes black tea', session: 'bob' },
    ]);
    const model = new MockLanguageModelV4({
      doGenerate: [callTool('recall', { query: 'likes tea' }), say('ok')],
    });
    const result = await generateText({
      model,
      tools: memoryTools(engine, { filter: { session: 'bob' } }),
      stopWhen: stepCountIs(3),
      prompt: 'tea?',
    });
    const out = result.steps[0]!.toolResults[0]!.output as RecallToolOutput;
    expect(out.memories.map((m) => m.text)).toEqual(['Bob likes black tea']);
  });

  test('input the schema refuses never reaches the engine: the SDK reports a tool error', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [callTool('remember', { text: '   ' }), say('sorry')],
    });
    const result = await generateText({
      model,
      tools: memoryTools(engine),
      stopWhen: stepCountIs(3),
      prompt: 'remember nothing',
    });
    const errors = result.steps[0]!.content.filter((p) => p.type === 'tool-error');
    expect(errors).toHaveLength(1);
    expect(result.text).toBe('sorry');
    expect((await engine.stats()).memories).toBe(0);
  });

  test('an engine error inside execute comes back to the model as a tool error with its code', async () => {
    await engine.close();
    const model = new MockLanguageModelV4({
      doGenerate: [callTool('recall', { query: 'anything' }), say('the memory is closed')],
    });
    const result = await generateText({
      model,
      tools: memoryTools(engine),
      stopWhen: stepCountIs(3),
      prompt: 'x',
    });
    const [error] = result.steps[0]!.content.filter((p) => p.type === 'tool-error');
    expect((error as { error: unknown }).error).toBeInstanceOf(AnamnesisError);
    expect((error as { error: AnamnesisError }).error.code).toBe('CLOSED');
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  });

  test('bad options or memory are INVALID_INPUT', () => {
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return (e as AnamnesisError).code;
      }
      return 'no error';
    };
    expect(code(() => memoryTools({} as Engine))).toBe('INVALID_INPUT');
    expect(code(() => memoryTools(engine, { tokenBudget: 0 }))).toBe('INVALID_INPUT');
    expect(code(() => memoryTools(engine, { tokenBudget: 1.5 }))).toBe('INVALID_INPUT');
    expect(code(() => memoryTools(engine, null as never))).toBe('INVALID_INPUT');
  });
});
