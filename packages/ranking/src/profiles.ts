import type { ContextWeights } from './context.ts';
import type { Priors } from './priors.ts';
import { AnamnesisError } from '@anamnesis/errors';
import { candidatePool, MEMSENSE_MEMORY_SCORE_WEIGHT, MEMSENSE_RRF_K } from './memsense.ts';
import { MNEMEXA_MIN_SIMILARITY, MNEMEXA_WEIGHTS, type RecencyMode } from './mnemexa.ts';
import { MNEMOSYNE_WEIGHTS } from './weighted-sum.ts';

/** The retrieval legs the engine knows how to run. Caller-supplied lists add their own labels. */
export type LegName =
  | 'fts'
  | 'vector'
  | 'graph'
  | 'importance'
  | 'recency'
  | 'usage'
  /** Memories created on a day or in a month the query names, by cosine (empty otherwise). */
  | 'date'
  /** BM25 over the model's nearest words to the query's words (empty without such a model). */
  | 'expansion';

/** The per-memory factors a linear fusion can weigh, each normalised to [0, 1]. */
export type Factor = 'similarity' | 'fts' | 'importance' | 'recency' | 'frequency';

/** A linear fusion over normalised factors (seeds 000 and 004). */
export interface LinearFusion {
  /** Discriminant. */
  kind: 'linear';
  /** Weight of each factor. */
  weights: Readonly<Partial<Record<Factor, number>>>;
}

/** A reciprocal-rank fusion over legs (seeds 001, 002 and 003). */
export interface RrfFusion {
  /** Discriminant. */
  kind: 'rrf';
  /** Rank damping constant. */
  k: number;
  /** Per-leg weights; legs not named weigh `defaultWeight`. */
  weights: Readonly<Record<string, number>>;
  /** Weight of legs not named in `weights` (caller lists, graph). */
  defaultWeight: number;
  /** Absent items: no contribution, or seed 002's penalty rank. */
  absent: 'skip' | 'penalty';
  /** Weight of the stored memory score added after fusion (Memsense: 0.1). */
  memoryScoreWeight: number;
}

/** How recency enters a profile. */
export type RecencySpec =
  /** No recency. */
  | { kind: 'none' }
  /** Seed 000: score × (0.7 + 0.3·exp(−age_h / halfLifeHours)). */
  | { kind: 'multiplier'; halfLifeHours: number }
  /** Seed 004: a factor `2^(−age_h / halfLifeHours)` inside a linear fusion. */
  | { kind: 'factor'; halfLifeHours: number };

