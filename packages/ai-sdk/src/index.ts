/**
 * `@anamnesis/ai-sdk`: anamnesis for the AI SDK. {@link memoryTools} gives a model `remember` and
 * `recall` tools; {@link memoryInstructions} turns recalled memories into a system-prompt block
 * with numbered sources.
 */
export {
  DEFAULT_HEADING,
  memoryInstructions,
  type MemoryInstructionsOptions,
  type MemoryLike,
} from './instructions.ts';
export type { ToolsMemory } from './memory.ts';
export {
  DEFAULT_TOKEN_BUDGET,
  memoryTools,
  type MemoryToolSet,
  type MemoryToolsOptions,
  type RecallToolInput,
  type RecallToolOutput,
  type RecalledMemory,
  type RememberToolInput,
  type RememberToolOutput,
} from './tools.ts';
