/**
 * `memoryTools(memory)`: anamnesis as AI SDK tools. The model calls `remember` to store a fact and
 * `recall` to look memories up; the AI SDK validates the input against the zod schemas and runs
 * `execute`, which calls the engine or client.
 */
import type { MemoryFilter, RecallOptions, RememberInput } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { tool, type Tool } from 'ai';
import { z } from 'zod';

import { assertToolsMemory, type ToolsMemory } from './memory.ts';

/** Options of {@link memoryTools}. */
export interface MemoryToolsOptions {
  /**
   * Most tokens of memory text that one `recall` call returns, in estimated LLM tokens counted as
   * the engine counts them (ceil(code points / 4) per text; the JSON around the texts is not
   * counted). The engine fills it with the most valuable memories per token (its `tokenBudget`
   * recall option). Default 1,000 tokens.
   */
  tokenBudget?: number;
  /** anamnesis filter every `recall` applies (e.g. `{ session: userId }`). Default none. */
  filter?: MemoryFilter;
  /**
   * Fields every memory the `remember` tool stores gets (the model's `tags` are added to `tags`).
   * Default none: kind `'note'`, importance 0.5, no session.
   */
  remember?: Pick<RememberInput, 'session' | 'kind' | 'tags' | 'importance' | 'meta'>;
  /** Other recall options: `profile`, `minSimilarity`, `recencyMode`, `mmr`… Default none. */
  recallOptions?: Omit<RecallOptions, 'topK' | 'tokenBudget' | 'filter' | 'explain'>;
}

/** Input of the `remember` tool, as the model sends it. */
export interface RememberToolInput {
  text: string;
  tags?: string[];
}

/** Output of the `remember` tool. */
export interface RememberToolOutput {
  /** The memory's id (an existing memory's, when the same text was already remembered). */
  id: string;
}

/** Input of the `recall` tool, as the model sends it. */
export interface RecallToolInput {
  query: string;
}

/** One memory as the `recall` tool returns it to the model. */
export interface RecalledMemory {
  id: string;
  text: string;
  /** Recall's fused score (higher is more relevant). */
  score: number;
  /** Creation time, ISO 8601 (UTC). */
  createdAt: string;
  tags: string[];
}

/** Output of the `recall` tool: memories, most relevant first, within the token budget. */
export interface RecallToolOutput {
  memories: RecalledMemory[];
}

/** The tools {@link memoryTools} returns: a `ToolSet` for `generateText` / `streamText`. */
export interface MemoryToolSet {
  remember: Tool<RememberToolInput, RememberToolOutput>;
  recall: Tool<RecallToolInput, RecallToolOutput>;
  // An index signature, so that the set is assignable to the AI SDK's `ToolSet`.
  [name: string]: Tool;
}

/** Default of {@link MemoryToolsOptions.tokenBudget}, in estimated tokens. */
export const DEFAULT_TOKEN_BUDGET = 1000;

const rememberInput = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .describe('The fact, preference or event to remember, as one self-contained sentence.'),
  tags: z
    .array(z.string().trim().min(1).max(64))
    .max(16)
    .optional()
    .describe('Optional short labels, e.g. ["pets"].'),
});

const recallInput = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .describe('What to look for in the memories: words or a question.'),
});

/**
 * AI SDK tools over an anamnesis engine or client: `remember` (stores a memory, returns its id)
 * and `recall` (returns the most relevant memories within `tokenBudget`). `INVALID_INPUT` for a
 * memory without `remember`/`recall` or a bad option.
 *
 * @example
 * const result = await generateText({ model, tools: memoryTools(memory), stopWhen: stepCountIs(5), prompt });
 */
export function memoryTools(memory: ToolsMemory, options: MemoryToolsOptions = {}): MemoryToolSet {
  assertToolsMemory(memory);
  if (options === null || typeof options !== 'object') {
    throw new AnamnesisError('INVALID_INPUT', 'memoryTools options must be an object');
  }
  const tokenBudget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  if (typeof tokenBudget !== 'number' || !Number.isInteger(tokenBudget) || tokenBudget < 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `tokenBudget must be a positive integer number of tokens, got ${String(tokenBudget)}`,
    );
  }
  const defaults = options.remember ?? {};

  const remember = tool({
    description:
      'Remember a fact, preference or event for later conversations. Use it when the user shares something worth keeping.',
    inputSchema: rememberInput,
    execute: async ({ text, tags }): Promise<RememberToolOutput> => {
      const allTags = [...(defaults.tags ?? []), ...(tags ?? [])];
      const id = await memory.remember({
        ...defaults,
        text,
        ...(allTags.length > 0 ? { tags: allTags } : {}),
      });
      return { id };
    },
  });

  const recall = tool({
    description:
      'Recall memories relevant to a query (earlier facts, preferences, events). Returns the most relevant first.',
    inputSchema: recallInput,
    execute: async ({ query }): Promise<RecallToolOutput> => {
      const results = await memory.recall(query, {
        ...options.recallOptions,
        tokenBudget,
        ...(options.filter === undefined ? {} : { filter: options.filter }),
      });
      // The engine picks by value per token; the model reads them most relevant first.
      const memories = [...results]
        .sort((a, b) => b.score - a.score)
        .map((r) => ({
          id: r.id,
          text: r.text,
          score: r.score,
          createdAt: new Date(r.createdAt).toISOString(),
          tags: r.tags,
        }));
      return { memories };
    },
  });

  return { remember, recall };
}
