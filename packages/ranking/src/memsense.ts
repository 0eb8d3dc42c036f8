import { AnamnesisError, assertFinite, assertNonNegativeInt } from '@anamnesis/errors';

/** Memsense's RRF constant (seed 001). */
export const MEMSENSE_RRF_K = 15;
/** Weight of the stored memory score in Memsense's final score (seed 001). */
export const MEMSENSE_MEMORY_SCORE_WEIGHT = 0.1;
/** Cap of the turn support a session gets (seed 001). */
export const MEMSENSE_TURN_SUPPORT_CAP = 0.12;
/** Factor on the best turn's RRF score (seed 001). */
export const MEMSENSE_TURN_SUPPORT_FACTOR = 0.6;

/**
 * Seed 001's candidate pool sizing: `perRoute = max(max(topK·4, 32)·2, 40)` candidates from each
 * route and `beforeRerank = max(topK·4, 32)` candidates kept for MMR. At topK = 10: 80 and 40.
 */
export function candidatePool(topK: number): { perRoute: number; beforeRerank: number } {
  assertNonNegativeInt(topK, 'topK');
  const beforeRerank = Math.max(topK * 4, 32);
  return { perRoute: Math.max(beforeRerank * 2, 40), beforeRerank };
}

/** Seed 001's final score: `rrf + 0.1 · memoryScore`. */
export function memsenseScore(rrfScore: number, memoryScore: number): number {
  assertFinite(rrfScore, 'rrfScore');
  assertFinite(memoryScore, 'memoryScore');
  return rrfScore + MEMSENSE_MEMORY_SCORE_WEIGHT * memoryScore;
}

/** Seed 001's bounded turn support: `min(0.12, 0.6 · bestTurnRrf)` (0 when no turn matched). */
export function turnSupport(bestTurnRrf: number): number {
  assertFinite(bestTurnRrf, 'bestTurnRrf');
  if (bestTurnRrf < 0) throw new AnamnesisError('INVALID_INPUT', 'bestTurnRrf must be ≥ 0');
  return Math.min(MEMSENSE_TURN_SUPPORT_CAP, MEMSENSE_TURN_SUPPORT_FACTOR * bestTurnRrf);
}

/** A candidate in session-first grouping. */
export interface SessionCandidate {
  id: string;
  session: string;
  score: number;
}

/** A session's result in session-first scoring, with seed 001's explain fields. */
export interface SessionResult {
  session: string;
  /** The session's representative (its best-scored memory). */
  id: string;
  /** `sessionScore + turnSupport`. */
  score: number;
  /** The representative's own score (seed 001's `session_rrf_score`). */
  sessionScore: number;
  turnSupport: number;
  /** How many other memories of the session were found. */
  supportingTurnCount: number;
  /** Ids of the supporting memories, best first. */
  supportingIds: string[];
}

/**
 * Session-first scoring of seed 001 for stores whose memories are turns: each session is
 * represented by its best-scored memory and gains bounded support from the best of its other
 * memories, `hybrid = session_score + min(0.12, 0.6 · best_turn_score)`. Sessions are returned best
 * first (ties by id).
 */
export function sessionFirst(candidates: readonly SessionCandidate[]): SessionResult[] {
  if (!Array.isArray(candidates))
    throw new AnamnesisError('INVALID_INPUT', 'candidates must be an array');
  const bySession = new Map<string, SessionCandidate[]>();
  for (const c of candidates) {
    if (typeof c?.id !== 'string' || typeof c.session !== 'string') {
      throw new AnamnesisError('INVALID_INPUT', 'each candidate needs a string id and session');
    }
    assertFinite(c.score, `score of ${c.id}`);
    const list = bySession.get(c.session);
    if (list) list.push(c);
    else bySession.set(c.session, [c]);
  }
  const out: SessionResult[] = [];
  for (const [session, list] of bySession) {
    list.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const head = list[0]!;
    const rest = list.slice(1);
    const support = rest.length > 0 ? turnSupport(Math.max(0, rest[0]!.score)) : 0;
    out.push({
      session,
      id: head.id,
      score: head.score + support,
      sessionScore: head.score,
      turnSupport: support,
      supportingTurnCount: rest.length,
      supportingIds: rest.map((r) => r.id),
    });
  }
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
