/**
 * `AnamnesisChatMemory`: the chat loop of issue 70 for LangChain.js, in the shape of LangChain's
 * classic memory (`memoryKeys`, `loadMemoryVariables`, `saveContext`). `loadMemoryVariables`
 * gives the memory block a turn should see (`augment`: current facts, within a token budget,
 * quoted as data; put it in a user message, not the system prompt); `saveContext` stores the
 * durable facts the user stated (`learn`), a question of the assistant's that the user's next
 * message confirms included. An error of `learn` goes to `onError`, never into the chain.
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
import { assertMemory } from './memory.ts';

/** What {@link AnamnesisChatMemory} needs of a memory: `augment` and `learn`. */
export type ChatLoopMemory = Pick<Engine, 'augment' | 'learn'>;

/**
 * Options of {@link AnamnesisChatMemory}: `augment`'s budget and filter, `learn`'s conversation
 * and extraction (the engine's defaults), and these.
 */
export interface AnamnesisChatMemoryOptions
  extends
    Pick<AugmentInput, 'tokenBudget' | 'filter'>,
    Pick<LearnInput, 'conversation' | 'extractor'> {
  /** The input value holding the user's message. Default `'input'`. */
  inputKey?: string;
  /** The output value holding the assistant's answer. Default `'output'`. */
  outputKey?: string;
  /** The memory variable `loadMemoryVariables` returns the block as. Default `'memory'`. */
  memoryKey?: string;
  /** Called with each error of `learn` (the chain goes on). Default `console.error`. */
  onError?: (error: unknown) => void;
}

/** Turns kept for the next recall's history. */
const KEPT_TURNS = 8;

/** See the module comment. `INVALID_INPUT` unless `memory` has `augment` and `learn`. */
export class AnamnesisChatMemory {
  readonly #memory: ChatLoopMemory;
  readonly #options: AnamnesisChatMemoryOptions;
  readonly #turns: ChatTurn[] = [];
  #turn = 0;
  /** What the last `loadMemoryVariables` gave (its `debug` says why each memory was used). */
  lastAugment: AugmentResult | undefined;
  /** What the last `saveContext` stored. */
  lastLearn: LearnResult | undefined;

  constructor(memory: ChatLoopMemory, options: AnamnesisChatMemoryOptions = {}) {
    assertMemory(memory, ['augment', 'learn'], 'AnamnesisChatMemory');
    this.#memory = memory;
    this.#options = options;
  }

  /** The variables `loadMemoryVariables` returns: the memory key. */
  get memoryKeys(): string[] {
    return [this.#options.memoryKey ?? 'memory'];
  }

  #value(values: Record<string, unknown>, key: string, name: string): string {
    const value = values?.[key];
    if (typeof value !== 'string')
      throw new AnamnesisError('INVALID_INPUT', `${name} must hold a string at "${key}"`);
    return value;
  }

  /** `{ [memoryKey]: block }`: the memory block for the user's message (`''` when none). */
  async loadMemoryVariables(values: Record<string, unknown>): Promise<Record<string, string>> {
    const userMessage = this.#value(values, this.#options.inputKey ?? 'input', 'the input values');
    const result = await this.#memory.augment({
      userMessage,
      history: [...this.#turns],
      ...(this.#options.tokenBudget === undefined
        ? {}
        : { tokenBudget: this.#options.tokenBudget }),
      ...(this.#options.filter === undefined ? {} : { filter: this.#options.filter }),
    });
    this.lastAugment = result;
    return { [this.memoryKeys[0]!]: result.block };
  }

  /** Learns from the user's message (and the assistant's answer before it, for a confirmation). */
  async saveContext(
    inputValues: Record<string, unknown>,
    outputValues: Record<string, unknown>,
  ): Promise<void> {
    const userMessage = this.#value(
      inputValues,
      this.#options.inputKey ?? 'input',
      'the input values',
    );
    const answer = this.#value(
      outputValues,
      this.#options.outputKey ?? 'output',
      'the output values',
    );
    const before = this.#turns.at(-1);
    try {
      this.lastLearn = await this.#memory.learn({
        userMessage,
        turn: this.#turn,
        ...(before?.role === 'assistant' ? { assistantMessage: before.content } : {}),
        ...(this.#options.conversation === undefined
          ? {}
          : { conversation: this.#options.conversation }),
        ...(this.#options.extractor === undefined ? {} : { extractor: this.#options.extractor }),
      });
    } catch (e) {
      (this.#options.onError ?? ((err: unknown) => console.error('anamnesis: learn failed', err)))(
        e,
      );
    }
    this.#turn++;
    this.#turns.push(
      { role: 'user', content: userMessage },
      { role: 'assistant', content: answer },
    );
    this.#turns.splice(0, Math.max(0, this.#turns.length - KEPT_TURNS));
  }
}
