import { AnamnesisError } from '@anamnesis/errors';
import { asksHistory, DEFAULT_HEADING, memoryBlock } from '@anamnesis/ranking';
import type { MemoryFilter, RecallOptions, RecallResult } from '../types.ts';

/**
 * `Engine.augment` (issue 70): the memories a chat turn should see, as the fenced memory block a
 * model reads. Recalls for the user's message, and lightly for the last user turns of the
 * history (their results rank after the message's and count {@link HISTORY_WEIGHT} of their
 * score), keeps the current facts (a memory a newer one supersedes is left out, unless the
 * message asks about the past: "where did I live before"), leaves out weak matches, and formats
 * what is left with `memoryBlock` within the token budget. `debug` says, for every memory
 * recalled, why it was used or left out.
 */

/** Default `tokenBudget` of {@link AugmentInput}: tokens of memory text in the block. */
export const DEFAULT_AUGMENT_TOKEN_BUDGET = 600;
/** Default `limit` of {@link AugmentInput}: memories in the block at most. */
export const DEFAULT_AUGMENT_LIMIT = 8;
/** Default `historyTurns` of {@link AugmentInput}: the last user turns of the history recalled for. */
export const DEFAULT_HISTORY_TURNS = 2;
/** The share of its score a memory found only through a history turn keeps. */
export const HISTORY_WEIGHT = 0.5;
/** Memories each history turn adds at most. */
const PER_HISTORY_TURN = 3;
/** Most history messages read (a longer history is cut to its end). */
const MAX_HISTORY = 1000;

/** One message of a chat, as {@link AugmentInput.history} takes it. */
export interface ChatTurn {
  /** Who said it. */
  role: 'user' | 'assistant' | 'system';
  /** What was said. */
  content: string;
}

/** Input of `Engine.augment`. */
export interface AugmentInput {
  /** The user's new message: what the memories are recalled for. Non-empty. */
  userMessage: string;
  /**
   * The conversation before it, oldest first. Its last {@link AugmentInput.historyTurns} user
   * turns are recalled for too, lightly. Default none.
   */
  history?: readonly ChatTurn[];
  /**
   * Most tokens of memory text in the block (the engine's estimate: a token per four code points);
   * the block's fixed lines (heading, data notice, one `[n] (id …)` prefix per memory) come on top.
   * Default {@link DEFAULT_AUGMENT_TOKEN_BUDGET} (600).
   */
  tokenBudget?: number;
  /** Most memories in the block. Default {@link DEFAULT_AUGMENT_LIMIT} (8). */
  limit?: number;
  /** The last user turns of `history` recalled for. Default {@link DEFAULT_HISTORY_TURNS} (2); 0: none. */
  historyTurns?: number;
  /** Only memories this filter selects. Default all. */
  filter?: MemoryFilter;
  /** The block's first line (see `memoryBlock`). Default `memoryBlock`'s. */
  heading?: string;
  /** Keep weak matches (`RecallResult.weak`) too. Default false. */
  includeWeak?: boolean;
}

/** Why a recalled memory was used in the block or left out (`AugmentResult.debug`). */
export interface AugmentDebug {
  /** The memory's id. */
  id: string;
  /** Its text's start (at most 80 characters). */
  text: string;
  /** Whether it is in the block. */
  used: boolean;
  /** Why, in words: its score and match, "replaces …", "superseded by …", "over the token budget". */
  reason: string;
  /** What it was recalled for: the user's message, or a history turn. */
  from: 'message' | 'history';
  /** Its recall score (a history turn's result: times {@link HISTORY_WEIGHT}). */
  score: number;
  /** Its match strength, in [0, 1]. */
  match: number;
  /** The older memory it replaces (it states that fact's newer value). */
  replaces?: string;
  /** The newer memory that supersedes it. */
  supersededBy?: string;
}

/** What `Engine.augment` returns. */
export interface AugmentResult {
  /**
   * The messages to put before the user's message: one user message holding {@link block}, or
   * none when no memory was used. A user message, not a system one, so that what a memory says
   * never speaks with the system prompt's authority.
   */
  messages: {
    /** Always `'user'`: the block is data the person's side brings, never an instruction. */
    role: 'user';
    /** The fenced memory block. */
    content: string;
  }[];
  /** The fenced memory block (`memoryBlock`), `''` when no memory was used. */
  block: string;
  /** The memories in the block, in its order (`[n]` is `memories[n - 1]`). */
  memories: RecallResult[];
  /** Every memory recalled, used or not, with why. */
  debug: AugmentDebug[];
}

/** What augment needs of the engine. */
export interface AugmentEngine {
  recall(query: string, options?: RecallOptions): Promise<RecallResult[]>;
}

interface Found {
  result: RecallResult;
  from: 'message' | 'history';
  score: number;
}

function positiveInt(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new AnamnesisError('INVALID_INPUT', `${name} must be an integer from 0 to ${max}`);
  return value;
}

