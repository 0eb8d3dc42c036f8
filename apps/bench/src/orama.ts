import type { Embedder } from '@anamnesis/engine';
import {
  ORAMA_MODES,
  oramaIndex,
  oramaSearch,
  type OramaMode,
  type OramaSimilarity,
} from './orama-index.ts';
import { oramaTokenizer, type OramaLanguage } from './orama-languages.ts';
import { ReportBuilder, scoreRanking, type Conversation, type Report } from './locomo.ts';

/**
 * LoCoMo (or a corpus line) through Orama in its three modes, on the same embeddings as the
 * engine, with Orama's tokenizer for the texts' `language` (English unless given).
 */
export async function runOrama(
  conversations: readonly Conversation[],
  embedder: Embedder,
  k = 10,
  options: { language?: OramaLanguage; similarity?: OramaSimilarity } = {},
): Promise<Record<`orama-${OramaMode}`, Report>> {
  const builders = Object.fromEntries(ORAMA_MODES.map((m) => [m, new ReportBuilder()])) as Record<
    OramaMode,
    ReportBuilder
  >;
  for (const conv of conversations) {
    const texts = conv.memories.map((m) => m.text);
    const vectors = await embedder.embed(texts);
    const db = await oramaIndex(
      embedder.dims,
      conv.memories.map((m, i) => ({ id: m.id!, text: m.text, embedding: vectors[i]! })),
      oramaTokenizer(options.language ?? 'english'),
    );
    const queryVectors = await embedder.embed(conv.questions.map((q) => q.text));
    for (const [i, q] of conv.questions.entries()) {
      for (const mode of ORAMA_MODES) {
        const ranked = await oramaSearch(
          db,
          mode,
          q.text,
          queryVectors[i]!,
          Math.max(k, 10),
          options.similarity,
        );
        builders[mode].add(q.category, scoreRanking(ranked, q.evidence, k));
      }
    }
  }
  return Object.fromEntries(ORAMA_MODES.map((m) => [`orama-${m}`, builders[m].build()])) as Record<
    `orama-${OramaMode}`,
    Report
  >;
}

/**
 * An Orama hybrid store of `memories` (Orama's tokenizer for `language`, the same embeddings as
 * the engine, no similarity floor) that answers a query with document ids, best first, at typo
 * `tolerance` (Orama matches prefixes too: a word still being typed finds the words it begins).
 */
export async function oramaAsk(
  memories: readonly { id?: string; text: string }[],
  embedder: Embedder,
  options: { language?: OramaLanguage; tolerance?: number; k?: number } = {},
): Promise<(query: string) => Promise<string[]>> {
  const vectors = await embedder.embed(memories.map((m) => m.text));
  const db = await oramaIndex(
    embedder.dims,
    memories.map((m, i) => ({ id: m.id!, text: m.text, embedding: vectors[i]! })),
    oramaTokenizer(options.language ?? 'english'),
  );
  return async (query) => {
    const [vector] = await embedder.embed([query]);
    return oramaSearch(db, 'hybrid', query, vector!, options.k ?? 10, -1, options.tolerance ?? 0);
  };
}
