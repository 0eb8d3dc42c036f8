import { AnamnesisError } from '@anamnesis/errors';

/**
 * Conversation context: evidence often sits next to the turn that matches the words ("Caroline:
 * what did you research?" / "Melanie: adoption agencies"), and a session that matches as a whole
 * is more likely to hold the answer. Each memory is lifted towards its better neighbours and
 * towards its session's best: it gains a share of the *margin* by which they score above it
 * (`w · max(0, s_other − s_self)`). So the best memory of a stretch is never moved by weaker ones
 * around it (a notes store's arbitrary grouping cannot reorder its strong matches), and while the
 * three weights sum to at most 1 a lifted memory never overtakes the best of the memories that lift
 * it (each margin is at most the best one's), so never its session's best.
 */
export interface ContextWeights {
  /** Share of the margin of the best immediate neighbour (distance 1). */
  neighbor: number;
  /** Share of the margin of the best neighbour at distance 2. */
  near: number;
  /** Share of the margin of the session's best memory (the session prior). */
  session: number;
}

/** A scored candidate with its session (`null`: none, so no context). */
export interface ContextItem {
  id: string;
  score: number;
  session: string | null;
}

/** A pair of memories of one session `distance` turns apart (1 or 2). */
export interface ContextPair {
  a: string;
  b: string;
  distance: number;
}

/** The three context margins of one memory, before weighting (each ≥ 0). */
export interface ContextScore {
  /** Best base score among neighbours at distance 1, minus the memory's own (0 if below). */
  neighbor: number;
  /** The same at distance 2. */
  near: number;
  /** Best base score in the same session, minus the memory's own. */
  session: number;
}

/**
 * Context margins of every memory that has a positive one: the scored items and the unscored
 * neighbours named in `pairs` (their own score counts as 0, their session is their partner's).
 * Pairs are symmetric; a memory without a session gets nothing, and a store without sessions gets
 * an empty map. Scores must be finite and ≥ 0.
 */
export function contextScores(
  items: readonly ContextItem[],
  pairs: readonly ContextPair[],
): Map<string, ContextScore> {
  const base = new Map<string, number>();
  const best = new Map<string, number>();
  const sessionOf = new Map<string, string>();
  for (const it of items) {
    if (!Number.isFinite(it.score) || it.score < 0)
      throw new AnamnesisError('INVALID_INPUT', `context: score of ${it.id} must be finite, ≥ 0`);
    base.set(it.id, it.score);
    if (it.session === null) continue;
    sessionOf.set(it.id, it.session);
    best.set(it.session, Math.max(best.get(it.session) ?? 0, it.score));
  }
  const out = new Map<string, ContextScore>();
  const entry = (id: string) => {
    let e = out.get(id);
    if (!e) out.set(id, (e = { neighbor: 0, near: 0, session: 0 }));
    return e;
  };
  for (const p of pairs) {
    if (p.distance !== 1 && p.distance !== 2)
      throw new AnamnesisError('INVALID_INPUT', 'context: pair distance must be 1 or 2');
    for (const [self, other] of [
      [p.a, p.b],
      [p.b, p.a],
    ] as const) {
      const session = sessionOf.get(other);
      if (!sessionOf.has(self) && session !== undefined) sessionOf.set(self, session);
      const lift = (base.get(other) ?? 0) - (base.get(self) ?? 0);
      if (lift <= 0) continue;
      const e = entry(self);
      if (p.distance === 1) e.neighbor = Math.max(e.neighbor, lift);
      else e.near = Math.max(e.near, lift);
    }
  }
  for (const [id, session] of sessionOf) {
    const b = best.get(session)!;
    const lift = b - (base.get(id) ?? 0);
    if (lift > 0) entry(id).session = lift;
  }
  return out;
}

/** The weighted contributions of a context score, in a fixed order, zero ones left out. */
export function contextContributions(
  score: ContextScore,
  weights: ContextWeights,
): { component: string; value: number; weight: number; contribution: number }[] {
  const out = [];
  for (const [component, value, weight] of [
    ['context:neighbor', score.neighbor, weights.neighbor],
    ['context:near', score.near, weights.near],
    ['context:session', score.session, weights.session],
  ] as const) {
    if (value === 0 || weight === 0) continue;
    out.push({ component, value, weight, contribution: weight * value });
  }
  return out;
}