/** A named scoring profile: data, not code. The engine runs `legs`, then fuses per `fusion`. */
export interface ScoringProfile {
  /** The profile's name (what `recall`'s `profile` option names; a custom one names itself). */
  readonly name: string;
  /** One line on where the profile comes from. */
  readonly description: string;
  /** Legs the engine runs for this profile (caller lists and graph seeds are always added). */
  readonly legs: readonly LegName[];
  /** How the legs' lists become one score. */
  readonly fusion: LinearFusion | RrfFusion;
  /** How a memory's age enters the score. */
  readonly recency: RecencySpec;
  /** Seed 004's recency mode, for linear fusions with a recency factor. */
  readonly recencyMode: RecencyMode;
  /** Candidates with cosine below this are dropped after fusion; `-1` keeps all. */
  readonly minSimilarity: number;
  /** MMR settings, or `null` for none. */
  readonly mmr: {
    /** Relevance against diversity, in [0, 1] (1: relevance only). */
    lambda: number;
    /** Similarity at or above which a candidate is dropped as a duplicate. Default: none. */
    duplicateThreshold?: number;
    /** Weight of tag Jaccard in `redundancy = max(cosine, tagWeight · jaccard)`. */
    tagWeight: number;
  } | null;
  /** Candidate pool: seed 001's sizing, or a fixed multiple of topK per leg. */
  readonly pool:
    | 'memsense'
    | {
        /** Candidates per leg: this many times `topK`… */
        perLegFactor: number;
        /** …and at least this many. */
        minPerLeg: number;
      };
  /**
   * Conversation context after fusion (see `contextScores`): shares of the session neighbours'
   * and the session's best fused scores; the first `head` candidates look up their neighbours.
   * Absent or `null`: none (every seed profile).
   */
  readonly context?: (ContextWeights & { head: number }) | null;
  /**
   * Speaker focus after context (see `SPEAKER_META_KEY`): a memory whose app-given speaker
   * (`meta.speaker`) the query names gains this share of its own score. Absent, `null` or 0: none
   * (every seed profile).
   */
  readonly speaker?: number | null;
  /**
   * Recency, importance and usage as a gentle multiplier on each fused score, before dedup,
   * context and speaker focus (see {@link Priors}). Absent or `null`: none (every seed profile).
   */
  readonly priors?: Priors | null;
  /**
   * The lexical leg's ranks weighed by evidence (RRF fusions): a memory holding a share `c` of the
   * query (its words weighted by their rarity in the store) counts `min(1, c / full)^exponent` of
   * its rank's worth, so a memory that shares only a common word of the query cannot outrank one
   * that matches it by meaning. Absent or `null`: ranks alone (every seed profile).
   */
  readonly lexicalEvidence?: {
    /** The share of the query at and above which a rank counts in full, in (0, 1]. */
    full: number;
    /** How steeply a smaller share counts less (0: not at all). */
    exponent: number;
    /**
     * A rank also counts `(score / best)^margin` of itself, its BM25 score against the leg's best,
     * so that a clear lexical lead is not undone by the other legs (0 or absent: not at all).
     */
    margin?: number;
  } | null;
  /**
   * Current facts first, after whole matches (the engine's `supersession-signal.ts`): a candidate a
   * newer memory supersedes (a `supersedes` link) gives its place to the newest of its
   * successors, unless the query asks about the past. Absent, `null` or false: none (every seed
   * profile).
   */
  readonly supersession?: boolean | null;
  /**
   * Whole matches first, after context and speaker focus (see `wholeFirst`): of a query of two
   * or more parts, among the first `head` candidates, a memory holding every part ranks above
   * those holding some, unless their meaning strength exceeds the best whole one's by `margin`.
   * Absent or `null`: none (every seed profile).
   */
  readonly wholeFirst?: {
    /** Candidates reordered, from the first. */
    head: number;
    /** Meaning strength, in [0, 1], by which a partial match must lead the best whole one to keep its place. */
    margin: number;
  } | null;
}

const DEFAULT_POOL = { perLegFactor: 3, minPerLeg: 60 } as const;
/** Mnemosyne publishes no half-life; 30 days is our choice for its recency multiplier. */
const MNEMOSYNE_HALF_LIFE_HOURS = 24 * 30;
/** Seed 004's example (0.95 at 7 days, 0.30 at six months) fits a half-life of about 100 days. */
const MNEMEXA_HALF_LIFE_HOURS = 24 * 100;

