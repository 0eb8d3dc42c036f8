import { normalizeBm25 } from './bm25.ts';
import { halfLifeDecay, recencyMultiplier } from './decay.ts';
import { AnamnesisError, assertFinite } from '@anamnesis/errors';
import { frequencyFactor, mnemexaWeights, similarityFactor } from './mnemexa.ts';
import type { Factor, ScoringProfile } from './profiles.ts';
import {
  compareFused,
  indexList,
  sumContributions as sum,
  type LegHit,
  type RankedList,
  type ScoredCandidate,
} from './ranked-list.ts';

export type { LegHit, ScoredCandidate };
import type { Contribution } from './weighted-sum.ts';

/** What the engine knows about each candidate, beyond the legs' ranks. */
export interface CandidateFeatures {
  /** Cosine between query and memory vectors in [-1, 1] (0 when either has no vector). */
  similarity: number;
  /** Stored importance in [0, 1]. */
  importance: number;
  /** Hours since the memory was created or last accessed (≥ 0). */
  ageHours: number;
  /** How often the memory was retrieved. */
  accessCount: number;
  /** Stored quality score in [0, 1] (Memsense's memory_score). */
  memoryScore: number;
}

/** The features every candidate must have, each a finite number. */
const FEATURE_KEYS = [
  'similarity',
  'importance',
  'ageHours',
  'accessCount',
  'memoryScore',
] as const;

/**
 * Fuses the legs' ranked lists by a profile into scored candidates, best first. Candidates are the
 * union of the lists' ids; every candidate needs features. Linear profiles weigh normalised factors
 * (FTS is BM25 magnitude over the FTS leg, 0 when absent); RRF profiles sum `w·e/(k + rank)` per leg (`e` the item's evidence, 1 when the leg gives none)
 * and add `memoryScoreWeight · memoryScore`. A recency multiplier enters as its own contribution,
 * `base · (m − 1)`, so contributions always add up to the score exactly.
 */
export function fuse(
  profile: ScoringProfile,
  lists: readonly RankedList[],
  features: ReadonlyMap<string, CandidateFeatures>,
): ScoredCandidate[] {
  const indexed = lists.map(indexList);
  const ids = new Set<string>();
  for (const l of indexed) for (const id of l.ranks.keys()) ids.add(id);

  const fts = indexed.find((l) => l.leg === 'fts');
  const ftsNorm = new Map<string, number>();
  if (fts) {
    const entries = [...fts.ranks];
    const norm = normalizeBm25(entries.map(([, v]) => v.score));
    entries.forEach(([id], i) => ftsNorm.set(id, norm[i]!));
  }

  // Sorted by `compareFused` on the entries' own fields, then unwrapped.
  const out: { id: string; score: number; bestRank: number; c: ScoredCandidate }[] = [];
  for (const id of ids) {
    const f = features.get(id);
    if (!f) throw new AnamnesisError('INTERNAL', `no features for candidate ${id}`);
    for (const key of FEATURE_KEYS) assertFinite(f[key], `${key} of ${id}`);
    const legs: LegHit[] = [];
    let bestRank = Infinity;
    for (const l of indexed) {
      const hit = l.ranks.get(id);
      if (hit) {
        legs.push({
          leg: l.leg,
          rank: hit.rank,
          score: hit.score,
          ...(hit.evidence !== undefined ? { evidence: hit.evidence } : {}),
        });
        bestRank = Math.min(bestRank, hit.rank);
      }
    }
    const contributions: Contribution[] = [];
    if (profile.fusion.kind === 'linear') {
      const w =
        profile.recency.kind === 'factor'
          ? { ...profile.fusion.weights, ...mnemexaWeights(profile.recencyMode) }
          : profile.fusion.weights;
      const factor: Record<Factor, () => number> = {
        similarity: () => similarityFactor(f.similarity),
        fts: () => ftsNorm.get(id) ?? 0,
        importance: () => f.importance,
        recency: () =>
          profile.recency.kind === 'none'
            ? 0
            : halfLifeDecay(f.ageHours, profile.recency.halfLifeHours),
        frequency: () => frequencyFactor(f.accessCount),
      };
      for (const name of Object.keys(w) as Factor[]) {
        const weight = w[name]!;
        const value = factor[name]();
        contributions.push({ component: name, value, weight, contribution: weight * value });
      }
    } else {
      const { k, weights, defaultWeight, memoryScoreWeight, absent } = profile.fusion;
      for (const l of indexed) {
        const weight = Object.hasOwn(weights, l.leg) ? weights[l.leg]! : defaultWeight;
        const hit = l.ranks.get(id);
        const rank = hit ? hit.rank : absent === 'penalty' ? l.length + 1 : 0;
        if (rank === 0) continue;
        const value = (hit?.evidence ?? 1) / (k + rank);
        contributions.push({
          component: `rrf:${l.leg}`,
          value,
          weight,
          contribution: weight * value,
        });
      }
      if (memoryScoreWeight !== 0) {
        contributions.push({
          component: 'memoryScore',
          value: f.memoryScore,
          weight: memoryScoreWeight,
          contribution: memoryScoreWeight * f.memoryScore,
        });
      }
    }
    if (profile.recency.kind === 'multiplier') {
      const base = sum(contributions);
      const m = recencyMultiplier(f.ageHours, profile.recency.halfLifeHours);
      contributions.push({
        component: 'recency',
        value: m,
        weight: base,
        contribution: base * (m - 1),
      });
    }
    const score = sum(contributions);
    out.push({
      id,
      score,
      bestRank,
      c: { id, score, similarity: f.similarity, legs, contributions },
    });
  }
  out.sort(compareFused);
  return out.map((e) => e.c);
}
