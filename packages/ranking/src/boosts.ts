import { AnamnesisError, assertFinite } from './errors.ts';
import { identifierTokens, splitIdentifier } from './identifiers.ts';
import { STOPWORDS } from './stopwords.ts';

/**
 * Seed 002's post-fusion boosts, generalised from code files to memories: a memory's *name* (a
 * note title, a tag, a symbol) plays the symbol's part, and its *source* (a file name, a URL path,
 * a document title) plays the file's.
 */

/** Score multiplier for a memory whose name matches the query (seed 002 §4a). */
export const NAME_MATCH_MULTIPLIER = 3;
/** Minimum {@link nameMatchScore} that earns the multiplier. */
export const NAME_MATCH_THRESHOLD = 0.5;
/** Score multiplier for every memory of a source whose name matches the query (seed 002 §4b). */
export const SOURCE_NAME_MULTIPLIER = 1.5;

/**
 * Seed 002 §4a: how well a name matches the query. Query terms are the identifiers of the query;
 * an exact (case-insensitive) match of the whole name scores 1.0; otherwise the overlap of their
 * camelCase/snake_case parts scores `overlap / max(|name parts|, |query parts|) · 0.8`.
 */
export function nameMatchScore(name: string, query: string): number {
  if (typeof name !== 'string' || typeof query !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', 'name and query must be strings');
  }
  const terms = identifierTokens(query);
  const lowerName = name.toLowerCase();
  if (terms.some((t) => t.toLowerCase() === lowerName)) return 1;
  const nameParts = new Set(splitIdentifier(name));
  const queryParts = new Set(terms.flatMap(splitIdentifier));
  if (nameParts.size === 0 || queryParts.size === 0) return 0;
  let overlap = 0;
  for (const p of nameParts) if (queryParts.has(p)) overlap++;
  return (overlap / Math.max(nameParts.size, queryParts.size)) * 0.8;
}

/** {@link NAME_MATCH_MULTIPLIER} when the best of `names` scores ≥ 0.5 against the query, else 1. */
export function nameMatchMultiplier(names: readonly string[], query: string): number {
  const best = Math.max(0, ...names.map((n) => nameMatchScore(n, query)));
  return best >= NAME_MATCH_THRESHOLD ? NAME_MATCH_MULTIPLIER : 1;
}

/** Length of the common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Seed 002 §4b and §11: does a source name match the query? The extension is removed and the name
 * split on `-`, `_` and `.`; query terms and name components must each be ≥ 5 characters (query
 * terms not stopwords) and share a prefix of ≥ 5 characters covering ≥ 60% of the shorter one.
 */
export function sourceNameMatches(sourceName: string, query: string): boolean {
  if (typeof sourceName !== 'string' || typeof query !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', 'sourceName and query must be strings');
  }
  const base = sourceName.split(/[\\/]/).pop() ?? '';
  const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const parts = stem
    .toLowerCase()
    .split(/[-_.]/)
    .filter((p) => p.length >= 5);
  const terms = (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter(
    (t) => t.length >= 5 && !STOPWORDS.has(t),
  );
  return terms.some((t) =>
    parts.some((p) => {
      const prefix = commonPrefix(t, p);
      return prefix >= 5 && prefix >= 0.6 * Math.min(t.length, p.length);
    }),
  );
}

/**
 * Seed 002 §4d's adaptive cap on distinct sources: `min(max(3, ⌊n/3⌋), 8)`, or `override` when it
 * is positive.
 */
export function maxSources(uniqueSources: number, override = 0): number {
  if (!Number.isInteger(uniqueSources) || uniqueSources < 0) {
    throw new AnamnesisError('INVALID_INPUT', 'uniqueSources must be a non-negative integer');
  }
  if (!Number.isInteger(override) || override < 0) {
    throw new AnamnesisError('INVALID_INPUT', 'override must be a non-negative integer');
  }
  return override > 0 ? override : Math.min(Math.max(3, Math.floor(uniqueSources / 3)), 8);
}

/**
 * Seed 002 §4d: keeps only items of the top sources by aggregate score (at most
 * {@link maxSources}), preserving the input order.
 */
export function capBySource<T extends { score: number; source: string }>(
  items: readonly T[],
  override = 0,
): T[] {
  const totals = new Map<string, number>();
  for (const it of items) {
    assertFinite(it.score, 'score');
    totals.set(it.source, (totals.get(it.source) ?? 0) + it.score);
  }
  const cap = maxSources(totals.size, override);
  const kept = new Set(
    [...totals]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, cap)
      .map(([s]) => s),
  );
  return items.filter((it) => kept.has(it.source));
}

/** A memory that could be injected because retrieved memories link to it. */
export interface InjectionCandidate {
  id: string;
  /** How many retrieved memories reference it. */
  references: number;
  /** Test-like sources are injected after the others. Default false. */
  secondary?: boolean;
}

/**
 * Seed 002 §4c's link injection: candidates need ≥ `threshold` references (default 2); at most
 * `min(2, max(0, 10 − currentCount))` are injected, primary before secondary, then by references;
 * 3+ references score `topScore · 0.9`, 2 references `p75Score · 0.7`.
 */
export function planInjection(
  candidates: readonly InjectionCandidate[],
  context: { currentCount: number; topScore: number; p75Score: number; threshold?: number },
): { id: string; score: number }[] {
  const threshold = context.threshold ?? 2;
  assertFinite(context.topScore, 'topScore');
  assertFinite(context.p75Score, 'p75Score');
  if (!Number.isInteger(context.currentCount) || context.currentCount < 0) {
    throw new AnamnesisError('INVALID_INPUT', 'currentCount must be a non-negative integer');
  }
  const cap = Math.min(2, Math.max(0, 10 - context.currentCount));
  return candidates
    .filter((c) => c.references >= threshold)
    .sort(
      (a, b) =>
        Number(a.secondary ?? false) - Number(b.secondary ?? false) ||
        b.references - a.references ||
        (a.id < b.id ? -1 : 1),
    )
    .slice(0, cap)
    .map((c) => ({
      id: c.id,
      score: c.references >= 3 ? context.topScore * 0.9 : context.p75Score * 0.7,
    }));
}
