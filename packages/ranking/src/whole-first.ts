import type { ScoredCandidate } from './ranked-list.ts';

/** How whole-first ordering reads a candidate. */
export interface WholeFirstItem {
  /** Whether it holds every part of the query (every slot of its words, phrases, codes…). */
  whole: boolean;
  /** Its meaning strength against the query, in [0, 1]. */
  meaning: number;
}

/** The least a lifted candidate ends above the best one it passes. */
const ABOVE = 1e-9;

/**
 * Whole matches first: `candidates` (best first, `items` saying what each holds) reordered so that
 * those holding every part of the query come before those holding a part, unless a partial one's
 * meaning strength exceeds the best whole one's by `margin` or more (a clearly better meaning match
 * keeps its place). Each group keeps its order. Where one of the first group scored below one of
 * the second, the first group is lifted by one amount, the least that puts it above: a
 * `wholeFirst` contribution, so the scores stay in order and still add up.
 */
export function wholeFirst(
  candidates: readonly ScoredCandidate[],
  items: readonly WholeFirstItem[],
  margin: number,
): ScoredCandidate[] {
  let best = -Infinity;
  for (const item of items) if (item.whole) best = Math.max(best, item.meaning);
  if (best === -Infinity) return [...candidates];
  const first: ScoredCandidate[] = [];
  const rest: ScoredCandidate[] = [];
  candidates.forEach((c, i) =>
    (items[i]!.whole || items[i]!.meaning >= best + margin ? first : rest).push(c),
  );
  const lowest = Math.min(...first.map((c) => c.score));
  const highest = Math.max(...rest.map((c) => c.score));
  if (rest.length === 0 || lowest > highest) return [...first, ...rest];
  const lift = highest - lowest + ABOVE;
  const lifted = first.map((c) => ({
    ...c,
    score: c.score + lift,
    contributions: [
      ...c.contributions,
      { component: 'wholeFirst', value: 1, weight: lift, contribution: lift },
    ],
  }));
  return [...lifted, ...rest];
}
