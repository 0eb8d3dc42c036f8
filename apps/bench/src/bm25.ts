/**
 * A tuned BM25 outside our engine (issue 42), the peer `bm25-tuned` of `bench:quality`: MiniSearch's
 * BM25 over the same memories, each text read by Orama's tokenizer for its language (stemmer and
 * stop words; `orama-languages.ts`), with k1 and b chosen per corpus on its dev questions only.
 * MiniSearch scores BM25+ (`d`) and multiplies a document's score by the number of query words it
 * matched; here `d` is 0 and that factor is divided out, so the ranking is Okapi BM25 (MiniSearch
 * takes a document's length as its number of distinct words). The engine's own `bm25` baseline is
 * its FTS5 leg with FTS5's fixed k1 = 1.2, b = 0.75.
 */
import MiniSearch from 'minisearch';
import { ReportBuilder, scoreRanking, type Conversation, type Report } from './locomo.ts';
import { wordsOf, type OramaLanguage } from './orama-languages.ts';

/** BM25's two parameters. */
export interface Bm25Params {
  k1: number;
  b: number;
}

/** The grid k1 and b are chosen from. */
export const BM25_GRID: { k1: readonly number[]; b: readonly number[] } = {
  k1: [0.9, 1.2, 1.5, 2.0],
  b: [0.3, 0.5, 0.75, 0.9],
};

/** The usual setting (FTS5's, Lucene's), kept unless a grid point does strictly better. */
export const BM25_USUAL: Bm25Params = { k1: 1.2, b: 0.75 };

/** One BM25 index per conversation (a store), searched at any k1 and b. */
type Search = (query: string, params: Bm25Params, limit: number) => string[];

function bm25Index(conv: Conversation, language: OramaLanguage): Search {
  const words = wordsOf(language);
  const index = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    tokenize: words,
    // the words are Orama's, already lower-cased, stemmed and without stop words
    processTerm: (term) => term,
  });
  index.addAll(conv.memories.map((m) => ({ id: m.id!, text: m.text })));
  return (query, { k1, b }, limit) =>
    index
      .search(query, { bm25: { k: k1, b, d: 0 }, combineWith: 'OR' })
      .map((r) => ({ id: r.id as string, score: r.score / Math.max(1, r.queryTerms.length) }))
      .sort((x, y) => y.score - x.score)
      .slice(0, limit)
      .map((r) => r.id);
}

/** Scores every question of the conversations at one setting. */
function score(
  indexed: readonly { conv: Conversation; search: Search }[],
  params: Bm25Params,
  k: number,
): Report {
  const builder = new ReportBuilder();
  for (const { conv, search } of indexed)
    for (const q of conv.questions)
      builder.add(q.category, scoreRanking(search(q.text, params, Math.max(k, 10)), q.evidence, k));
  return builder.build();
}

const indexAll = (conversations: readonly Conversation[], language: OramaLanguage) =>
  conversations.map((conv) => ({ conv, search: bm25Index(conv, language) }));

/**
 * Chooses k1 and b on `dev` (a corpus's dev questions only: never pass held-out ones): the grid
 * point with the best mean nDCG@10, the usual 1.2 / 0.75 unless one does strictly better.
 */
export function tuneBm25(
  dev: readonly Conversation[],
  language: OramaLanguage,
  k = 10,
): Bm25Params & { ndcg10: number } {
  const indexed = indexAll(dev, language);
  let best = { ...BM25_USUAL, ndcg10: score(indexed, BM25_USUAL, k).ndcg10 };
  for (const k1 of BM25_GRID.k1)
    for (const b of BM25_GRID.b) {
      const { ndcg10 } = score(indexed, { k1, b }, k);
      if (ndcg10 > best.ndcg10) best = { k1, b, ndcg10 };
    }
  return best;
}

/** The conversations' questions through BM25 at `params`. */
export function runBm25(
  conversations: readonly Conversation[],
  language: OramaLanguage,
  params: Bm25Params,
  k = 10,
): Report {
  return score(indexAll(conversations, language), params, k);
}
