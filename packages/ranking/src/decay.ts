import { AnamnesisError, assertFinite } from '@anamnesis/errors';

function assertPositive(value: unknown, what: string): asserts value is number {
  assertFinite(value, what);
  if (value <= 0) throw new AnamnesisError('INVALID_INPUT', `${what} must be > 0, got ${value}`);
}

/**
 * Recency multiplier of seed 000: `0.7 + 0.3 · exp(−ageHours / halfLifeHours)`, in (0.7, 1.0].
 * The seed names the constant a half-life but applies it as an e-folding time (at
 * `ageHours = halfLifeHours` the boost is 1/e, not 1/2); this is the seed's formula, exactly.
 * A negative age (a timestamp in the future, clock skew) counts as age 0.
 *
 * @param ageHours age of the memory in hours (≥ 0; negative is clamped to 0)
 * @param halfLifeHours decay constant in hours (> 0)
 */
export function recencyMultiplier(ageHours: number, halfLifeHours: number): number {
  return 0.7 + 0.3 * recencyDecay(ageHours, halfLifeHours);
}

/** `exp(−max(0, ageHours) / halfLifeHours)`, the seed 000 decay in [0, 1]. */
export function recencyDecay(ageHours: number, halfLifeHours: number): number {
  assertFinite(ageHours, 'ageHours');
  assertPositive(halfLifeHours, 'halfLifeHours');
  return Math.exp(-Math.max(0, ageHours) / halfLifeHours);
}

/**
 * Half-life decay `2^(−max(0, age) / halfLife)`: 1 at age 0, 0.5 at one half-life. Units are the
 * caller's (both arguments in the same unit).
 */
export function halfLifeDecay(age: number, halfLife: number): number {
  assertFinite(age, 'age');
  assertPositive(halfLife, 'halfLife');
  return Math.pow(2, -Math.max(0, age) / halfLife);
}

/**
 * Usage decay of seed 002: `Σ 2^(−age_days / halfLifeDays)` over the given event ages. With the
 * default half-life of 7 days an event contributes 1.000, 0.500, 0.250 and 0.063 at 0, 7, 14 and
 * 28 days. Only `selected` and `used` events qualify: filter with {@link usageScore}.
 *
 * @param eventAgesDays ages of the qualifying events, in days
 * @param halfLifeDays half-life in days; default 7
 */
export function usageDecay(eventAgesDays: readonly number[], halfLifeDays = 7): number {
  if (!Array.isArray(eventAgesDays)) {
    throw new AnamnesisError('INVALID_INPUT', 'eventAgesDays must be an array');
  }
  let s = 0;
  for (const age of eventAgesDays) s += halfLifeDecay(age, halfLifeDays);
  return s;
}

/** The kinds of usage event a store records; only `selected` and `used` count for scoring. */
export type UsageEventKind = 'retrieved' | 'selected' | 'used' | 'discarded';

/** Usage event kinds that contribute to the usage score (seed 002). */
export const QUALIFYING_USAGE_EVENTS: ReadonlySet<UsageEventKind> = new Set(['selected', 'used']);

/**
 * Usage score of seed 002 over raw events: `retrieved` and `discarded` events are ignored, the
 * others decay with {@link usageDecay}.
 *
 * @param events events with their age in days
 * @param halfLifeDays half-life in days; default 7
 */
export function usageScore(
  events: readonly { event: UsageEventKind; ageDays: number }[],
  halfLifeDays = 7,
): number {
  if (!Array.isArray(events)) throw new AnamnesisError('INVALID_INPUT', 'events must be an array');
  return usageDecay(
    events.filter((e) => QUALIFYING_USAGE_EVENTS.has(e.event)).map((e) => e.ageDays),
    halfLifeDays,
  );
}
