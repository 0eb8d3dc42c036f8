import {
  applyPriors,
  asksSelf,
  budgetCut,
  compress,
  countTokens,
  fuse,
  mmr,
  poolSize,
  relationWordsOf,
  sessionFirst,
  valueDensity,
  wholeFirst,
  type CandidateFeatures,
  type PriorFeatures,
  type RankedList,
  type ScoredCandidate,
  type ScoringProfile,
} from '@anamnesis/ranking';
import { applyContext } from './context-signal.ts';
import { dateLeg, inWindows } from './date-leg.ts';
import { applySpeaker } from './speaker-signal.ts';
import { buildFilter } from '../input/filter.ts';
import { lexicalWords } from '../store/lexical.ts';
import {
  allowedRids,
  allPinned,
  expansionLeg,
  extraLeg,
  ftsLeg,
  graphLeg,
  importanceLeg,
  pinnedRids,
  recencyLeg,
  usageLeg,
  usageScores,
  vectorLeg,
} from './recall-legs.ts';
import { planRecall, type RecallPlan } from './recall-options.ts';
import {
  bestPassages,
  cosineScale,
  idf,
  lexicalCoverage,
  meaningStrength,
  queryEvidence,
  sampleRids,
  storeSize,
  timedMatch,
  WEAK_MATCH,
} from './match.ts';
import { ftsString, parseQuery } from './query/parse.ts';
import { readTime, type TimeReading } from './query/time.ts';
import { standsAlone } from './query/word-at.ts';
import { modelShare } from './model-share.ts';
import { modelQuery, resolveQuery, type ResolvedSlot } from './query/resolve.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import { keptCandidateRows, type RecallReads, type Succession } from './rid-memo.ts';
import { LONG_CHARS } from './passage-evidence.ts';
import { applySupersession } from './supersession-signal.ts';
import { StageClock } from './stage-clock.ts';
import {
  memoryRows,
  readRidsByIds,
  sessionRows,
  toMemory,
  type MemoryRow,
} from '../store/store.ts';
import type {
  Explain,
  QueryReading,
  RecallOptions,
  RecallResult,
  RecallStageTimes,
} from '../types.ts';

/** What the pipeline reads. */
export interface RecallContext extends RecallReads {
  similarity: SimilarityBackend;
  /** The time of the query, ms since the epoch. */
  now: number;
  /** Where each stage's time is added up (none: not timed). */
  stages?: RecallStageTimes;
}

const HOUR = 3_600_000;

/** Candidates checked for a newer memory that supersedes them (at least `topK`). */
const SUPERSESSION_HEAD = 30;
/** The lexical coverage of a memory holding every part of a query (sums of shares round). */
const WHOLE = 1 - 1e-9;

