/**
 * One corpus line of `bench:quality` and `bench:heldout` scored by every ranker they compare:
 * `default`, BM25 alone (the engine's FTS leg), the tuned BM25 (`bm25.ts`), Orama hybrid
 * (`orama.ts`) and the zero-model TF-IDF backend with the default profile; and the line's 95%
 * bootstrap intervals (`bootstrap.ts`).
 */
import type { Embedder } from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';
import { BASELINES } from './baselines.ts';
import { runBm25, type Bm25Params } from './bm25.ts';
import { bootstrapMean, pairedBootstrap, type Interval } from './bootstrap.ts';
import { runLocomo, type Conversation, type Report } from './locomo.ts';
import { runOrama } from './orama.ts';
import type { OramaLanguage } from './orama-languages.ts';

/** The rankers each line's table shows, in order. */
export const SHOWN = ['default', 'bm25', 'bm25-tuned', 'orama-hybrid', 'tfidf-default'] as const;

/** Scores `conv` (one line) with every ranker of {@link SHOWN}, and `extra` engine profiles. */
export async function scoreLine(
  conv: Conversation[],
  options: {
    embedder: Embedder;
    k: number;
    language: OramaLanguage;
    bm25: Bm25Params;
    extra?: Record<string, ScoringProfile>;
  },
): Promise<Record<string, Report>> {
  const { embedder, k, language } = options;
  return {
    ...(await runLocomo(
      conv,
      { default: 'default', bm25: BASELINES.bm25!, ...options.extra },
      { embedder, k },
    )),
    'bm25-tuned': runBm25(conv, language, options.bm25, k),
    'orama-hybrid': (await runOrama(conv, embedder, k, { language }))['orama-hybrid'],
    ...(await runLocomo(conv, { 'tfidf-default': 'default' }, { embedder: 'tfidf', k })),
  };
}

/** A line's 95% bootstrap intervals (2,000 resamples of its questions, fixed seed). */
export interface LineIntervals {
  /** `default`'s recall@k. */
  recall: Interval;
  /** `default`'s MRR. */
  mrr: Interval;
  /** Paired: `default` − BM25 alone, recall@k. */
  recallVsBm25: Interval;
  /** Paired: `default` − BM25 alone, MRR. */
  mrrVsBm25: Interval;
}

/** The intervals of a line scored by {@link scoreLine}. */
export function lineIntervals(reports: Record<string, Report>): LineIntervals {
  const d = reports.default!.perQuestion!;
  const b = reports.bm25!.perQuestion!;
  return {
    recall: bootstrapMean(d.map((s) => s.recall)),
    mrr: bootstrapMean(d.map((s) => s.mrr)),
    recallVsBm25: pairedBootstrap(
      d.map((s) => s.recall),
      b.map((s) => s.recall),
    ),
    mrrVsBm25: pairedBootstrap(
      d.map((s) => s.mrr),
      b.map((s) => s.mrr),
    ),
  };
}
