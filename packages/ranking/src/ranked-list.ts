import { AnamnesisError, assertArray } from '@anamnesis/errors';
import type { Contribution } from './weighted-sum.ts';

/** A leg that found a candidate: its 1-based rank (the mean position of a run of equal scores, see `tiesShareRank`) and raw score there. */
export interface LegHit {
  /** The leg's name (`'fts'`, `'vector'`, `'graph'`, `'date'`, `'expansion'` or a caller's label). */
  leg: string;
  /** 1-based rank in the leg. */
  rank: number;
  /** The leg's raw score (BM25, cosine…). */
  score: number;
  /** The leg's evidence for it, in [0, 1], when the leg gives one (see {@link RankedItem.evidence}). */
  evidence?: number;
}

/** A fused candidate with its explanation; `score` is the left-to-right sum of `contributions`. */
export interface ScoredCandidate {
  /** The memory's id. */
  id: string;
  /** The fused score. */
  score: number;
  /** Cosine similarity to the query. */
  similarity: number;
  /** The legs that found it. */
  legs: LegHit[];
  /** The score's parts, in order. */
  contributions: Contribution[];
}

/** One entry of a ranked list: an id and the leg's raw score (higher is better). */
export interface RankedItem {
  /** The memory's id. */
  id: string;
  /** The leg's raw score. */
  score: number;
  /**
   * How much of what was asked the item holds by this leg's measure, in [0, 1] (the lexical leg:
   * the query's words it has, weighted by rarity): an RRF fusion weighs the item's rank by it, so
   * that a rank won by little evidence counts little. Absent: 1 (the rank alone counts).
   */
  evidence?: number;
}

/** A ranked list produced by one retrieval leg, best first. */
export interface RankedList {
  /** The leg's name, e.g. `'fts'`, `'vector'`, `'graph'`, or a caller's label. */
  leg: string;
  /** Items best first. An id listed twice keeps its first (best) position. */
  items: readonly RankedItem[];
  /**
   * Items of equal score share the mean of the positions they span ("1, 2.5, 2.5, 4"), so that of
   * two equal matches neither is favoured by the order the leg happened to list them in, and a
   * large group of equal items weighs what its positions weigh (not all the first one's). Default
   * false: every item has its own position (for legs whose equal scores do not mean equal matches).
   */
  tiesShareRank?: boolean;
}

/** How one leg contributed to one fused item. */
export interface LegDetail {
  /** The leg's name. */
  leg: string;
  /** 1-based rank in the leg (after dedup), or the penalty rank `len + 1` when absent. */
  rank: number;
  /** The leg's raw score, or `null` when the item was absent from the leg. */
  score: number | null;
  /** `weight / (k + rank)`. */
  contribution: number;
  /** True when the item was absent and the penalty rank was used. */
  absent?: boolean;
}

/** A fused item: its score is exactly the sum of its legs' contributions, in leg order. */
export interface FusedItem {
  /** The memory's id. */
  id: string;
  /** The fused score. */
  score: number;
  /** Each leg's part, in leg order. */
  legs: LegDetail[];
}

/** A leg's ranks after validation and first-occurrence dedup. */
export interface IndexedList {
  /** The leg's name. */
  leg: string;
  /** Items after dedup. */
  length: number;
  /** Each id's 1-based rank and raw score. */
  ranks: Map<
    string,
    {
      /** 1-based rank. */
      rank: number;
      /** Raw score. */
      score: number;
      /** The item's evidence in [0, 1], when given. */
      evidence?: number;
    }
  >;
}

/**
 * Validates a ranked list and indexes it by id (1-based ranks, first occurrence wins; with
 * `tiesShareRank`, a run of equal scores takes the mean of its positions).
 */
export function indexList(list: RankedList): IndexedList {
  if (!list || typeof list.leg !== 'string' || list.leg.length === 0)
    throw new AnamnesisError('INVALID_INPUT', 'a ranked list needs a non-empty leg name and items');
  assertArray(list.items, `items of leg ${list.leg}`);
  const ranks = new Map<string, { rank: number; score: number; evidence?: number }>();
  /** The entries of the current run of equal scores (`tiesShareRank`). */
  let run: { rank: number; score: number }[] = [];
  const closeRun = () => {
    if (run.length > 1) {
      const mean = (run[0]!.rank + run[run.length - 1]!.rank) / 2;
      for (const entry of run) entry.rank = mean;
    }
    run = [];
  };
  for (const item of list.items) {
    if (!item || typeof item.id !== 'string') {
      throw new AnamnesisError('INVALID_INPUT', `leg ${list.leg}: every item needs a string id`);
    }
    if (typeof item.score !== 'number' || !Number.isFinite(item.score)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `leg ${list.leg}: score of ${item.id} is not finite`,
      );
    }
    if (ranks.has(item.id)) continue;
    const evidence = item.evidence;
    if (evidence !== undefined && !(evidence >= 0 && evidence <= 1)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `leg ${list.leg}: evidence of ${item.id} must be within [0, 1]`,
      );
    }
    const entry = {
      rank: ranks.size + 1,
      score: item.score,
      ...(evidence !== undefined ? { evidence } : {}),
    };
    ranks.set(item.id, entry);
    if (list.tiesShareRank) {
      if (run.length > 0 && run[0]!.score !== item.score) closeRun();
      run.push(entry);
    }
  }
  closeRun();
  return { leg: list.leg, length: ranks.size, ranks };
}

/** A candidate's best (smallest) rank among the legs that found it; `Infinity` for none. */
export function bestLegRank(legs: readonly { rank: number }[]): number {
  let best = Infinity;
  for (const l of legs) if (l.rank < best) best = l.rank;
  return best;
}

/** Sorts best first: score descending, then best leg rank, then id (deterministic). */
export function compareFused(
  a: { id: string; score: number; bestRank: number },
  b: { id: string; score: number; bestRank: number },
): number {
  return b.score - a.score || a.bestRank - b.bestRank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Sums `contribution` fields left to right: the one definition of "adds up exactly". */
export function sumContributions(parts: readonly { contribution: number }[]): number {
  let s = 0;
  for (const p of parts) s += p.contribution;
  return s;
}
