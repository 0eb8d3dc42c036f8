import { AnamnesisError } from './errors.ts';

/** One entry of a ranked list: an id and the leg's raw score (higher is better). */
export interface RankedItem {
  id: string;
  score: number;
}

/** A ranked list produced by one retrieval leg, best first. */
export interface RankedList {
  /** The leg's name, e.g. `'fts'`, `'vector'`, `'graph'`, or a caller's label. */
  leg: string;
  /** Items best first. An id listed twice keeps its first (best) position. */
  items: readonly RankedItem[];
}

/** How one leg contributed to one fused item. */
export interface LegDetail {
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
  id: string;
  score: number;
  legs: LegDetail[];
}

/** Options of {@link rrf}. */
export interface RrfOptions {
  /** Rank damping constant k, ≥ 0. Default 60 (seeds 002 and 003); Memsense uses 15. */
  k?: number;
  /** Per-leg weights; a leg not named here weighs `defaultWeight`. */
  weights?: Readonly<Record<string, number>>;
  /** Weight of a leg missing from `weights`. Default 1. */
  defaultWeight?: number;
  /**
   * What an item absent from a leg gets: `'skip'` (no contribution, seed 003) or `'penalty'`
   * (rank `len(list) + 1`, seed 002). Default `'skip'`.
   */
  absent?: 'skip' | 'penalty';
}

/** A leg's ranks after validation and first-occurrence dedup. */
export interface IndexedList {
  leg: string;
  length: number;
  ranks: Map<string, { rank: number; score: number }>;
}

/** Validates a ranked list and indexes it by id (1-based ranks, first occurrence wins). */
export function indexList(list: RankedList): IndexedList {
  if (
    !list ||
    typeof list.leg !== 'string' ||
    list.leg.length === 0 ||
    !Array.isArray(list.items)
  ) {
    throw new AnamnesisError('INVALID_INPUT', 'a ranked list needs a non-empty leg name and items');
  }
  const ranks = new Map<string, { rank: number; score: number }>();
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
    if (!ranks.has(item.id)) ranks.set(item.id, { rank: ranks.size + 1, score: item.score });
  }
  return { leg: list.leg, length: ranks.size, ranks };
}

/** Sorts best first: score descending, then best leg rank, then id (deterministic). */
export function compareFused(
  a: { id: string; score: number; bestRank: number },
  b: { id: string; score: number; bestRank: number },
): number {
  return b.score - a.score || a.bestRank - b.bestRank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Weighted Reciprocal Rank Fusion: `score(d) = Σ_s weight_s / (k + rank_s(d))`.
 *
 * Covers seed 002 (weights, k = 60, absent ⇒ penalty rank `len + 1`), seed 003 (per-leg detail whose
 * contributions reconstruct the fused score exactly: `score` is computed as the sum of `legs`'
 * contributions in leg order) and seed 001 (k = 15). Returns items best first.
 */
export function rrf(lists: readonly RankedList[], options: RrfOptions = {}): FusedItem[] {
  if (!Array.isArray(lists)) throw new AnamnesisError('INVALID_INPUT', 'lists must be an array');
  const k = options.k ?? 60;
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0) {
    throw new AnamnesisError('INVALID_INPUT', `k must be a finite number ≥ 0, got ${String(k)}`);
  }
  const absent = options.absent ?? 'skip';
  if (absent !== 'skip' && absent !== 'penalty') {
    throw new AnamnesisError('INVALID_INPUT', "absent must be 'skip' or 'penalty'");
  }
  const defaultWeight = options.defaultWeight ?? 1;
  const weightOf = (leg: string): number => {
    const w =
      options.weights && Object.hasOwn(options.weights, leg) ? options.weights[leg] : defaultWeight;
    if (typeof w !== 'number' || !Number.isFinite(w)) {
      throw new AnamnesisError('INVALID_INPUT', `weight of leg ${leg} must be finite`);
    }
    return w;
  };
  const indexed = lists.map(indexList);
  const weights = indexed.map((l) => weightOf(l.leg));
  const ids = new Set<string>();
  for (const l of indexed) for (const id of l.ranks.keys()) ids.add(id);

  const fused: (FusedItem & { bestRank: number })[] = [];
  for (const id of ids) {
    const legs: LegDetail[] = [];
    let bestRank = Infinity;
    indexed.forEach((l, i) => {
      const hit = l.ranks.get(id);
      const w = weights[i]!;
      if (hit) {
        legs.push({
          leg: l.leg,
          rank: hit.rank,
          score: hit.score,
          contribution: w / (k + hit.rank),
        });
        bestRank = Math.min(bestRank, hit.rank);
      } else if (absent === 'penalty') {
        const rank = l.length + 1;
        legs.push({ leg: l.leg, rank, score: null, contribution: w / (k + rank), absent: true });
      }
    });
    fused.push({ id, score: sumContributions(legs), legs, bestRank });
  }
  fused.sort(compareFused);
  return fused.map(({ id, score, legs }) => ({ id, score, legs }));
}

/** Sums `contribution` fields left to right: the one definition of "adds up exactly". */
export function sumContributions(parts: readonly { contribution: number }[]): number {
  let s = 0;
  for (const p of parts) s += p.contribution;
  return s;
}
