/**
 * `memoryMiddleware(memory)`: a chat that remembers, for `wrapLanguageModel` (issue 70). Before
 * each call, the memories the user's last message needs (`augment`: current facts, within a token
 * budget) go into the prompt as one user message just before it, quoted as data; after the
 * answer, the durable facts the user stated (`learn`) are stored. Learning never delays the
 * answer: it runs after it (a stream's, once the stream ends), and the next call's memories wait
 * for it, so a fact said in one turn is known in the next. An error of either is given to
 * `onError`, never thrown into the chat: the answer comes without memories, or is not learnt from.
 */
import type {
  AugmentInput,
  AugmentResult,
  ChatTurn,
  Engine,
  LearnInput,
  LearnResult,
} from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import type { LanguageModelMiddleware } from 'ai';

/** What {@link memoryMiddleware} needs of a memory: an `Engine` or an `openMemory` client. */
export type ChatMemory = Pick<Engine, 'augment' | 'learn'>;

/**
 * Options of {@link memoryMiddleware}: `augment`'s budget, limit, history and filter, and
 * `learn`'s conversation, speaker and extraction (the engine's defaults), and these.
 */
export interface MemoryMiddlewareOptions
  extends
    Pick<AugmentInput, 'tokenBudget' | 'limit' | 'historyTurns' | 'filter'>,
    Pick<LearnInput, 'conversation' | 'speaker' | 'extractor'> {
  /** Learn the user's durable facts after each answer. Default true. */
  learn?: boolean;
  /** Called with each error of recalling or learning (the chat goes on). Default `console.error`. */
  onError?: (error: unknown) => void;
  /** Called with what `augment` gave each call (its `debug` says why each memory was used). */
  onAugment?: (result: AugmentResult) => void;
  /** Called with what `learn` stored after each answer. */
  onLearn?: (result: LearnResult) => void;
}

/** The middleware, with a way to wait for the learning in flight. */
export type MemoryMiddleware = LanguageModelMiddleware & {
  /** Resolves when the learning of the answers given so far is done (it never rejects). */
  settled(): Promise<void>;
};

/** A message of the prompt the model is called with (the parts this middleware reads). */
interface PromptMessage {
  role: string;
  content: string | readonly { type: string; text?: string }[];
  providerOptions?: Record<string, Record<string, unknown> | undefined>;
}

/** Where the memory block's message says it is one (providers ignore others' options). */
const BLOCK_OPTIONS = { anamnesis: { memoryBlock: true } };

/** Whether a prompt message is a memory block this middleware put there. */
const isBlock = (m: PromptMessage) => m.providerOptions?.anamnesis?.memoryBlock === true;

/** The text of a prompt message: its text parts, joined. */
function textOf(message: PromptMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text!)
    .join('\n');
}

/** The prompt's last user message, the turns before it, and the assistant's message just before. */
function readPrompt(all: readonly PromptMessage[]) {
  const prompt = all.filter((m) => !isBlock(m));
  let last = prompt.length - 1;
  while (last >= 0 && prompt[last]!.role !== 'user') last--;
  if (last < 0) return undefined;
  const history: ChatTurn[] = prompt
    .slice(0, last)
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: textOf(m) }))
    .filter((t) => t.content !== '');
  const before = prompt[last - 1];
  return {
    index: all.indexOf(prompt[last]!),
    userMessage: textOf(prompt[last]!),
    history,
    assistantMessage: before?.role === 'assistant' ? textOf(before) : undefined,
  };
}

/**
 * The middleware (see the module comment), for `wrapLanguageModel({ model, middleware })` of the
 * AI SDK (6 or 7). `INVALID_INPUT` unless `memory` has `augment` and `learn`.
 *
 * @example
 * const chat = wrapLanguageModel({ model, middleware: memoryMiddleware(memory) });
 */
export function memoryMiddleware(
  memory: ChatMemory,
  options: MemoryMiddlewareOptions = {},
): MemoryMiddleware {
  if (
    memory === null ||
    typeof memory !== 'object' ||
    typeof memory.augment !== 'function' ||
    typeof memory.learn !== 'function'
  )
    throw new AnamnesisError(
      'INVALID_INPUT',
      'memoryMiddleware needs an anamnesis engine or client (with augment and learn)',
    );
  const onError =
    options.onError ?? ((e: unknown) => console.error('anamnesis: chat memory failed', e));
  const report = (e: unknown) => {
    try {
      onError(e);
    } catch {
      // an onError that throws must not reach the chat either
    }
  };
  let learning: Promise<void> = Promise.resolve();
  let turn = 0;

  /** Learns from the prompt's last user message, after whatever is learning now. */
  const learnFrom = (params: { prompt: readonly PromptMessage[] }) => {
    if (options.learn === false) return;
    const read = readPrompt(params.prompt);
    if (!read || read.userMessage.trim() === '') return;
    const input: LearnInput = {
      userMessage: read.userMessage,
      turn: turn++,
      ...(read.assistantMessage === undefined ? {} : { assistantMessage: read.assistantMessage }),
      ...(options.conversation === undefined ? {} : { conversation: options.conversation }),
      ...(options.speaker === undefined ? {} : { speaker: options.speaker }),
      ...(options.extractor === undefined ? {} : { extractor: options.extractor }),
    };
    learning = learning.then(async () => {
      try {
        const result = await memory.learn(input);
        options.onLearn?.(result);
      } catch (e) {
        report(e);
      }
    });
  };

  return {
    specificationVersion: 'v3',
    settled: () => learning,
    transformParams: async ({ params }) => {
      const prompt = params.prompt as readonly PromptMessage[];
      const read = readPrompt(prompt);
      if (!read || read.userMessage.trim() === '') return params;
      await learning; // what the last answer taught is known to this one
      try {
        const input: AugmentInput = {
          userMessage: read.userMessage,
          history: read.history,
          ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.filter === undefined ? {} : { filter: options.filter }),
          ...(options.historyTurns === undefined ? {} : { historyTurns: options.historyTurns }),
        };
        const result = await memory.augment(input);
        options.onAugment?.(result);
        if (result.block === '') return params;
        const block = {
          role: 'user' as const,
          content: [{ type: 'text' as const, text: result.block }],
          providerOptions: BLOCK_OPTIONS,
        };
        return {
          ...params,
          prompt: [
            ...params.prompt.slice(0, read.index),
            block,
            ...params.prompt.slice(read.index),
          ],
        };
      } catch (e) {
        report(e);
        return params;
      }
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      learnFrom(params);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      type Part = typeof result.stream extends ReadableStream<infer P> ? P : never;
      const stream = result.stream.pipeThrough(
        new TransformStream<Part, Part>({ flush: () => learnFrom(params) }),
      );
      return { ...result, stream };
    },
  };
}
