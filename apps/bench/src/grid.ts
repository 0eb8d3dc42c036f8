import { DEFAULT_PROFILE } from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';
import type { Metrics, Report } from './locomo.ts';

type Context = ScoringProfile['context'];

/** A variant of `default`: RRF constant, vector and date weights, conversation context, speaker. */
export function variant(
  k: number,
  vector: number,
  date: number,
  context: Context,
  speaker = 0,
): ScoringProfile {
  const c = context ? `ctx ${context.neighbor}/${context.near}/${context.session}` : 'no ctx';
  return {
    ...DEFAULT_PROFILE,
    name: `k${k} v${vector} d${date} ${c} s${speaker}`,
    legs: ['fts', 'vector', 'graph', 'date'],
    fusion: {
      kind: 'rrf',
      k,
      weights: { fts: 1, vector, graph: 0.3, date },
      defaultWeight: 1,
      absent: 'skip',
      memoryScoreWeight: 0,
    },
    context,
    speaker,
  };
}

/**
 * The grid `default` is chosen from (and the 3-fold cross-validation chooses from): RRF k, the
 * vector and date legs' weights, the context weights (neighbour / two away / session, head 10) and
 * the speaker focus weight: 2 · 3 · 2 · 3 · 3 = 108 variants.
 */
export function defaultGrid(): Record<string, ScoringProfile> {
  const contexts: Context[] = [
    null,
    { head: 10, neighbor: 0.3, near: 0.1, session: 0.3 },
    { head: 10, neighbor: 0.4, near: 0.15, session: 0.25 },
  ];
  const grid: Record<string, ScoringProfile> = {};
  for (const k of [5, 10])
    for (const vector of [0.5, 0.7, 1])
      for (const date of [0, 1])
        for (const context of contexts)
          for (const speaker of [0, 0.5, 1]) {
            const p = variant(k, vector, date, context, speaker);
            grid[p.name] = p;
          }
  return grid;
}

/** Question-weighted union of reports (overall and per category). */
export function combine(reports: readonly Report[]): Report {
  const sum = (ms: readonly Metrics[]): Metrics => {
    const questions = ms.reduce((n, m) => n + m.questions, 0);
    const avg = (f: (m: Metrics) => number) =>
      questions ? ms.reduce((s, m) => s + f(m) * m.questions, 0) / questions : 0;
    return {
      questions,
      recall: avg((m) => m.recall),
      mrr: avg((m) => m.mrr),
      ndcg10: avg((m) => m.ndcg10),
    };
  };
  const cats = [...new Set(reports.flatMap((r) => Object.keys(r.byCategory)))].sort();
  return {
    ...sum(reports),
    byCategory: Object.fromEntries(
      cats.map((c) => [c, sum(reports.flatMap((r) => (r.byCategory[c] ? [r.byCategory[c]] : [])))]),
    ),
  };
}

/** One fold of the cross-validation: chosen on the other conversations, measured on this one. */
export interface Fold {
  heldOut: string;
  chosen: string;
  train: number;
  test: Report;
  /** The shipped `default` on the held-out conversation, for comparison. */
  defaultTest: Report;
}

/**
 * Leave-one-conversation-out cross-validation: for each conversation, the variant with the best
 * question-weighted recall@k on the others is chosen and measured on it.
 */
export function crossValidate(
  perConversation: ReadonlyMap<string, Readonly<Record<string, Report>>>,
  defaultName: string,
): { folds: Fold[]; pooled: Report; defaultPooled: Report } {
  const ids = [...perConversation.keys()];
  const names = Object.keys(perConversation.get(ids[0]!)!);
  const folds = ids.map((heldOut) => {
    const train = ids.filter((id) => id !== heldOut);
    let chosen = names[0]!;
    let best = -Infinity;
    for (const name of names) {
      const r = combine(train.map((id) => perConversation.get(id)![name]!)).recall;
      if (r > best + 1e-12) {
        best = r;
        chosen = name;
      }
    }
    const held = perConversation.get(heldOut)!;
    return {
      heldOut,
      chosen,
      train: best,
      test: held[chosen]!,
      defaultTest: held[defaultName]!,
    };
  });
  return {
    folds,
    pooled: combine(folds.map((f) => f.test)),
    defaultPooled: combine(folds.map((f) => f.defaultTest)),
  };
}