/** Runs the pipeline of the README: legs → fuse → post-fusion → MMR → select → explain. */
export async function recall(
  ctx: RecallContext,
  query: string,
  options: RecallOptions,
): Promise<RecallResult[]> {
  const clock = new StageClock(ctx.stages);
  const plan = planRecall(options);
  const { profile } = plan;
  const filter = buildFilter(options.filter);
  const { perLeg, beforeRerank } = poolSize(
    profile,
    plan.tokenBudget ? Math.max(plan.topK, 50) : plan.topK,
  );
  // the time the query names becomes windows of the date leg; its words leave the other legs
  const time = readTime(query, ctx.now);
  const asked = time.rest;
  const slots = withRelationWords(
    resolveQuery(
      ctx.read,
      asked,
      parseQuery(asked, plan.typing),
      (w) => ctx.similarity.knows?.(w) ?? false,
      ctx.memo.match.words,
    ),
    asked,
  );
  // the model reads corrected words and the completed word being typed, as the lexical leg does
  const read = modelQuery(asked, slots);
  clock.lap('query');
  const queryVector = await ctx.similarity.query(read);
  clock.lap('embed');

  // Candidate legs: query-dependent lists of rids (as strings until rows are read).
  const lists: RankedList[] = [];
  const graph = profile.legs.includes('graph') || options.graph !== undefined;
  const allowed =
    profile.legs.includes('vector') || options.graph ? allowedRids(ctx.read, filter) : undefined;
  const queryWords = lexicalWords(read);
  const evidence = queryEvidence(ctx.read, ctx.memo.match, slots, (s) =>
    relatedWords(ctx.similarity, read, s),
  );
  /** The query's coverage by each of these memories (a long one's: its best passage's). */
  const coverageOf = (rids: readonly number[]) => {
    const rows = keptCandidateRows(ctx, rids);
    const long = rids.filter((rid) => (rows.get(rid)?.length ?? 0) > LONG_CHARS);
    return lexicalCoverage(ctx.read, ctx.memo.match, evidence, rids, long);
  };
  clock.lap('query');
  if (profile.legs.includes('fts')) {
    const site = slots.some((s) => s.kind === 'site');
    const fts = ftsLeg(ctx.read, ftsPhrases(slots), filter, perLeg, { site, memo: ctx.memo.match });
    const weigh = profile.lexicalEvidence;
    if (weigh) {
      // a rank won on a small share of the query (one common word of it) counts for that share
      const cover = coverageOf(fts.items.map((i) => Number(i.id)));
      // …and, with a margin, by its BM25 score against the leg's best
      const best = fts.items.reduce((m, i) => Math.max(m, i.score), 0);
      const margin = weigh.margin ?? 0;
      fts.items = fts.items.map((i) => ({
        ...i,
        evidence:
          Math.min(1, cover.get(Number(i.id))! / weigh.full) ** weigh.exponent *
          (margin > 0 && best > 0 ? (i.score / best) ** margin : 1),
      }));
    }
    lists.push(fts);
    clock.lap('fts');
  }
  if (profile.legs.includes('expansion')) {
    lists.push(
      expansionLeg(ctx.read, ctx.similarity, asked, queryWords, filter, perLeg, ctx.memo.match),
    );
    clock.lap('expansion');
  }
  const scale = cosineScale(
    ctx.similarity
      .similarities(
        sampleRids(ctx.read, ctx.memo.match, ctx.similarity.rids?.bind(ctx.similarity)),
        queryVector,
      )
      .values(),
    storeSize(ctx.read, ctx.memo.match),
  );
  if (profile.legs.includes('vector')) {
    lists.push(vectorLeg(ctx.similarity, queryVector, perLeg, allowed));
  }
  clock.lap('vector');
  if (profile.legs.includes('date')) {
    const { where, params } = filter;
    lists.push(
      dateLeg(
        ctx.read,
        ctx.similarity,
        queryVector,
        time.readings,
        where,
        params,
        perLeg,
        ctx.memo.windows,
        slots.length === 0,
      ),
    );
    clock.lap('date');
  }
  if (graph) {
    const seeds = plan.graphSeeds
      ? [...readRidsByIds(ctx.read, plan.graphSeeds).values()]
      : // a leg's first three, but never a memory the model turns from (a cosine ≤ 0 is no sign
        // that the query found it, only that the store is small): a seed is not its own hop
        lists.flatMap((l) =>
          l.items
            .filter((i) => l.leg !== 'vector' || i.score > 0)
            .slice(0, 3)
            .map((i) => Number(i.id)),
        );
    lists.push(graphLeg(ctx.read, seeds, plan.maxHops, plan.undirected, allowed, perLeg));
  }
  for (const extra of plan.extraLists) lists.push(extraLeg(ctx.read, extra, allowed));
  // Pinned memories are candidates whenever they match, however far down the other legs they are.
  const pinnedList = pinnedLeg(
    pinnedRids(ctx, filter),
    coverageOf,
    (rids) => {
      const cosines = ctx.similarity.similarities(rids, queryVector);
      return new Map(rids.map((rid) => [rid, meaningStrength(cosines.get(rid) ?? 0, scale)]));
    },
    perLeg,
    profile.lexicalEvidence,
  );
  if (pinnedList) lists.push(pinnedList);
  clock.lap('graph');

  // Features of every candidate (filters were applied inside each leg); whole rows (text, tags,
  // metadata) are read below only for what MMR, a token budget or the answer needs.
  const candidateRids = [...new Set(lists.flatMap((l) => l.items.map((i) => Number(i.id))))];
  const rows = keptCandidateRows(ctx, candidateRids);
  const whole = new Map<number, MemoryRow>();
  /** Whole rows of these candidates, read once each. */
  const wholeRows = (rids: readonly number[]): Map<number, MemoryRow> => {
    const missing = rids.filter((rid) => !whole.has(rid));
    for (const [rid, row] of memoryRows(ctx.read, missing)) whole.set(rid, row);
    return whole;
  };
  const features = new Map<string, CandidateFeatures>();
  const similarity = ctx.similarity.similarities([...rows.keys()], queryVector);
  // a pinned memory never decays: age 0 for every recency (multiplier, factor, prior, leg)
  const pinned = allPinned(ctx);
  for (const [rid, row] of rows) {
    features.set(String(rid), {
      similarity: similarity.get(rid)!,
      importance: row.importance,
      ageHours: pinned.has(rid) ? 0 : Math.max(0, (ctx.now - row.createdAt) / HOUR),
      accessCount: row.accessCount,
      memoryScore: row.memoryScore,
    });
  }
  clock.lap('rows');
  // Prior legs rank the candidates by a stored signal; they never add candidates.
  const known = (l: RankedList) => ({ ...l, items: l.items.filter((i) => rows.has(Number(i.id))) });
  const fused: RankedList[] = lists.map(known);
  const present = [...rows.values()];
  if (profile.legs.includes('importance')) fused.push(importanceLeg(present));
  if (profile.legs.includes('recency')) fused.push(recencyLeg(present, ctx.now, pinned));
  if (profile.legs.includes('usage')) fused.push(usageLeg(ctx, present, ctx.now));

  const weights: Record<string, number> = { ...plan.extraWeights };
  if (profile.fusion.kind === 'rrf')
    for (const leg of ['vector', 'date', 'expansion']) {
      const share = modelShare(queryWords, leg === 'date', ctx.similarity.languages);
      if (share < 1)
        weights[leg] = (profile.fusion.weights[leg] ?? profile.fusion.defaultWeight) * share;
    }
  const fusionProfile: ScoringProfile =
    profile.fusion.kind === 'rrf' && Object.keys(weights).length > 0
      ? {
          ...profile,
          fusion: {
            ...profile.fusion,
            weights: { ...profile.fusion.weights, ...weights },
          },
        }
      : profile;
  let scored = fuse(fusionProfile, fused, features);
  if (profile.priors) {
    const usage = profile.priors.usage !== 0 ? usageScores(ctx, present, ctx.now) : undefined;
    const priorFeatures = new Map<string, PriorFeatures>();
    for (const [id, f] of features)
      priorFeatures.set(id, {
        ageHours: f.ageHours,
        importance: f.importance,
        usage: usage?.get(Number(id)) ?? 0,
      });
    scored = applyPriors(scored, priorFeatures, profile.priors);
  }

  // Post-fusion: similarity floor, dedup by content (keep the best).
  const seenHash = new Set<string>();
  scored = scored.filter((c) => {
    if (c.similarity < plan.minSimilarity) return false;
    const hash = rows.get(Number(c.id))!.contentHash;
    if (seenHash.has(hash)) return false;
    seenHash.add(hash);
    return true;
  });
  clock.lap('fusion');

  if (profile.context) {
    scored = applyContext(
      ctx,
      scored,
      rows,
      profile.context,
      filter,
      (rids) => ctx.similarity.similarities(rids, queryVector),
      (row, similarity) => {
        if (similarity < plan.minSimilarity || seenHash.has(row.contentHash)) return false;
        seenHash.add(row.contentHash);
        return true;
      },
      // a neighbour below what can be selected is not worth reading
      plan.mmr || plan.tokenBudget !== undefined ? beforeRerank : plan.topK,
    );
  }

  if (profile.speaker) {
    // a turn that cannot be lifted into what can be selected is not worth reading
    const limit = plan.groupBySession
      ? Infinity
      : plan.mmr || plan.tokenBudget !== undefined
        ? beforeRerank
        : plan.topK;
    scored = applySpeaker(ctx, query, scored, profile.speaker, limit);
  }

  const sessionInfo = new Map<string, Explain['session']>();
  if (plan.groupBySession) {
    scored = groupBySession(scored, (id) => rows.get(Number(id))!.session, sessionInfo);
  }

  if (profile.wholeFirst && evidence.slots.length >= 2) {
    // a memory holding every part of the query above those holding some, unless their meaning
    // is clearly stronger
    const head = scored.slice(0, profile.wholeFirst.head);
    const cover = coverageOf(head.map((c) => Number(c.id)));
    scored = [
      ...wholeFirst(
        head,
        head.map((c) => ({
          whole: cover.get(Number(c.id))! >= WHOLE,
          meaning: meaningStrength(c.similarity, scale),
        })),
        // a bag of words does not read "without": meaning cannot outweigh a negation not held
        slots.some((s) => s.kind === 'negation') ? Infinity : profile.wholeFirst.margin,
      ),
      ...scored.slice(head.length),
    ];
  }

  // current facts first: a superseded memory gives its place to its newest successor
  let inherits = new Map<string, string>();
  let superseded = new Map<string, Succession>();
  if (profile.supersession) {
    const head = Math.max(SUPERSESSION_HEAD, plan.topK);
    ({ scored, inherits, superseded } = applySupersession(
      ctx,
      query,
      scored,
      head,
      (rids) => ctx.similarity.similarities(rids, queryVector),
      (rids) => new Map([...wholeRows(rids)].map(([rid, row]) => [rid, row.text])),
    ));
  }

  clock.lap('signals');

  // Diversity: MMR over the head of the fused list.
  const mmrRank = new Map<string, number>();
  let ordered: ScoredCandidate[] = scored;
  if (plan.mmr && scored.length > 1) {
    const head = scored.slice(0, beforeRerank);
    const headRids = head.map((c) => Number(c.id));
    const vectors = ctx.similarity.vectors(headRids);
    const tagged = wholeRows(headRids);
    const picked = mmr(
      head.map((c, i) => ({
        id: c.id,
        relevance: c.score,
        vector: vectors[i]!,
        tags: tagged.get(headRids[i]!)!.tags,
      })),
      {
        lambda: plan.mmr.lambda,
        tagWeight: plan.mmr.tagWeight,
        ...(plan.mmr.duplicateThreshold !== undefined
          ? { duplicateThreshold: plan.mmr.duplicateThreshold }
          : {}),
      },
    );
    const byId = new Map(head.map((c) => [c.id, c]));
    ordered = picked.map((p) => {
      mmrRank.set(p.id, p.rank);
      return byId.get(p.id)!;
    });
  }

  // Select: topK, or a token budget filled by value density (compressing what does not fit).
  const selected: Selected[] =
    plan.tokenBudget === undefined
      ? ordered.slice(0, plan.topK).map((c) => ({ c }))
      : selectByBudget(ordered, wholeRows(ordered.map((c) => Number(c.id))), plan);

  clock.lap('mmr');

  // Match strength of what is selected: a query whose best answer is weak gets none.
  const selectedRids = selected.map((s) => Number(s.c.id));
  // a successor that took an older memory's place answers what the older did: its match too
  const inherited = selected.flatMap(({ c }) => {
    const from = inherits.get(c.id);
    const older = from === undefined ? undefined : scored.find((o) => o.id === from);
    return older ? [[c.id, older] as const] : [];
  });
  const coverage = coverageOf([...selectedRids, ...inherited.map(([, o]) => Number(o.id))]);
  // the time the query names is evidence too: memories made then hold it
  const made =
    time.readings.length > 0
      ? inWindows(ctx.read, time.readings, filter.where, filter.params, ctx.memo.windows)
      : undefined;
  const timeWeight = made ? idf(storeSize(ctx.read, ctx.memo.match), made.size) : 0;
  const strengthOf = (rid: number, similarity: number) => {
    const lexical = coverage.get(rid) ?? 0;
    const meaning = meaningStrength(similarity, scale);
    const rest = Math.max(lexical, meaning);
    if (!made) return { lexical, meaning, match: rest };
    const inWindow = made.has(rid);
    return {
      lexical,
      meaning,
      time: inWindow,
      match: timedMatch(rest, inWindow, evidence.total, timeWeight),
    };
  };
  const strength = new Map<number, ReturnType<typeof strengthOf>>();
  const olderOf = new Map(inherited);
  for (const { c } of selected) {
    let m = strengthOf(Number(c.id), c.similarity);
    const older = olderOf.get(c.id);
    if (older)
      m = { ...m, match: Math.max(m.match, strengthOf(Number(older.id), older.similarity).match) };
    strength.set(Number(c.id), m);
  }
  // even the best is too weak to answer: the store holds nothing on the query (unless the caller
  // named what to find: graph seeds or its own lists are evidence the query cannot weigh)
  const best = Math.max(0, ...[...strength.values()].map((m) => m.match));
  const callerEvidence = plan.graphSeeds !== undefined || plan.extraLists.length > 0;
  if (best < plan.minMatch && !callerEvidence) {
    clock.lap('answer');
    return [];
  }

  const results: RecallResult[] = [];
  const answer = wholeRows(selectedRids);
  /** The ids of these memories (the few a result's explanation names), in order. */
  const idsOf = (rids: readonly number[]): string[] => {
    const rows = wholeRows(rids);
    return rids.map((rid) => rows.get(rid)?.id ?? '');
  };
  /** The memory that superseded a result, for `explain.supersededBy`. */
  const supersededExplain = (s: Succession) => ({
    id: idsOf([s.by])[0]!,
    at: s.at,
    confirmed: s.confirmed,
  });
  // a long memory shows the passage that matched
  const passages = bestPassages(
    ctx.read,
    ctx.memo.match,
    evidence,
    selectedRids.filter((rid) => answer.get(rid)!.text.length > LONG_CHARS),
  );
  for (const { c, compressed } of selected) {
    const row = answer.get(Number(c.id))!;
    const m = strength.get(Number(c.id))!;
    const result: RecallResult = {
      ...toMemory(row),
      score: c.score,
      similarity: c.similarity,
      match: m.match,
    };
    if (m.match < WEAK_MATCH) result.weak = true;
    const passage = passages.get(Number(c.id));
    if (passage && passage.coverage > 0)
      result.passage = {
        text: row.text.slice(passage.start, passage.end).trim(),
        start: passage.start,
        end: passage.end,
      };
    if (compressed) result.compressed = compressed;
    if (plan.explain) {
      result.explain = {
        profile: profile.name,
        legs: c.legs,
        contributions: c.contributions,
        match: {
          lexical: m.lexical,
          meaning: m.meaning,
          ...(m.time !== undefined ? { time: m.time } : {}),
        },
        query: [...queryExplain(slots), ...time.readings.map(timeExplain)],
        ...(superseded.has(c.id) ? { supersededBy: supersededExplain(superseded.get(c.id)!) } : {}),
        ...(olderOf.has(c.id) ? { replaces: idsOf([Number(olderOf.get(c.id)!.id)])[0]! } : {}),
        ...(pinned.has(Number(c.id)) ? { pinned: true as const } : {}),
        ...(sessionInfo.has(c.id) ? { session: sessionInfo.get(c.id)! } : {}),
        ...(mmrRank.has(c.id) ? { mmrRank: mmrRank.get(c.id)! } : {}),
        ...(compressed
          ? {
              compression: {
                originalTokens: compressed.originalTokens,
                tokens: compressed.tokens,
                ratio: compressed.ratio,
                removedLines: compressed.removedLines,
              },
            }
          : {}),
      };
    }
    results.push(result);
    if (plan.neighbors > 0 && row.session !== null) {
      for (const n of neighborsOf(ctx, row, plan.neighbors)) {
        if (results.some((r) => r.id === n.id) || selected.some((s) => s.c.id === String(n.rid)))
          continue;
        const contribution = {
          component: 'neighbor',
          value: 1,
          weight: c.score,
          contribution: c.score,
        };
        results.push({
          ...toMemory(n),
          score: c.score,
          similarity: ctx.similarity.similarities([n.rid], queryVector).get(n.rid)!,
          match: m.match,
          ...(plan.explain
            ? {
                explain: {
                  profile: profile.name,
                  legs: [],
                  contributions: [contribution],
                  neighborOf: row.id,
                },
              }
            : {}),
        });
      }
    }
  }
  clock.lap('answer');
  return results;
}

