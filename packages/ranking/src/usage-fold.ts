/**
 * Usage events folded (seed 002's usage score, kept bounded): per event kind, a count and the
 * events' decayed sum at a reference time, which decays on from there exactly as the events
 * would. A store folds its events older than a week this way; a sync folds a device's own events
 * into one summary per kind that other devices add to theirs.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The usage score's half-life, in days (seed 002): an event counts 2^(−age / 7 days). */
export const USAGE_HALF_LIFE_DAYS = 7;

/**
 * A memory's folded events of one kind: `count` events whose decayed sum at time `at` (the newest
 * of them, ms since the epoch) is `decayed`: Σ 2^(−(at − at_i) / half-life). At any later `now`
 * their share of the usage score is `decayed · 2^(−(now − at) / half-life)`, exactly the sum of
 * their own decays (up to rounding); a recall before `at` (a clock set back) counts them at `at`.
 */
export interface FoldedUsage {
  /** The event kind (`'selected'`, `'used'`…). */
  event: string;
  /** How many events. */
  count: number;
  /** Their decayed sum at `at`. */
  decayed: number;
  /** The reference time (the newest event's), ms since the epoch. */
  at: number;
}

/** 2^(−ms / half-life): how much an event's weight decays over `ms` (≥ 0). */
function decay(ms: number): number {
  return Math.pow(2, -Math.max(0, ms) / (USAGE_HALF_LIFE_DAYS * DAY_MS));
}

/** Two folds of the same event kind as one (referred to the later of their times). */
export function mergeFolded(a: FoldedUsage, b: FoldedUsage): FoldedUsage {
  const at = Math.max(a.at, b.at);
  return {
    event: a.event,
    count: a.count + b.count,
    decayed: a.decayed * decay(at - a.at) + b.decayed * decay(at - b.at),
    at,
  };
}

/**
 * Folds `events` (any order; each one event of its kind at `at`) into `into` (a memory's folds by
 * event kind; changed in place).
 */
export function foldEvents(
  into: Map<string, FoldedUsage>,
  events: Iterable<{ event: string; at: number }>,
): Map<string, FoldedUsage> {
  for (const { event, at } of events) {
    const one = { event, count: 1, decayed: 1, at };
    const kept = into.get(event);
    into.set(event, kept ? mergeFolded(kept, one) : one);
  }
  return into;
}
