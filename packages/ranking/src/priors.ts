import { halfLifeDecay } from './decay.ts';
import {
  bestLegRank,
  compareFused,
  sumContributions,
  type ScoredCandidate,
} from './ranked-list.ts';
import type { Contribution } from './weighted-sum.ts';

/**
 * The `default` profile's gentle priors, applied to each fused score as a multiplier
 * `1 + recency·2^(−age/halfLife) + importance·(2·imp − 1) + usage·(1 − 2^(−u))`, where `u` is the
 * memory's decayed `selected`/`used` events (seed 002's usage decay, half-life 7 days). Among
 * comparable matches the newer, the more important and the more used come first; a much better
 * match is not overtaken, since each prior moves a score by at most its weight's share.
 */
export interface Priors {
  /** Share of its score a memory created now gains; half of it at one half-life. */
  readonly recency: number;
  /** Recency half-life, in days (> 0). */
  readonly halfLifeDays: number;
  /** Share of its score a memory of importance 1 gains and one of importance 0 loses (0.5: none). */
  readonly importance: number;
  /** Share of its score a memory gains as its uses approach many (one fresh use: half of it). */
  readonly usage: number;
}

/** What the priors read of a candidate. */
export interface PriorFeatures {
  /** Hours since the memory was created (≥ 0; negative counts as 0). */
  ageHours: number;
  /** Stored importance in [0, 1]. */
  importance: number;
  /** Decayed `selected`/`used` events (≥ 0), as `usageDecay` gives them. */
  usage: number;
}

/**
 * The contributions the priors add to a candidate whose fused score is `base`: each is
 * `weight · value` with `weight = prior · base`, so the score stays their exact sum. Recency is
 * always explained (when its weight is not 0); importance and usage only when they move the score.
 */
export function priorContributions(base: number, f: PriorFeatures, priors: Priors): Contribution[] {
  const out: Contribution[] = [];
  const add = (component: string, share: number, value: number) => {
    const weight = share * base;
    out.push({ component, value, weight, contribution: weight * value });
  };
  if (priors.recency !== 0)
    add('recency', priors.recency, halfLifeDecay(f.ageHours / 24, priors.halfLifeDays));
  const importance = 2 * f.importance - 1;
  if (priors.importance !== 0 && importance !== 0) add('importance', priors.importance, importance);
  const usage = 1 - Math.pow(2, -Math.max(0, f.usage));
  if (priors.usage !== 0 && usage !== 0) add('usage', priors.usage, usage);
  return out;
}

/**
 * Applies the priors to fused candidates (best first in, best first out): each score gains its
 * {@link priorContributions}; candidates without features are kept as they are. Ties keep the
 * fused order's rule (best leg rank, then id).
 */
export function applyPriors(
  scored: readonly ScoredCandidate[],
  features: ReadonlyMap<string, PriorFeatures>,
  priors: Priors,
): ScoredCandidate[] {
  const out = scored.map((c) => {
    const f = features.get(c.id);
    const bestRank = bestLegRank(c.legs);
    if (!f || c.score <= 0) return { id: c.id, score: c.score, bestRank, c };
    const contributions = [...c.contributions, ...priorContributions(c.score, f, priors)];
    const score = sumContributions(contributions);
    return { id: c.id, score, bestRank, c: { ...c, contributions, score } };
  });
  out.sort(compareFused);
  return out.map((x) => x.c);
}