/**
 * The model's nearest words to a word slot, as the expansion leg searches them (a word the query
 * writes in lower case, of three letters or more; never a name it capitalises), the query's own
 * words left out.
 */
function relatedWords(similarity: SimilarityBackend, query: string, s: ResolvedSlot): string[] {
  if (s.kind !== 'word' || s.prefix || !similarity.neighbours) return [];
  const word = s.correction ?? s.words[0]!;
  if (Array.from(word).length < 3) return [];
  if (!standsAlone(query, s.words[0]!)) return [];
  return similarity.neighbours(word).filter((n) => n !== word);
}

/**
 * A question about the person's own fact ("what is my address", "which car do I have") reads each
 * word that says a relation in the relation's other words too, as alternatives of its slot
 * (`relationWordsOf`: "address" → live, flat, house, cottage…): the note that answers it states
 * the fact ("the new place is a cottage in Ely", "now driving a Leaf"). Issue 70.
 */
function withRelationWords(slots: ResolvedSlot[], query: string): ResolvedSlot[] {
  if (!asksSelf(query)) return slots;
  return slots.map((s) => {
    if (s.kind !== 'word' || s.prefix) return s;
    const more = relationWordsOf(s.correction ?? s.words[0]!).map((w) => ftsString([w]));
    return more.length === 0 ? s : { ...s, terms: [...new Set([...s.terms, ...more])] };
  });
}

