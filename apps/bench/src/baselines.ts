import { DEFAULT_PROFILE } from '@anamnesis/engine';
import type { ScoringProfile } from '@anamnesis/ranking';

const single = (name: string, leg: 'fts' | 'vector'): ScoringProfile => ({
  ...DEFAULT_PROFILE,
  name,
  description: `baseline: the ${leg} leg alone`,
  legs: [leg],
  fusion: {
    kind: 'rrf',
    k: 60,
    weights: {},
    defaultWeight: 1,
    absent: 'skip',
    memoryScoreWeight: 0,
  },
  mmr: null,
  context: null,
  speaker: null,
  priors: null,
});

/** Single-leg baselines run through the same engine: FTS5 BM25 alone and vector alone. */
export const BASELINES: Readonly<Record<string, ScoringProfile>> = {
  bm25: single('bm25', 'fts'),
  vector: single('vector', 'vector'),
};
