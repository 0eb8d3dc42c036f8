/**
 * The Orama 3 baseline's configuration (no Node imports, so the browser speed benchmark uses it too).
 */
import {
  create,
  insertMultiple,
  search,
  type AnyOrama,
  type DefaultTokenizerConfig,
  type Tokenizer,
} from '@orama/orama';
import { stopwords as englishStopwords } from '@orama/stopwords/english';

/** The three Orama 3 modes run as baselines. */
export const ORAMA_MODES = ['fulltext', 'vector', 'hybrid'] as const;
export type OramaMode = (typeof ORAMA_MODES)[number];

/** Orama's English tokenizer with its stemmer and English stop words. */
const ENGLISH: DefaultTokenizerConfig = {
  language: 'english',
  stemming: true,
  stopWords: englishStopwords,
};

/**
 * An Orama 3 database configured fairly: the texts' language's tokenizer (English with stemming
 * and English stop words unless given another: `orama-languages.ts` has one per corpus language),
 * the same unit vectors as the engine. Full-text uses threshold 1 (any term, like our OR query;
 * also Orama's default) and vector search a similarity floor of -1 (no floor: our vector leg has
 * none) unless asked for Orama's default floor (see {@link OramaSimilarity}), default hybrid
 * weights.
 */
export async function oramaIndex(
  dims: number,
  docs: { id: string; text: string; embedding: Float32Array }[],
  tokenizer: Tokenizer | DefaultTokenizerConfig = ENGLISH,
): Promise<AnyOrama> {
  const db = create({
    schema: { key: 'string', text: 'string', embedding: `vector[${dims}]` } as const,
    components: { tokenizer },
  });
  await insertMultiple(
    db,
    docs.map((d) => ({ key: d.id, text: d.text, embedding: Array.from(d.embedding) })),
  );
  return db;
}

/**
 * Orama's vector similarity floor: `-1` (no floor, as our vector leg: every document is scored and
 * sorted, the most work) or `'default'` (Orama's own default, 0.8: only documents at least that
 * close are kept, so less to sort, and fewer results).
 */
export type OramaSimilarity = -1 | 'default';

/** Orama's default vector similarity floor (`DEFAULT_SIMILARITY` in Orama 3). */
export const ORAMA_DEFAULT_SIMILARITY = 0.8;

/**
 * Runs one Orama search and returns document keys, best first. `tolerance`: Orama's typo
 * tolerance for the full-text side (words within that Levenshtein distance of a query word match,
 * as do words it is a prefix of: Orama matches prefixes in every search); 0, Orama's default, for
 * none.
 */
export async function oramaSearch(
  db: AnyOrama,
  mode: OramaMode,
  term: string,
  vector: Float32Array,
  limit: number,
  similarity: OramaSimilarity = -1,
  tolerance = 0,
): Promise<string[]> {
  const v = { value: Array.from(vector), property: 'embedding' };
  const floor = similarity === 'default' ? {} : { similarity };
  const typos = tolerance > 0 ? { tolerance } : {};
  const params =
    mode === 'fulltext'
      ? { term, properties: ['text'], limit, threshold: 1, ...typos }
      : mode === 'vector'
        ? { mode: 'vector' as const, vector: v, limit, ...floor }
        : { mode: 'hybrid' as const, term, vector: v, limit, ...floor, threshold: 1, ...typos };
  const result = await search(db, params as never);
  return (result.hits as unknown as { document: { key: string } }[]).map((h) => h.document.key);
}