/** What the query was read as, for `explain.query`. */
function queryExplain(slots: readonly ResolvedSlot[]): QueryReading[] {
  return slots.map((s) => ({
    kind: s.kind,
    text: s.text,
    words: s.words,
    ...(s.prefix ? { prefix: true } : {}),
    ...(s.completions ? { completions: s.completions } : {}),
    ...(s.correction ? { correction: s.correction } : {}),
  }));
}

/** A time the query names, for `explain.query`. */
function timeExplain(t: TimeReading): QueryReading {
  return { kind: 'time', text: t.text, words: [], window: { start: t.start, end: t.end } };
}

/**
 * The lexical leg's phrases: every slot's alternatives (the leg ORs them), once per slot: a word
 * two slots share (the one word "note book" is stored as) counts for both in BM25.
 */
function ftsPhrases(slots: readonly ResolvedSlot[]): string[] {
  return slots.flatMap((s) => [...new Set(s.terms)]);
}

/** A selected candidate, with its compressed text when only that fitted the budget. */
interface Selected {
  c: ScoredCandidate;
  compressed?: NonNullable<RecallResult['compressed']>;
}

/**
 * Seed 002's token-budget selection: candidates by value density (score per token), taken while
 * they fit; with `compress`, one that does not fit is compressed by the four-stage pipeline and
 * taken when its compressed text fits. What is taken is returned in relevance order (the order of
 * `ordered`): density decides what fits, not which comes first.
 */
