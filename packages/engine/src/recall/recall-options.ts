import { AnamnesisError } from '@anamnesis/errors';
import { type ScoringProfile } from '@anamnesis/ranking';
import { IDENTIFIER } from '../input/filter.ts';
import { resolveProfile } from './profiles.ts';
import type { ExtraList, RecallOptions } from '../types.ts';

/** Legs the pipeline runs itself: an extra list may not take one of these labels. */
export const BUILT_IN_LEGS: readonly string[] = [
  'fts',
  'vector',
  'graph',
  'date',
  'expansion',
  'importance',
  'recency',
  'usage',
];

/** `RecallOptions.minMatch`'s default. */
export const DEFAULT_MIN_MATCH = 0.1;

const KNOWN_OPTIONS = new Set([
  'profile',
  'topK',
  'tokenBudget',
  'compress',
  'filter',
  'minSimilarity',
  'graph',
  'extraLists',
  'groupBy',
  'neighbors',
  'mmr',
  'recencyMode',
  'explain',
  'noCache',
  'typing',
  'minMatch',
]);

/** Recall options, checked and resolved against the profile: what the pipeline runs on. */
export interface RecallPlan {
  profile: ScoringProfile;
  topK: number;
  tokenBudget: number | undefined;
  /** Compress what does not fit the token budget (only with a budget). */
  compress: boolean;
  minSimilarity: number;
  neighbors: number;
  mmr: { lambda: number; duplicateThreshold?: number; tagWeight: number } | null;
  /** Graph seeds given by the caller (ids), or undefined for the legs' top hits. */
  graphSeeds: readonly string[] | undefined;
  maxHops: number;
  undirected: boolean;
  extraLists: readonly ExtraList[];
  /** The weights of the extra lists that set one, by label. */
  extraWeights: Readonly<Record<string, number>>;
  groupBySession: boolean;
  explain: boolean;
  /** The query is being typed: its last word is also a prefix. */
  typing: boolean;
  /** The match strength the best result needs for recall to answer (`RecallOptions.minMatch`). */
  minMatch: number;
}

const invalid = (message: string) => new AnamnesisError('INVALID_INPUT', message);

/**
 * Checks every recall option and resolves it against the profile; the pipeline validates nothing.
 * @throws AnamnesisError `INVALID_INPUT` naming the first option that is unknown or out of range.
 */
export function planRecall(options: RecallOptions): RecallPlan {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw invalid(`unknown recall option ${JSON.stringify(key)}`);
  }
  if (
    options.recencyMode !== undefined &&
    !['boost', 'dampen', 'neutral'].includes(options.recencyMode)
  ) {
    throw invalid("recencyMode must be 'boost', 'dampen' or 'neutral'");
  }
  const base = resolveProfile(options.profile ?? 'default');
  const profile: ScoringProfile = options.recencyMode
    ? { ...base, recencyMode: options.recencyMode }
    : base;
  const topK = options.topK ?? 10;
  if (!Number.isInteger(topK) || topK < 1 || topK > 1000)
    throw invalid('topK must be an integer in [1, 1000]');
  const tokenBudget = options.tokenBudget;
  if (tokenBudget !== undefined && (!Number.isFinite(tokenBudget) || tokenBudget < 1))
    throw invalid('tokenBudget must be a positive number of tokens');
  if (options.typing !== undefined && typeof options.typing !== 'boolean')
    throw invalid('typing must be a boolean');
  const minMatch = options.minMatch ?? DEFAULT_MIN_MATCH;
  if (typeof minMatch !== 'number' || !(minMatch >= 0 && minMatch <= 1))
    throw invalid('minMatch must be within [0, 1]');
  const compress = options.compress ?? false;
  if (typeof compress !== 'boolean') throw invalid('compress must be a boolean');
  if (compress && tokenBudget === undefined)
    throw invalid('compress needs a tokenBudget: it shrinks what does not fit the budget');
  const minSimilarity = options.minSimilarity ?? profile.minSimilarity;
  if (
    typeof minSimilarity !== 'number' ||
    !Number.isFinite(minSimilarity) ||
    minSimilarity < -1 ||
    minSimilarity > 1
  ) {
    throw invalid('minSimilarity must be within [-1, 1]');
  }
  const neighbors = options.neighbors ?? 0;
  if (!Number.isInteger(neighbors) || neighbors < 0 || neighbors > 20)
    throw invalid('neighbors must be an integer in [0, 20]');
  if (options.groupBy !== undefined && options.groupBy !== 'session')
    throw invalid("groupBy must be 'session'");
  const graph = options.graph;
  if (graph !== undefined && (graph === null || typeof graph !== 'object'))
    throw invalid('graph must be an object');
  const maxHops = graph?.maxHops ?? 2;
  if (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > 5)
    throw invalid('graph.maxHops must be an integer in [1, 5]');
  const seeds = graph?.seeds;
  if (seeds !== undefined && (!Array.isArray(seeds) || seeds.some((s) => typeof s !== 'string')))
    throw invalid('graph.seeds must be an array of ids');
  const { extraLists, extraWeights } = checkExtraLists(options.extraLists ?? []);
  return {
    profile,
    topK,
    tokenBudget,
    compress,
    minSimilarity,
    neighbors,
    mmr: mmrSpec(options.mmr, profile),
    graphSeeds: seeds,
    maxHops,
    undirected: graph?.undirected ?? true,
    extraLists,
    extraWeights,
    groupBySession: options.groupBy === 'session',
    explain: options.explain === true,
    typing: options.typing === true,
    minMatch,
  };
}

function mmrSpec(option: RecallOptions['mmr'], profile: ScoringProfile): RecallPlan['mmr'] {
  if (option === undefined) return profile.mmr;
  if (option === false) return null;
  if (option === true) return profile.mmr ?? { lambda: 0.5, tagWeight: 0.35 };
  if (typeof option !== 'object' || option === null)
    throw invalid('mmr must be a boolean or an object');
  const lambda = option.lambda ?? profile.mmr?.lambda ?? 0.5;
  if (!Number.isFinite(lambda)) throw invalid('mmr.lambda must be finite');
  const dup = option.duplicateThreshold;
  if (dup !== undefined && !Number.isFinite(dup))
    throw invalid('mmr.duplicateThreshold must be finite');
  return { lambda, tagWeight: 0.35, ...(dup !== undefined ? { duplicateThreshold: dup } : {}) };
}

function checkExtraLists(lists: unknown): Pick<RecallPlan, 'extraLists' | 'extraWeights'> {
  if (!Array.isArray(lists)) throw invalid('extraLists must be an array');
  const extraWeights: Record<string, number> = {};
  for (const extra of lists as ExtraList[]) {
    if (
      !extra ||
      typeof extra.label !== 'string' ||
      !IDENTIFIER.test(extra.label) ||
      !Array.isArray(extra.items) ||
      extra.items.some((i) => !i || typeof i.id !== 'string' || !Number.isFinite(i.score))
    ) {
      throw invalid(
        'each extra list needs an identifier label and items of a string id and a finite score',
      );
    }
    if (BUILT_IN_LEGS.includes(extra.label))
      throw invalid(`extra list label ${extra.label} is a built-in leg`);
    if (extra.weight !== undefined) {
      if (!Number.isFinite(extra.weight)) throw invalid('extra list weight must be finite');
      extraWeights[extra.label] = extra.weight;
    }
  }
  return { extraLists: lists as ExtraList[], extraWeights };
}
