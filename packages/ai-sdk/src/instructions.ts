/**
 * `memoryInstructions(results)`: recalled memories as a system-prompt block with numbered sources,
 * for the AI SDK's `system` (`instructions` in ai 7) or any other prompt.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { countTokens } from '@anamnesis/ranking';

/** A memory as {@link memoryInstructions} reads it: a recall result, or the recall tool's output. */
export interface MemoryLike {
  id: string;
  text: string;
  /** Creation time: ms since the epoch (a recall result) or an ISO string (the recall tool). */
  createdAt?: number | string;
}

/** Options of {@link memoryInstructions}. */
export interface MemoryInstructionsOptions {
  /** The block's first line. Default {@link DEFAULT_HEADING}. */
  heading?: string;
  /**
   * Most tokens of memory text in the block, counted as the engine counts them (ceil(code points
   * / 4) per text). The longest prefix of `results` that fits is kept, so `[n]` stays
   * `results[n - 1]`. Default: no limit.
   */
  tokenBudget?: number;
  /** Show each memory's creation date (`YYYY-MM-DD`, UTC). Default true. */
  dates?: boolean;
}

/** Default heading of the block. */
export const DEFAULT_HEADING =
  'Memories recalled from earlier conversations (cite them as [n] when you use them):';

function day(createdAt: number | string | undefined): string | undefined {
  if (createdAt === undefined) return undefined;
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

/**
 * The block: the heading, then one line per memory, `[n] (id …, YYYY-MM-DD) text`, numbered from
 * 1 in the order given (recall's order: most relevant first); a text's further lines are
 * indented. `''` when there is no memory, so it can be joined to other instructions as it is.
 * `INVALID_INPUT` for anything but an array of `{ id, text }` or a bad option.
 *
 * @example
 * const hits = await memory.recall(question, { tokenBudget: 500 });
 * await generateText({ model, system: memoryInstructions(hits), prompt: question });
 */
export function memoryInstructions(
  results: readonly MemoryLike[],
  options: MemoryInstructionsOptions = {},
): string {
  if (!Array.isArray(results)) {
    throw new AnamnesisError('INVALID_INPUT', 'memoryInstructions takes an array of memories');
  }
  const { heading = DEFAULT_HEADING, tokenBudget, dates = true } = options ?? {};
  if (typeof heading !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', 'heading must be a string');
  }
  if (tokenBudget !== undefined && (!Number.isFinite(tokenBudget) || tokenBudget < 0)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'tokenBudget must be a non-negative number of tokens',
    );
  }
  const lines: string[] = [];
  let used = 0;
  for (const [i, memory] of results.entries()) {
    if (
      memory === null ||
      typeof memory !== 'object' ||
      typeof memory.id !== 'string' ||
      typeof memory.text !== 'string'
    ) {
      throw new AnamnesisError('INVALID_INPUT', `memory ${i} needs a string id and text`);
    }
    used += countTokens(memory.text);
    if (tokenBudget !== undefined && used > tokenBudget) break;
    const when = dates ? day(memory.createdAt) : undefined;
    const source = when === undefined ? `id ${memory.id}` : `id ${memory.id}, ${when}`;
    const text = memory.text.trim().split(/\r?\n/).join('\n    ');
    lines.push(`[${i + 1}] (${source}) ${text}`);
  }
  return lines.length === 0 ? '' : [heading, ...lines].join('\n');
}