function selectByBudget(
  ordered: readonly ScoredCandidate[],
  texts: ReadonlyMap<number, MemoryRow>,
  plan: RecallPlan,
): Selected[] {
  const dense = ordered
    .map((c) => {
      const text = texts.get(Number(c.id))!.text;
      const tokens = countTokens(text);
      return { id: c.id, c, text, tokens, density: valueDensity({ score: c.score, tokens }) };
    })
    .sort((a, b) => b.density - a.density);
  const shrink = plan.compress
    ? (item: (typeof dense)[number], strict: boolean) => {
        const r = compress(item.text, { strict });
        return r.compressedTokens < item.tokens ? { ...r, tokens: r.compressedTokens } : null;
      }
    : undefined;
  const position = new Map(ordered.map((c, i) => [c.id, i]));
  return budgetCut(dense, plan.tokenBudget, shrink)
    .sort((a, b) => position.get(a.item.id)! - position.get(b.item.id)!)
    .map((s) => ({
      c: s.item.c,
      ...(s.compressed
        ? {
            compressed: {
              text: s.compressed.text,
              tokens: s.compressed.tokens,
              originalTokens: s.compressed.originalTokens,
              ratio: s.compressed.ratio,
              removedLines: s.compressed.removedLines,
            },
          }
        : {}),
    }));
}

