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
