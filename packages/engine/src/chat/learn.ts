import { AnamnesisError } from '@anamnesis/errors';
import {
  confirmedFact,
  extractFacts,
  ftsTokens,
  SPEAKER_META_KEY,
  STOPWORDS,
  supersedingRelation,
  type FactKind,
} from '@anamnesis/ranking';
import type { Database } from '../store/database.ts';
import { rowsByRid } from '../store/store.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import type { HistoryEntry, MetaValue, RememberInput } from '../types.ts';
import { SUPERSEDES } from '../writes/supersession.ts';

/**
 * `Engine.learn` (issue 70): the durable facts a person stated about themselves in a chat turn,
 * stored as memories of their own. Found by `extractFacts` (no model: first-person statements
 * with a durable cue; questions, small talk, passing states and hypotheticals left out), or by
 * the app's own `extractor`. Nothing the assistant said is stored, except a question of the
 * assistant's that the person's reply confirms ("So you live in Lisbon now?" "yes"), stored as
 * the person's statement ("I live in Lisbon now"). A fact the store already holds (the same
 * words, or a memory close in meaning that holds every word of it) is skipped. The new facts are
 * written in one `rememberMany` transaction, so the write path's supersession finds the older
 * facts they replace ("I moved to Lisbon" over "I live in Porto"); each carries its provenance in
 * `meta` (`source: 'learn'`, `conversation`, `turn`).
 */

/** `meta.source` of a memory `learn` stored. */
export const LEARN_SOURCE = 'learn';
/** Older memories, closest in meaning, a fact is checked against for a duplicate. */
const NEAR = 5;
/** Facts one call stores at most (a longer message is a paste, not a chat turn). */
export const MAX_LEARNED = 20;

/** One operation an app's {@link LearnInput.extractor} returns (as Mem0's do). */
export interface ExtractorOperation {
  /** `'ADD'`: a new fact; `'UPDATE'`: a new value of the fact `replaces` states; `'NOOP'`: nothing. */
  op: 'ADD' | 'UPDATE' | 'NOOP';
  /** The fact, as it is to be stored (the person's words, first person). */
  text: string;
  /** With `'UPDATE'`: the id of the memory the fact supersedes. */
  replaces?: string;
}

/** What an app's extractor is given. */
export interface ExtractorInput {
  /** The user's message. */
  userMessage: string;
  /** The assistant's message it replies to, if given. */
  assistantMessage?: string;
  /** The stored memories closest in meaning to the message (at most five), for `UPDATE`s. */
  existing: {
    /** The memory's id (an `UPDATE`'s `replaces`). */
    id: string;
    /** Its text. */
    text: string;
  }[];
}

/** Input of `Engine.learn`. */
export interface LearnInput {
  /** What the person said this turn. Their durable facts are stored. */
  userMessage: string;
  /**
   * The assistant's message that `userMessage` replies to (the one before it, not the answer to
   * it). Nothing of it is stored, except a question the reply confirms ("So you live in Lisbon
   * now?" → "yes": "I live in Lisbon now"). Default none.
   */
  assistantMessage?: string;
  /** The conversation's id, stored as `meta.conversation`. Default none. */
  conversation?: string;
  /** The turn's number in the conversation, stored as `meta.turn`. Default none. */
  turn?: number;
  /**
   * Who the person is, stored as `meta.speaker`: a fact supersedes only the same speaker's facts.
   * Default none (the store's one person).
   */
  speaker?: string;
  /** Tags of every stored fact. Default none. */
  tags?: string[];
  /**
   * The app's own extraction, instead of the built-in one: a function (the app's model, say) that
   * returns operations. Called once per `learn`; no network request is ever made by the engine
   * itself. Its `ADD`s and `UPDATE`s are checked for duplicates as the built-in facts are; an
   * `UPDATE`'s `replaces` (an existing id) is superseded, confirmed. A function does not cross
   * the worker: `@anamnesis/client` forwards `learn` without it. Default none (built-in).
   */
  extractor?: (input: ExtractorInput) => Promise<readonly ExtractorOperation[]>;
}

