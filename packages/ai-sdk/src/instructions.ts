/**
 * Recalled memories for a model, fenced as data: `memoryBlock(results)` (a string, from
 * `@anamnesis/ranking`, which `@anamnesis/mcp` shares), `memoryMessages(results)` (that string as
 * a user message for the AI SDK's `messages`), and `memoryInstructions`, the block's former name.
 */
import { memoryBlock, type MemoryBlockOptions, type MemoryLike } from '@anamnesis/ranking';

export { DATA_NOTICE, DEFAULT_HEADING, memoryBlock, type MemoryLike } from '@anamnesis/ranking';

/** Options of {@link memoryBlock} and {@link memoryMessages}. */
export type MemoryInstructionsOptions = MemoryBlockOptions;

/** A message of the AI SDK's `messages` (`ModelMessage`) holding the block. */
export interface MemoryMessage {
  /** Always a user message: memories are data, never instructions. */
  role: 'user';
  /** The block of `memoryBlock`. */
  content: string;
}

/**
 * The block as AI SDK messages: `[{ role: 'user', content: block }]`, or `[]` when there is no
 * memory, to spread into `messages` before the user's turn. Options and errors as
 * {@link memoryBlock}.
 *
 * @example
 * const hits = await memory.recall(question, { tokenBudget: 500 });
 * await generateText({ model, messages: [...memoryMessages(hits), { role: 'user', content: question }] });
 */
export function memoryMessages(
  results: readonly MemoryLike[],
  options: MemoryInstructionsOptions = {},
): MemoryMessage[] {
  const content = memoryBlock(results, options);
  return content === '' ? [] : [{ role: 'user', content }];
}

/**
 * The same block as {@link memoryBlock}.
 *
 * @deprecated The name suggests the system prompt, where recalled text would speak with the
 * system's authority: use {@link memoryMessages} (a user message), or {@link memoryBlock} in a
 * user message of your own.
 */
export function memoryInstructions(
  results: readonly MemoryLike[],
  options: MemoryInstructionsOptions = {},
): string {
  return memoryBlock(results, options);
}
