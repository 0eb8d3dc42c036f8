export { STOPWORDS } from './stopwords.ts';
export {
  IDENTIFIER_PATTERN,
  MIN_SUBTOKEN_LEN,
  identifierTokens,
  splitIdentifier,
} from './identifiers.ts';
export {
  assertVector,
  cosine,
  cosineUnchecked,
  dot,
  norm,
  normalize,
  type Vector,
} from './cosine.ts';
export { normalizeBm25 } from './bm25.ts';
export {
  contextContributions,
  contextScores,
  type ContextItem,
  type ContextPair,
  type ContextScore,
  type ContextWeights,
} from './context.ts';
export { applyPriors, priorContributions, type PriorFeatures, type Priors } from './priors.ts';
export { namesSpeaker, normalizeSpeaker, queryWords, SPEAKER_META_KEY } from './speaker.ts';
export { ftsTokens, prepareFtsQuery, type FtsQueryOptions } from './fts-query.ts';
export {
  QUALIFYING_USAGE_EVENTS,
  halfLifeDecay,
  recencyDecay,
  recencyMultiplier,
  usageDecay,
  usageScore,
  type UsageEventKind,
} from './decay.ts';
export {
  bestLegRank,
  compareFused,
  indexList,
  sumContributions,
  type FusedItem,
  type IndexedList,
  type LegDetail,
  type RankedItem,
  type RankedList,
} from './ranked-list.ts';
export {
  MNEMOSYNE_WEIGHTS,
  mnemosyneBaseScore,
  weightedSum,
  type Contribution,
} from './weighted-sum.ts';
export {
  MNEMEXA_MIN_SIMILARITY,
  MNEMEXA_RECENCY_SHIFT,
  MNEMEXA_WEIGHTS,
  frequencyFactor,
  mnemexaScore,
  mnemexaWeights,
  similarityFactor,
  type RecencyMode,
} from './mnemexa.ts';
export {
  MEMSENSE_MEMORY_SCORE_WEIGHT,
  MEMSENSE_RRF_K,
  MEMSENSE_TURN_SUPPORT_CAP,
  MEMSENSE_TURN_SUPPORT_FACTOR,
  candidatePool,
  memsenseScore,
  sessionFirst,
  turnSupport,
  type SessionCandidate,
  type SessionResult,
} from './memsense.ts';
export { mmr, redundancy, tagJaccard, type MmrCandidate, type MmrOptions } from './mmr.ts';
export { wholeFirst, type WholeFirstItem } from './whole-first.ts';
export {
  asksHistory,
  asksSelf,
  factSubjects,
  RELATIONS,
  relationsOf,
  relationWordsOf,
  saysChange,
  supersedingRelation,
} from './supersession.ts';
export {
  boilerplateRatio,
  pathBoilerplateFloor,
  valueDensity,
  type DensityInput,
} from './value-density.ts';
export { budgetCut, type BudgetItem, type BudgetSelection, type Compressed } from './budget-cut.ts';
export {
  PROFILES,
  getProfile,
  poolSize,
  type Factor,
  type LegName,
  type LinearFusion,
  type RecencySpec,
  type RrfFusion,
  type ScoringProfile,
} from './profiles.ts';
export { fuse, type CandidateFeatures, type LegHit, type ScoredCandidate } from './fuse.ts';
export { ArcCache, type ArcSnapshot, type ArcStats } from './arc-cache.ts';
export { mulberry32 } from './mulberry32.ts';
export {
  DEFAULT_MAX_FEATURES,
  DEFAULT_MIN_DF,
  TfidfIndex,
  isStale,
  smoothedIdf,
  tokenize,
  tokenizerConfig,
  type TfidfDocument,
  type TfidfHit,
  type TfidfIndexJSON,
  type TfidfOptions,
  type TfidfSearchOptions,
} from './tfidf.ts';
export { sparseCosine, sparseDot, type SparseVector } from './sparse-vector.ts';
export { compress, countTokens, type CompressOptions, type CompressResult } from './compress.ts';
export { stripInvisible } from './invisible.ts';
export { chunkText, cutText, PASSAGE_CHARS } from './passages.ts';
export {
  DATA_NOTICE,
  DEFAULT_HEADING,
  fenceId,
  fenceLine,
  fenceText,
  MIN_CUT_TOKENS,
  memoryBlock,
  type MemoryBlockOptions,
  type MemoryLike,
} from './memory-block.ts';
export { foldEvents, mergeFolded, USAGE_HALF_LIFE_DAYS, type FoldedUsage } from './usage-fold.ts';
export {
  confirmedFact,
  extractFacts,
  MAX_FACT_CHARS,
  sentencesOf,
  type ExtractedFact,
  type FactExtraction,
  type FactKind,
  type SkippedClause,
  type SkipReason,
} from './fact-extraction.ts';