/** The validated input, with its defaults. */
function validate(input: AugmentInput, maxText: number) {
  if (input === null || typeof input !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'augment: input must be an object');
  const { userMessage, history = [], tokenBudget = DEFAULT_AUGMENT_TOKEN_BUDGET } = input;
  if (typeof userMessage !== 'string')
    throw new AnamnesisError('INVALID_INPUT', 'augment: userMessage must be a string');
  if (userMessage.length > maxText)
    throw new AnamnesisError('INVALID_INPUT', 'augment: userMessage is too long');
  if (typeof tokenBudget !== 'number' || !Number.isFinite(tokenBudget) || tokenBudget < 0)
    throw new AnamnesisError(
      'INVALID_INPUT',
      'augment: tokenBudget must be a non-negative number of tokens',
    );
  if (!Array.isArray(history))
    throw new AnamnesisError('INVALID_INPUT', 'augment: history must be an array of turns');
  const turns = positiveInt(input.historyTurns, 'augment: historyTurns', DEFAULT_HISTORY_TURNS, 20);
  const userTurns: string[] = [];
  for (const turn of (history as readonly unknown[]).slice(-MAX_HISTORY) as (ChatTurn | null)[]) {
    if (
      turn === null ||
      typeof turn !== 'object' ||
      typeof turn.content !== 'string' ||
      !(['user', 'assistant', 'system'] as unknown[]).includes(turn.role)
    )
      throw new AnamnesisError(
        'INVALID_INPUT',
        'augment: each history turn needs a role (user, assistant, system) and a string content',
      );
    if (turn.role === 'user' && turn.content.trim() !== '')
      userTurns.push(turn.content.slice(0, maxText));
  }
  return {
    userMessage,
    tokenBudget,
    limit: positiveInt(input.limit, 'augment: limit', DEFAULT_AUGMENT_LIMIT, 100),
    historyQueries: turns === 0 ? [] : userTurns.slice(-turns),
    filter: input.filter,
    heading: input.heading,
    includeWeak: input.includeWeak === true,
  };
}

/** The first 80 characters of a text, on one line. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A result's score and match, and what ranked it, in words. */
function why(found: Found): string {
  const { result } = found;
  const legs = result.explain?.legs.map((l) => `${l.leg} #${l.rank}`).join(', ');
  return [
    `score ${found.score.toPrecision(3)}`,
    `match ${result.match.toFixed(2)}`,
    ...(legs ? [`found by ${legs}`] : []),
    ...(found.from === 'history' ? ['recalled for an earlier turn'] : []),
    ...(result.explain?.replaces ? [`replaces ${result.explain.replaces}`] : []),
  ].join('; ');
}

/** See the module comment. */
export async function augment(
  engine: AugmentEngine,
  input: AugmentInput,
  maxText: number,
): Promise<AugmentResult> {
  const v = validate(input, maxText);
  const empty: AugmentResult = { messages: [], block: '', memories: [], debug: [] };
  if (v.userMessage.trim() === '') return empty;
  const base: RecallOptions = { explain: true, ...(v.filter ? { filter: v.filter } : {}) };
  const found: Found[] = (
    await engine.recall(v.userMessage, { ...base, topK: Math.max(v.limit * 2, 10) })
  ).map((result) => ({ result, from: 'message', score: result.score }));
  const seen = new Set(found.map((f) => f.result.id));
  const fromHistory: Found[] = [];
  for (const query of v.historyQueries)
    for (const result of await engine.recall(query, { ...base, topK: PER_HISTORY_TURN }))
      if (!seen.has(result.id)) {
        seen.add(result.id);
        fromHistory.push({ result, from: 'history', score: result.score * HISTORY_WEIGHT });
      }
  fromHistory.sort((a, b) => b.score - a.score);
  const all = [...found, ...fromHistory];
  const past = asksHistory(v.userMessage);
  const debug: AugmentDebug[] = [];
  const candidates: Found[] = [];
  for (const f of all) {
    const entry: AugmentDebug = {
      id: f.result.id,
      text: preview(f.result.text),
      used: false,
      reason: '',
      from: f.from,
      score: f.score,
      match: f.result.match,
      ...(f.result.explain?.replaces ? { replaces: f.result.explain.replaces } : {}),
      ...(f.result.explain?.supersededBy ? { supersededBy: f.result.explain.supersededBy.id } : {}),
    };
    debug.push(entry);
    if (entry.supersededBy !== undefined && !past)
      entry.reason = `left out: superseded by ${entry.supersededBy} (a newer value of the same fact)`;
    else if (f.result.weak && !v.includeWeak)
      entry.reason = `left out: weak match (${f.result.match.toFixed(2)})`;
    else if (candidates.length >= v.limit) entry.reason = `left out: over the limit of ${v.limit}`;
    else {
      candidates.push(f);
      entry.reason = why(f);
    }
  }
  const block = memoryBlock(
    candidates.map((f) => f.result),
    { tokenBudget: v.tokenBudget, ...(v.heading === undefined ? {} : { heading: v.heading }) },
  );
  // the block holds a prefix of the candidates: its lines after the heading and the notice
  const heading = (v.heading ?? DEFAULT_HEADING).split('\n').length;
  const inBlock = block === '' ? 0 : block.split('\n').length - heading - 1;
  const memories = candidates.slice(0, inBlock).map((f) => f.result);
  const used = new Set(memories.map((m) => m.id));
  for (const entry of debug)
    if (used.has(entry.id)) entry.used = true;
    else if (candidates.some((f) => f.result.id === entry.id))
      entry.reason = `left out: over the token budget of ${v.tokenBudget}`;
  if (block === '') return { ...empty, debug };
  return { messages: [{ role: 'user', content: block }], block, memories, debug };
}
