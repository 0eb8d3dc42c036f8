import { getProfile, PROFILES, type ScoringProfile } from '@anamnesis/ranking';

/**
 * The `default` profile: RRF (k = 60) over the lexical, vector and graph legs, with the stored
 * signals (importance, usage) as light extra legs, no recency multiplier. Chosen on LoCoMo dev data
 * with `bench:locomo` (see the README for the numbers).
 */
export const DEFAULT_PROFILE: ScoringProfile = Object.freeze({
  name: 'default',
  description: 'anamnesis: weighted RRF over fts, vector and graph legs, tuned on LoCoMo dev data',
  legs: ['fts', 'vector', 'graph'],
  fusion: {
    kind: 'rrf',
    k: 60,
    weights: { fts: 1, vector: 1, graph: 0.3 },
    defaultWeight: 1,
    absent: 'skip',
    memoryScoreWeight: 0,
  },
  recency: { kind: 'none' },
  recencyMode: 'neutral',
  minSimilarity: -1,
  mmr: null,
  pool: { perLegFactor: 3, minPerLeg: 60 },
} satisfies ScoringProfile);

/** Every profile recall accepts: the seeds' and `default`. */
export const ENGINE_PROFILES: Readonly<Record<string, ScoringProfile>> = Object.freeze({
  ...PROFILES,
  default: DEFAULT_PROFILE,
});

/** Looks a profile up by name (`INVALID_INPUT` for an unknown one). */
export function resolveProfile(name: string): ScoringProfile {
  return getProfile(name, { default: DEFAULT_PROFILE });
}