/** The profiles that reproduce the seeds. `default` is added by the engine from measurement. */
export const PROFILES: Readonly<Record<string, ScoringProfile>> = Object.freeze({
  mnemosyne: {
    name: 'mnemosyne',
    description: 'Seed 000: 0.5·cosine + 0.3·bm25/max + 0.2·importance, × (0.7 + 0.3·exp(−age/τ))',
    legs: ['vector', 'fts'],
    fusion: {
      kind: 'linear',
      weights: {
        similarity: MNEMOSYNE_WEIGHTS.vector,
        fts: MNEMOSYNE_WEIGHTS.fts,
        importance: MNEMOSYNE_WEIGHTS.importance,
      },
    },
    recency: { kind: 'multiplier', halfLifeHours: MNEMOSYNE_HALF_LIFE_HOURS },
    recencyMode: 'neutral',
    minSimilarity: -1,
    mmr: null,
    pool: DEFAULT_POOL,
  },
  'mnemosyne-rrf': {
    name: 'mnemosyne-rrf',
    description: 'Seed 002: Σ w/(60 + rank), bm25 0.4, vector 0.4, usage 0.2, absent ⇒ len + 1',
    legs: ['fts', 'vector', 'usage'],
    fusion: {
      kind: 'rrf',
      k: 60,
      weights: { fts: 0.4, vector: 0.4, usage: 0.2 },
      defaultWeight: 0.4,
      absent: 'penalty',
      memoryScoreWeight: 0,
    },
    recency: { kind: 'none' },
    recencyMode: 'neutral',
    minSimilarity: -1,
    mmr: null,
    pool: DEFAULT_POOL,
  },
  memsense: {
    name: 'memsense',
    description: 'Seed 001: Σ 1/(15 + rank) + 0.1·memory_score, MMR λ 0.78, duplicates ≥ 0.94',
    legs: ['vector', 'fts'],
    fusion: {
      kind: 'rrf',
      k: MEMSENSE_RRF_K,
      weights: {},
      defaultWeight: 1,
      absent: 'skip',
      memoryScoreWeight: MEMSENSE_MEMORY_SCORE_WEIGHT,
    },
    recency: { kind: 'none' },
    recencyMode: 'neutral',
    minSimilarity: -1,
    mmr: { lambda: 0.78, duplicateThreshold: 0.94, tagWeight: 0.35 },
    pool: 'memsense',
  },
  mnestic: {
    name: 'mnestic',
    description: 'Seed 003: Σ 1/(60 + rank) over vector, fts and graph legs; MMR optional (λ 0.5)',
    legs: ['vector', 'fts', 'graph'],
    fusion: {
      kind: 'rrf',
      k: 60,
      weights: {},
      defaultWeight: 1,
      absent: 'skip',
      memoryScoreWeight: 0,
    },
    recency: { kind: 'none' },
    recencyMode: 'neutral',
    minSimilarity: -1,
    mmr: null,
    pool: DEFAULT_POOL,
  },
  mnemexa: {
    name: 'mnemexa',
    description:
      'Seed 004: 0.55·similarity + 0.20·recency + 0.15·importance + 0.10·frequency, cosine ≥ 0.35',
    legs: ['vector'],
    fusion: { kind: 'linear', weights: { ...MNEMEXA_WEIGHTS } },
    recency: { kind: 'factor', halfLifeHours: MNEMEXA_HALF_LIFE_HOURS },
    recencyMode: 'neutral',
    minSimilarity: MNEMEXA_MIN_SIMILARITY,
    mmr: null,
    pool: DEFAULT_POOL,
  },
} satisfies Record<string, ScoringProfile>);

/** Looks a profile up by name; an unknown name is `INVALID_INPUT` listing the known ones. */
export function getProfile(
  name: string,
  extra: Readonly<Record<string, ScoringProfile>> = {},
): ScoringProfile {
  const all = { ...PROFILES, ...extra };
  if (typeof name !== 'string' || !Object.hasOwn(all, name)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `unknown profile ${JSON.stringify(name)}; known: ${Object.keys(all).join(', ')}`,
    );
  }
  return all[name]!;
}

/** How many candidates each leg fetches, and how many survive to the rerank, for a topK. */
export function poolSize(
  profile: ScoringProfile,
  topK: number,
): { perLeg: number; beforeRerank: number } {
  if (!Number.isInteger(topK) || topK < 1)
    throw new AnamnesisError('INVALID_INPUT', 'topK must be a positive integer');
  if (profile.pool === 'memsense') {
    const { perRoute, beforeRerank } = candidatePool(topK);
    return { perLeg: perRoute, beforeRerank };
  }
  const perLeg = Math.max(topK * profile.pool.perLegFactor, profile.pool.minPerLeg);
  return { perLeg, beforeRerank: perLeg };
}