/** A fact `learn` stored. */
export interface LearnedFact {
  /** The new memory's id. */
  id: string;
  /** Its text. */
  text: string;
  /** How it was found: the built-in extractor's kind, a confirmed question, or the app's extractor. */
  kind: FactKind | 'confirmed' | 'extractor';
}

/** What `Engine.learn` returns. */
export interface LearnResult {
  /** The facts stored, in the message's order. */
  stored: LearnedFact[];
  /** Each older memory a stored fact supersedes. */
  updated: {
    /** The stored fact's id. */
    id: string;
    /** Its text. */
    text: string;
    /** The id of the older memory it supersedes. */
    replaces: string;
  }[];
  /** What was not stored, with why. */
  skipped: {
    /** The clause (or the extractor's text) as written. */
    text: string;
    /** Why: a question, small talk, hypothetical, transient, `already stored as <id>`… */
    reason: string;
  }[];
}

/** What learn needs of the engine. */
export interface LearnEngine {
  db: Database;
  similarity: () => SimilarityBackend;
  maxText: number;
  rememberMany(inputs: readonly RememberInput[]): Promise<string[]>;
  history(id: string): Promise<HistoryEntry[]>;
}

/** A fact to store, before the duplicate check. */
interface Candidate {
  text: string;
  kind: LearnedFact['kind'];
  replaces?: string;
}

function optionalString(value: unknown, name: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw new AnamnesisError(
      'INVALID_INPUT',
      `learn: ${name} must be a string of at most ${max} characters`,
    );
  return value;
}

/** The content words of a text, lower case, a plural's `s` dropped. */
function contentWords(text: string): Set<string> {
  return new Set(
    ftsTokens(text)
      .map((w) => w.toLowerCase())
      .filter((w) => !STOPWORDS.has(w) && w !== 'i')
      .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)),
  );
}

/** Whether `older` already states `fact`: every content word of it, and not a newer value. */
function restates(fact: string, older: string): boolean {
  const mine = contentWords(fact);
  const theirs = contentWords(older);
  if (mine.size === 0) return fact.trim().toLowerCase() === older.trim().toLowerCase();
  for (const w of mine) if (!theirs.has(w)) return false;
  return supersedingRelation(fact, older) === undefined;
}

/** The stored memories closest in meaning to a text (ids and texts). */
async function nearest(engine: LearnEngine, text: string, k: number) {
  const similarity = engine.similarity();
  const query = await similarity.query(text);
  const rids = similarity.search(query, k).map((h) => h.rid);
  const rows = rowsByRid(engine.db, rids);
  return rids.flatMap((rid) => {
    const row = rows.get(rid);
    return row ? [{ id: row.id, text: row.text }] : [];
  });
}

