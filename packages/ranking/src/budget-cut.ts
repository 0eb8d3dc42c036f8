import { AnamnesisError, assertFinite } from '@anamnesis/errors';

/** An item offered to {@link budgetCut}, already in value-density order. */
export interface BudgetItem {
  id: string;
  /** Token count of the item. */
  tokens: number;
  /** A named symbol: compressed in strict mode. Default false. */
  structured?: boolean;
}

/** What a compressor returns: the compressed token count (and anything else the caller keeps). */
export interface Compressed {
  tokens: number;
}

/** A selected item; `compressionRatio` is set when the compressed form was used. */
export interface BudgetSelection<T extends BudgetItem, C extends Compressed> {
  item: T;
  tokens: number;
  compressed?: C;
  /** `compressed.tokens / item.tokens` (seed 002 measures it in characters; tokens here). */
  compressionRatio?: number;
}

/**
 * Seed 002's greedy token-budget cut: walk the items in order; take an item that fits; otherwise,
 * when a compressor is given, compress it (strict for structured items) and take the compressed
 * form if it fits, else skip it; stop once the budget is exhausted.
 *
 * @param budget token budget (≥ 0); seed 002's default is 8000
 */
export function budgetCut<T extends BudgetItem, C extends Compressed = Compressed>(
  items: readonly T[],
  budget = 8000,
  compress?: (item: T, strict: boolean) => C | null,
): BudgetSelection<T, C>[] {
  if (!Array.isArray(items)) throw new AnamnesisError('INVALID_INPUT', 'items must be an array');
  assertFinite(budget, 'budget');
  if (budget < 0) throw new AnamnesisError('INVALID_INPUT', 'budget must be ≥ 0');
  let remaining = budget;
  const out: BudgetSelection<T, C>[] = [];
  for (const item of items) {
    if (remaining <= 0) break;
    assertFinite(item?.tokens, `tokens of ${String(item?.id)}`);
    if (item.tokens <= remaining) {
      out.push({ item, tokens: item.tokens });
      remaining -= item.tokens;
      continue;
    }
    if (!compress) continue;
    const c = compress(item, item.structured === true);
    if (c && c.tokens <= remaining) {
      out.push({
        item,
        tokens: c.tokens,
        compressed: c,
        compressionRatio: item.tokens === 0 ? 1 : c.tokens / item.tokens,
      });
      remaining -= c.tokens;
    }
  }
  return out;
}
