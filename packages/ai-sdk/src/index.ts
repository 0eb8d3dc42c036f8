/**
 * `@anamnesis/ai-sdk`: anamnesis for the AI SDK. {@link memoryTools} gives a model `remember` and
 * `recall` tools; {@link memoryMessages} and {@link memoryBlock} turn recalled memories into a
 * block with numbered sources, each memory quoted as data, for a user message;
 * {@link memoryMiddleware} makes a model a chat that remembers (`wrapLanguageModel`).
 */
export {
  DATA_NOTICE,
  DEFAULT_HEADING,
  memoryBlock,
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- kept for existing callers
  memoryInstructions,
  memoryMessages,
  type MemoryInstructionsOptions,
  type MemoryLike,
  type MemoryMessage,
} from './instructions.ts';
export type { ToolsMemory } from './memory.ts';
export {
  memoryMiddleware,
  type ChatMemory,
  type MemoryMiddleware,
  type MemoryMiddlewareOptions,
} from './middleware.ts';
export {
  DEFAULT_MAX_TEXT_CHARS,
  DEFAULT_TOKEN_BUDGET,
  MODEL_TAG_PREFIX,
  memoryTools,
  type MemoryToolSet,
  type MemoryToolsOptions,
  type RecallToolInput,
  type RecallToolOutput,
  type RecalledMemory,
  type RememberToolInput,
  type RememberToolOutput,
} from './tools.ts';
