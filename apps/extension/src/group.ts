/**
 * Search results as a person reads them: one entry per page (its best passage first, the page's
 * other passages folded under it), pages in the order of their best passage, and a relevance cut,
 * so that a query never fills the list with weak passages of one unrelated page.
 */
import type { RecallResult } from '@anamnesis/engine';

/** A page in the results: its best passage and the others that matched. */
export interface PageHit {
  url: string;
  best: RecallResult;
  more: RecallResult[];
}

/** Pages always shown, however weak their best passage. */
const MIN_PAGES = 1;
/** Cosine from which a meaning-only match is shown (the default model's related texts score above). */
const MEANING_FLOOR = 0.3;

/** A passage worth showing: it matched words (or links), or it is close in meaning. */
export function relevant(hit: RecallResult): boolean {
  const legs = hit.explain?.legs ?? [];
  return hit.similarity >= MEANING_FLOOR || legs.some((l) => l.leg !== 'vector');
}

/** Groups recall results (best first) by page, keeps relevant passages, at most `pages` pages. */
export function groupByPage(results: readonly RecallResult[], pages: number): PageHit[] {
  const byUrl = new Map<string, PageHit>();
  for (const hit of results) {
    const url = typeof hit.meta?.url === 'string' ? hit.meta.url : hit.id;
    const group = byUrl.get(url);
    if (group) {
      if (relevant(hit)) group.more.push(hit);
    } else if (byUrl.size < MIN_PAGES || relevant(hit)) {
      byUrl.set(url, { url, best: hit, more: [] });
    }
  }
  return [...byUrl.values()].slice(0, pages);
}
