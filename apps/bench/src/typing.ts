/**
 * The typing simulation of `bench:quality`: each question entered one character at a time, as a
 * search box sends it (`typing: true`, the last word still a prefix), and the reciprocal rank of
 * its first target after every keystroke. A search box is judged by what it shows while the
 * words are still coming: how soon the target rises to the top, and whether it stays there.
 */
import { createEngine, type Embedder, type EngineOptions } from '@anamnesis/engine';
import type { Conversation } from './locomo.ts';
import { oramaAsk } from './orama.ts';

/** What the simulation measured on one corpus line. */
export interface TypingReport {
  /** Questions typed. */
  questions: number;
  /** Keystrokes (recalls) in all. */
  keystrokes: number;
  /** Mean reciprocal rank of the target over every keystroke of every question (k results). */
  mrr: number;
  /** Mean reciprocal rank at a quarter, half, three quarters and all of each question typed. */
  at: { quarter: number; half: number; threeQuarters: number; whole: number };
  /** Share of keystrokes after which the target is first. */
  first: number;
}

/** A store of one conversation's memories: what it answers to a partly typed question. */
interface TypedStore {
  ask: (typed: string) => Promise<readonly string[]>;
  close: () => Promise<void>;
}

/**
 * Types every question of the conversations into a store of their memories (`open`), one
 * character at a time, and scores the target's rank after each character.
 */
async function typeQuestions(
  conversations: readonly Conversation[],
  open: (conv: Conversation) => Promise<TypedStore>,
): Promise<TypingReport> {
  let keystrokes = 0;
  let rrSum = 0;
  let firsts = 0;
  let questions = 0;
  const at = { quarter: 0, half: 0, threeQuarters: 0, whole: 0 };
  for (const conv of conversations) {
    const store = await open(conv);
    try {
      for (const q of conv.questions) {
        questions++;
        const rr: number[] = [];
        for (let n = 1; n <= q.text.length; n++) {
          const typed = q.text.slice(0, n);
          const results = typed.trim() === '' ? [] : await store.ask(typed);
          const rank = results.findIndex((id) => q.evidence.includes(id)) + 1;
          rr.push(rank > 0 ? 1 / rank : 0);
          if (rank === 1) firsts++;
        }
        keystrokes += rr.length;
        rrSum += rr.reduce((a, b) => a + b, 0);
        const point = (share: number) => rr[Math.max(0, Math.ceil(share * rr.length) - 1)]!;
        at.quarter += point(0.25);
        at.half += point(0.5);
        at.threeQuarters += point(0.75);
        at.whole += point(1);
      }
    } finally {
      await store.close();
    }
  }
  const per = (x: number) => (questions > 0 ? x / questions : 0);
  return {
    questions,
    keystrokes,
    mrr: keystrokes > 0 ? rrSum / keystrokes : 0,
    at: {
      quarter: per(at.quarter),
      half: per(at.half),
      threeQuarters: per(at.threeQuarters),
      whole: per(at.whole),
    },
    first: keystrokes > 0 ? firsts / keystrokes : 0,
  };
}

/**
 * Types every question of the conversations into an engine holding their memories, one
 * character at a time, and scores the target's rank after each character.
 */
export async function runTyping(
  conversations: readonly Conversation[],
  options: {
    embedder: EngineOptions['embedder'];
    k?: number;
    profile?: string;
    /** Recall's `typing` option; default true (false: the last word is read as a whole word). */
    typing?: boolean;
  },
): Promise<TypingReport> {
  return typeQuestions(conversations, async (conv) => {
    const engine = await createEngine({
      storage: 'memory',
      embedder: options.embedder,
      now: () => conv.askedAt,
    });
    try {
      await engine.rememberMany(conv.memories);
    } catch (e) {
      await engine.close();
      throw e;
    }
    return {
      ask: async (typed) =>
        (
          await engine.recall(typed, {
            typing: options.typing ?? true,
            topK: options.k ?? 10,
            minMatch: 0,
            noCache: true,
            ...(options.profile ? { profile: options.profile } : {}),
          })
        ).map((r) => r.id),
      close: () => engine.close(),
    };
  });
}

/**
 * The same keystrokes through Orama (issue 42): hybrid search on the same embeddings with typo
 * tolerance 1 (and its prefix matching, always on), English tokenizer.
 */
export async function runTypingOrama(
  conversations: readonly Conversation[],
  options: { embedder: Embedder; k?: number },
): Promise<TypingReport> {
  return typeQuestions(conversations, async (conv) => ({
    ask: await oramaAsk(conv.memories, options.embedder, { tolerance: 1, k: options.k ?? 10 }),
    close: async () => {},
  }));
}