/** See the module comment. */
export async function learn(engine: LearnEngine, input: LearnInput): Promise<LearnResult> {
  if (input === null || typeof input !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'learn: input must be an object');
  const { userMessage, extractor } = input;
  if (typeof userMessage !== 'string')
    throw new AnamnesisError('INVALID_INPUT', 'learn: userMessage must be a string');
  if (userMessage.length > engine.maxText)
    throw new AnamnesisError('INVALID_INPUT', 'learn: userMessage is too long');
  const assistantMessage = optionalString(
    input.assistantMessage,
    'assistantMessage',
    engine.maxText,
  );
  const conversation = optionalString(input.conversation, 'conversation', 200);
  const speaker = optionalString(input.speaker, 'speaker', 200);
  if (
    input.turn !== undefined &&
    (typeof input.turn !== 'number' || !Number.isSafeInteger(input.turn) || input.turn < 0)
  )
    throw new AnamnesisError('INVALID_INPUT', 'learn: turn must be a non-negative integer');
  if (extractor !== undefined && typeof extractor !== 'function')
    throw new AnamnesisError('INVALID_INPUT', 'learn: extractor must be a function');
  const result: LearnResult = { stored: [], updated: [], skipped: [] };
  if (userMessage.trim() === '') return result;

  const candidates: Candidate[] = [];
  if (extractor) {
    const existing = await nearest(engine, userMessage, NEAR);
    const ops = await extractor({
      userMessage,
      ...(assistantMessage === undefined ? {} : { assistantMessage }),
      existing,
    });
    if (!Array.isArray(ops))
      throw new AnamnesisError('INVALID_INPUT', 'learn: the extractor must return an array');
    for (const op of ops as unknown[]) {
      const o = op as ExtractorOperation;
      if (
        o === null ||
        typeof o !== 'object' ||
        typeof o.text !== 'string' ||
        !['ADD', 'UPDATE', 'NOOP'].includes(o.op)
      )
        throw new AnamnesisError(
          'INVALID_INPUT',
          'learn: each extractor operation needs an op (ADD, UPDATE, NOOP) and a text',
        );
      if (o.op === 'NOOP') result.skipped.push({ text: o.text, reason: 'extractor: NOOP' });
      else if (o.op === 'UPDATE' && typeof o.replaces !== 'string')
        throw new AnamnesisError('INVALID_INPUT', 'learn: an UPDATE needs the id it replaces');
      else
        candidates.push({
          text: o.text.trim(),
          kind: 'extractor',
          ...(o.op === 'UPDATE' ? { replaces: o.replaces! } : {}),
        });
    }
  } else {
    if (assistantMessage !== undefined) {
      const confirmed = confirmedFact(assistantMessage, userMessage);
      if (confirmed !== undefined) candidates.push({ text: confirmed, kind: 'confirmed' });
    }
    const { facts, skipped } = extractFacts(userMessage);
    for (const f of facts) candidates.push({ text: f.text, kind: f.kind });
    for (const s of skipped) result.skipped.push({ text: s.text, reason: s.reason });
  }

  // duplicates: within the turn, then against the store
  const fresh: Candidate[] = [];
  for (const c of candidates) {
    if (c.text === '') continue;
    if (fresh.length >= MAX_LEARNED) {
      result.skipped.push({ text: c.text, reason: `over ${MAX_LEARNED} facts in one turn` });
      continue;
    }
    const twin = fresh.find((f) => restates(c.text, f.text));
    if (twin) {
      result.skipped.push({ text: c.text, reason: 'duplicate of another fact of this turn' });
      continue;
    }
    const held = (await nearest(engine, c.text, NEAR)).find((m) => restates(c.text, m.text));
    if (held) result.skipped.push({ text: c.text, reason: `already stored as ${held.id}` });
    else fresh.push(c);
  }
  if (fresh.length === 0) return result;

  const meta: Record<string, MetaValue> = {
    source: LEARN_SOURCE,
    ...(conversation === undefined ? {} : { conversation }),
    ...(input.turn === undefined ? {} : { turn: input.turn }),
    ...(speaker === undefined ? {} : { [SPEAKER_META_KEY]: speaker }),
  };
  // one transaction: the facts, the app's confirmed supersessions, those the write path finds
  const ids = await engine.rememberMany(
    fresh.map((c) => ({
      text: c.text,
      meta,
      ...(input.tags === undefined ? {} : { tags: input.tags }),
      ...(c.replaces === undefined
        ? {}
        : { links: [{ to: c.replaces, kind: SUPERSEDES, weight: 1 }] }),
    })),
  );
  for (const [i, c] of fresh.entries()) {
    const id = ids[i]!;
    result.stored.push({ id, text: c.text, kind: c.kind });
    for (const entry of await engine.history(id))
      if (entry.supersededBy?.id === id)
        result.updated.push({ id, text: c.text, replaces: entry.id });
  }
  return result;
}