/**
 * The `pinned` leg: of the pinned memories the filter allows (`rids`), those that share a word
 * with the query (lexical coverage above 0) or whose meaning strength is at least
 * {@link WEAK_MATCH} (0.3, where a result's meaning alone is no longer weak), best first by the
 * greater of the two, at most `limit`. Meaning strength places a cosine on the query's own scale
 * (how far it stands above the best cosine the store's memories reach by chance for that query),
 * so one floor holds for every model and store, where a raw cosine floor would not; below it, a
 * pinned memory would join queries it has nothing to do with. With a
 * profile's lexical evidence, a rank counts as the fts leg's does for that share of the query
 * (`min(1, share / full)^exponent`), so a pinned memory that holds one common word of the query
 * gains little. Undefined when no pinned memory qualifies.
 */
function pinnedLeg(
  rids: readonly number[],
  coverageOf: (rids: readonly number[]) => Map<number, number>,
  meaningOf: (rids: readonly number[]) => Map<number, number>,
  limit: number,
  weigh: ScoringProfile['lexicalEvidence'],
): RankedList | undefined {
  if (rids.length === 0) return undefined;
  const meaning = meaningOf(rids);
  const cover = coverageOf(rids);
  const items = rids
    .map((rid) => ({ rid, lexical: cover.get(rid) ?? 0, meaning: meaning.get(rid) ?? 0 }))
    .filter((x) => x.lexical > 0 || x.meaning >= WEAK_MATCH)
    .map((x) => ({ rid: x.rid, score: Math.max(x.lexical, x.meaning) }))
    .sort((a, b) => b.score - a.score || a.rid - b.rid)
    .slice(0, limit);
  if (items.length === 0) return undefined;
  return {
    leg: 'pinned',
    items: items.map((x) => ({
      id: String(x.rid),
      score: x.score,
      ...(weigh ? { evidence: Math.min(1, x.score / weigh.full) ** weigh.exponent } : {}),
    })),
  };
}

