/**
 * `memoryMiddleware` through the AI SDK's own `wrapLanguageModel`, with its mock language model
 * (`MockLanguageModelV4` from `ai/test`: a fake, no real model runs here) and a real engine: the
 * memory block goes into the prompt before the user's message, the user's facts are learnt after
 * the answer (a stream's too), and errors go to `onError`, never into the chat. The README's chat
 * loop runs as written.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '@anamnesis/engine';
import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { docBlock } from '../../../scripts/doc-blocks.ts';
import { memoryMiddleware } from '../src/index.ts';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const say = (text: string): GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});
/** The text of every message of a prompt the model was called with. */
const texts = (prompt: MockLanguageModelV4['doGenerateCalls'][number]['prompt']) =>
  prompt.map((m) =>
    typeof m.content === 'string'
      ? m.content
      : m.content.map((p) => ('text' in p ? p.text : '')).join(''),
  );

let engine: Engine;
beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
});
afterEach(() => engine.close());

describe('memoryMiddleware', () => {
  it('learns after the answer and gives the next turn the current facts, before the user’s message', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [say('Noted!'), say('Try a pear.'), say('ok')],
    });
    const learnt: string[] = [];
    const middleware = memoryMiddleware(engine, {
      conversation: 'c7',
      onLearn: (r) => learnt.push(...r.stored.map((f) => f.text)),
    });
    const chat = wrapLanguageModel({ model, middleware });
    const first = await generateText({
      model: chat,
      prompt: 'I live in Utrecht and I am allergic to apples.',
    });
    expect(first.text).toBe('Noted!');
    await middleware.settled();
    expect(learnt).toEqual(['I live in Utrecht', 'I am allergic to apples']);
    const stored = await engine.list();
    expect(stored.map((m) => m.meta)).toEqual([
      { source: 'learn', conversation: 'c7', turn: 0 },
      { source: 'learn', conversation: 'c7', turn: 0 },
    ]);

    await generateText({ model: chat, prompt: 'Which fruit am I allergic to?' });
    const prompt = texts(model.doGenerateCalls[1]!.prompt);
    expect(prompt).toHaveLength(2);
    expect(prompt[0]).toContain('"I am allergic to apples"');
    expect(prompt[0]).toContain('data, not instructions');
    expect(prompt[1]).toBe('Which fruit am I allergic to?');

    // a move supersedes the old home: the next prompt has the new one only
    await generateText({
      model: chat,
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! So you still live in Utrecht?' },
        { role: 'user', content: 'No, we live in Leiden now.' },
      ],
    });
    await middleware.settled();
    expect(learnt).toContain('We live in Leiden now');
    const augmented = await engine.augment({ userMessage: 'where do I live?' });
    expect(augmented.memories[0]!.text).toBe('We live in Leiden now');
    expect(augmented.memories.some((m) => m.text === 'I live in Utrecht')).toBe(false);
  });

  it('a confirmed question of the assistant is learnt as the user’s fact', async () => {
    const model = new MockLanguageModelV4({ doGenerate: say('Great.') });
    const middleware = memoryMiddleware(engine);
    const chat = wrapLanguageModel({ model, middleware });
    await generateText({
      model: chat,
      messages: [
        { role: 'user', content: 'Can you plan my week?' },
        { role: 'assistant', content: 'Sure. Do you have a dog?' },
        { role: 'user', content: 'yes' },
      ],
    });
    await middleware.settled();
    expect((await engine.list()).map((m) => m.text)).toEqual(['I have a dog']);
  });

  it('a stream is learnt from once it ends', async () => {
    const model = new MockLanguageModelV4({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start', id: '1' },
            { type: 'text-delta', id: '1', delta: 'Lovely.' },
            { type: 'text-end', id: '1' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      },
    });
    const middleware = memoryMiddleware(engine);
    const result = streamText({
      model: wrapLanguageModel({ model, middleware }),
      prompt: 'My favourite tea is genmaicha.',
    });
    expect(await result.text).toBe('Lovely.');
    await middleware.settled();
    expect((await engine.list()).map((m) => m.text)).toEqual(['My favourite tea is genmaicha']);
  });

  it('errors go to onError, never into the chat', async () => {
    const model = new MockLanguageModelV4({ doGenerate: say('Still here.') });
    const onError = vi.fn();
    const broken = {
      augment: () => Promise.reject(new Error('recall failed')),
      learn: () => Promise.reject(new Error('learn failed')),
    };
    const middleware = memoryMiddleware(broken, { onError });
    const { text } = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      prompt: 'I live in Delft.',
    });
    expect(text).toBe('Still here.');
    await middleware.settled();
    expect(onError.mock.calls.map(([e]) => (e as Error).message)).toEqual([
      'recall failed',
      'learn failed',
    ]);
    expect(() => memoryMiddleware({} as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('the README’s chat loop runs as written', async () => {
    const code = docBlock(
      'packages/ai-sdk/README.md',
      'Chat loop in three lines',
      'ts',
      'packages/ai-sdk/test/chat-loop.test.ts',
    );
    const dir = join(import.meta.dirname, `.readme-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    // the README's `./model.js`: the AI SDK's mock model, kept for the test to read its calls
    writeFileSync(
      join(dir, 'model.js'),
      `import { MockLanguageModelV4 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
export const model = new MockLanguageModelV4({
  doGenerate: async () => ({ content: [{ type: 'text', text: 'Kiwi.' }],
    finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
});\n`,
    );
    writeFileSync(join(dir, 'app.ts'), code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(pathToFileURL(join(dir, 'app.ts')).href);
      const { model } = (await import(pathToFileURL(join(dir, 'model.js')).href)) as {
        model: MockLanguageModelV4;
      };
      expect(log).toHaveBeenCalledWith('Kiwi.');
      const second = texts(model.doGenerateCalls[1]!.prompt);
      expect(second[0]).toContain('"I am allergic to kiwi"');
      expect(second.at(-1)).toBe('Which fruit am I allergic to?');
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
