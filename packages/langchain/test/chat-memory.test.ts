/**
 * `AnamnesisChatMemory` on a real engine: `saveContext` learns the user's durable facts (and a
 * confirmed question of the assistant's), `loadMemoryVariables` gives the current facts as the
 * memory block; learn errors go to `onError`. The README's chat loop runs as written.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '@anamnesis/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { docBlock } from '../../../scripts/doc-blocks.ts';
import { AnamnesisChatMemory } from '../src/index.ts';

let engine: Engine;
beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
});
afterEach(() => engine.close());

describe('AnamnesisChatMemory', () => {
  it('learns the user’s facts and a confirmed question, and gives the current ones back', async () => {
    const memory = new AnamnesisChatMemory(engine, { conversation: 'lc1' });
    expect(memory.memoryKeys).toEqual(['memory']);
    await memory.saveContext(
      { input: 'Hi! I work at a bike shop.' },
      { output: 'Nice. So you live in Antwerp?' },
    );
    await memory.saveContext({ input: 'yes' }, { output: 'Great.' });
    expect((await engine.list()).map((m) => [m.text, m.meta.turn]).sort()).toEqual([
      ['I live in Antwerp', 1],
      ['I work at a bike shop', 0],
    ]);
    const { memory: block } = await memory.loadMemoryVariables({ input: 'where do I live?' });
    expect(block).toContain('"I live in Antwerp"');
    expect(memory.lastAugment?.debug.some((d) => d.used)).toBe(true);
  });

  it('learn errors go to onError; bad input is INVALID_INPUT', async () => {
    const onError = vi.fn();
    const broken = {
      augment: () => engine.augment({ userMessage: 'x' }),
      learn: () => Promise.reject(new Error('learn failed')),
    };
    const memory = new AnamnesisChatMemory(broken, { onError });
    await memory.saveContext({ input: 'I live in Ghent' }, { output: 'ok' });
    expect(onError).toHaveBeenCalledOnce();
    await expect(memory.loadMemoryVariables({ question: 'x' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(() => new AnamnesisChatMemory({} as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('the README’s chat loop runs as written', async () => {
    const code = docBlock(
      'packages/langchain/README.md',
      'Chat loop in three lines',
      'ts',
      'packages/langchain/test/chat-memory.test.ts',
    );
    const dir = join(import.meta.dirname, `.readme-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'app.ts'), code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(pathToFileURL(join(dir, 'app.ts')).href);
      const [block] = log.mock.calls[0] as [string];
      expect(block).toContain('"I am allergic to kiwi"');
      expect(block).toContain('data, not instructions');
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