/** Memsense's session-first grouping: one result per session, with bounded turn support added. */
function groupBySession(
  scored: readonly ScoredCandidate[],
  sessionOf: (id: string) => string | null,
  info: Map<string, Explain['session']>,
): ScoredCandidate[] {
  const grouped = sessionFirst(
    scored.map((c) => ({ id: c.id, session: sessionOf(c.id) ?? `\u0000${c.id}`, score: c.score })),
  );
  const byId = new Map(scored.map((c) => [c.id, c]));
  return grouped.map((g) => {
    const c = byId.get(g.id)!;
    info.set(g.id, {
      sessionScore: g.sessionScore,
      turnSupport: g.turnSupport,
      supportingTurnCount: g.supportingTurnCount,
    });
    if (g.turnSupport === 0) return c;
    const contributions = [
      ...c.contributions,
      { component: 'turnSupport', value: g.turnSupport, weight: 1, contribution: g.turnSupport },
    ];
    return { ...c, score: c.score + g.turnSupport, contributions };
  });
}

/** Up to n memories before and n after `row` in its session, in time order. */
function neighborsOf(ctx: RecallContext, row: MemoryRow, n: number): MemoryRow[] {
  const before = sessionRows(ctx.read, row, 'before', n).reverse();
  const after = sessionRows(ctx.read, row, 'after', n);
  return [...before, ...after];
}
