/**
 * The server in this process over the SDK's in-memory transport: what `recall` answers, without a
 * child process per case.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createEngine, defaultStorePath as engineDefault, type Engine } from '@anamnesis/engine';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import {
  createMemoryServer,
  defaultStorePath,
  DEFAULT_TOKEN_BUDGET,
  MAX_TOKEN_BUDGET,
} from '../src/index.ts';

let engine: Engine;
let client: Client;

beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  const server = createMemoryServer(engine);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'anamnesis-test', version: '0.0.0' });
  await client.connect(clientSide);
});

afterEach(async () => {
  await client.close();
  await engine.close();
});

async function recall(args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name: 'recall', arguments: args })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('recall: a memory longer than the budget (issue 41)', () => {
  // 40,000 characters: an essay stored as one memory (the engine takes up to 4 Mi characters).
  const essay = 'The lighthouse keeper logged every passing ship and the weather at dawn. '.repeat(
    548,
  );

  test('comes back cut to the budget and marked, at the default budget and at the largest', async () => {
    expect(essay.length).toBeGreaterThan(40_000);
    await engine.remember({ text: essay });
    for (const tokenBudget of [undefined, MAX_TOKEN_BUDGET]) {
      const block = await recall({
        query: 'lighthouse keeper',
        ...(tokenBudget ? { tokenBudget } : {}),
      });
      const line = block.split('\n')[2];
      expect(line, block).toMatch(
        /^\[1\] \(id \w+, \d{4}-\d{2}-\d{2}, cut to \d+ of \d+ characters\) "The lighthouse/,
      );
      const [, shown, of] = /cut to (\d+) of (\d+)/.exec(line!)!.map(Number);
      expect(of).toBe(essay.trim().length);
      expect(shown).toBeLessThanOrEqual((tokenBudget ?? DEFAULT_TOKEN_BUDGET) * 4);
      expect(shown).toBeGreaterThan((tokenBudget ?? DEFAULT_TOKEN_BUDGET) * 4 * 0.9);
    }
  });

  test('what fits comes whole, most relevant first, before the cut one', async () => {
    await engine.rememberMany([
      { text: essay },
      { text: 'The lighthouse keeper is called Maren.' },
    ]);
    const block = await recall({ query: 'lighthouse keeper Maren', tokenBudget: 200 });
    const lines = block.split('\n').slice(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[1\] \(id \w+, [\d-]+\) "The lighthouse keeper is called Maren."$/);
    expect(lines[1]).toMatch(/^\[2\] \(id \w+, [\d-]+, cut to \d+ of \d+ characters\) "/);
  });
});

test("the default store is the anamnesis CLI's: ~/.anamnesis/memory.db (issue 41)", () => {
  expect(defaultStorePath()).toBe(join(homedir(), '.anamnesis', 'memory.db'));
  expect(defaultStorePath()).toBe(engineDefault(homedir()));
});
