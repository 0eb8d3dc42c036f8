/**
 * The current-facts part of `bench:quality` (issue 70): the suite of `apps/bench/current/` (one
 * person's notes over two years, facts that changed among others' facts and unrelated notes),
 * written one note at a time in the order they were made, as a person writes them. Reports, per
 * split, the share of questions whose first result is the current fact, the share where it is
 * weak (an app would hide it), the share where an older fact it replaced ranks above it; and, over
 * the whole store, the supersessions the engine found against those a careful reader makes:
 * precision (a wrong one hides a fact that is still true) and recall.
 */
import { createEngine, type EngineOptions } from '@anamnesis/engine';
import { CASES } from '../current/cases.ts';
import { EXTRACTION } from '../current/extraction.ts';
import { ASKED_AT, MEMORIES, SUPERSESSIONS } from '../current/memories.ts';
import type { Split } from './quality-corpora.ts';

/** The suite's scores on one split. */
export interface CurrentReport {
  split: Split;
  questions: number;
  /** Share with the current fact first. */
  currentFirst: number;
  /** Share whose current fact, found in the first k, was marked weak. */
  weak: number;
  /** Share where an older fact it replaced ranked above the current one. */
  oldAbove: number;
  /** The engine's supersessions (whole store): how many, and against the expected ones. */
  supersessions: {
    found: number;
    expected: number;
    precision: number;
    recall: number;
    wrong: string[];
  };
}

/** Runs the suite's `split` on the default profile and options. */
export async function runCurrentFacts(
  split: Split,
  embedder: EngineOptions['embedder'],
  k = 10,
): Promise<CurrentReport> {
  const engine = await createEngine({ storage: 'memory', embedder, now: () => ASKED_AT });
  try {
    const inOrder = [...MEMORIES].sort((a, b) => Number(a.createdAt) - Number(b.createdAt));
    for (const m of inOrder) await engine.remember(m);
    const cases = CASES.filter((c) => c.split === split);
    let first = 0;
    let weak = 0;
    let oldAbove = 0;
    for (const c of cases) {
      const rs = await engine.recall(c.query, { topK: k, noCache: true });
      const at = rs.findIndex((r) => r.id === c.current);
      if (at === 0) first++;
      if (at >= 0 && rs[at]!.weak) weak++;
      if (
        c.old.some((o) => {
          const i = rs.findIndex((r) => r.id === o);
          return i >= 0 && (at < 0 || i < at);
        })
      )
        oldAbove++;
    }
    const found: string[] = [];
    for (const line of (await engine.export()).split('\n')) {
      if (!line) continue;
      const m = JSON.parse(line) as { id: string; links?: { to: string; kind: string }[] };
      for (const l of m.links ?? []) if (l.kind === 'supersedes') found.push(`${m.id}>${l.to}`);
    }
    const expected = new Set(SUPERSESSIONS.map(([n, o]) => `${n}>${o}`));
    const right = found.filter((f) => expected.has(f)).length;
    return {
      split,
      questions: cases.length,
      currentFirst: first / cases.length,
      weak: weak / cases.length,
      oldAbove: oldAbove / cases.length,
      supersessions: {
        found: found.length,
        expected: expected.size,
        precision: found.length === 0 ? 1 : right / found.length,
        recall: right / expected.size,
        wrong: found.filter((f) => !expected.has(f)),
      },
    };
  } finally {
    await engine.close();
  }
}

/** `learn` against the extraction set's facts, on one split. */
export interface ExtractionReport {
  split: Split;
  turns: number;
  /** Facts a careful reader keeps, and facts `learn` stored. */
  expected: number;
  stored: number;
  /** Stored facts that hold one of the expected facts. */
  precision: number;
  /** Expected facts that were stored. */
  recall: number;
  /** Stored texts that match no expected fact, and expected facts not stored (their words). */
  wrong: string[];
  missed: string[];
}

/** Whether a stored text holds every word of an expected fact (any case). */
const holds = (text: string, words: readonly string[]) =>
  words.every((w) => text.toLowerCase().includes(w.toLowerCase()));

/**
 * Runs `learn` on each turn of the extraction set's `split`, each on a store of its own (its
 * extraction alone is measured), and scores what it stored against the facts a careful reader
 * keeps.
 */
export async function runExtraction(
  split: Split,
  embedder: EngineOptions['embedder'],
): Promise<ExtractionReport> {
  const turns = EXTRACTION.filter((t) => t.heldOut === (split === 'held-out'));
  let expected = 0;
  let stored = 0;
  let right = 0;
  let found = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const turn of turns) {
    const engine = await createEngine({ storage: 'memory', embedder });
    try {
      const result = await engine.learn({
        userMessage: turn.user,
        ...(turn.assistant === undefined ? {} : { assistantMessage: turn.assistant }),
      });
      const texts = result.stored.map((f) => f.text);
      // a stored memory is right when it holds an expected fact (one memory may hold two: "I live
      // in Ghent with my partner Jonas"); an expected fact is found when a stored memory holds it
      for (const text of texts) {
        if (turn.facts.some((words) => holds(text, words))) right++;
        else wrong.push(`${turn.id}: ${text}`);
      }
      for (const words of turn.facts) {
        if (texts.some((text) => holds(text, words))) found++;
        else missed.push(`${turn.id}: ${words.join(' ')}`);
      }
      expected += turn.facts.length;
      stored += texts.length;
    } finally {
      await engine.close();
    }
  }
  return {
    split,
    turns: turns.length,
    expected,
    stored,
    precision: stored === 0 ? 1 : right / stored,
    recall: expected === 0 ? 1 : found / expected,
    wrong,
    missed,
  };
}
