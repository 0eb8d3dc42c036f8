import {
  AnamnesisError,
  budgetCut,
  countTokens,
  fuse,
  mmr,
  poolSize,
  prepareFtsQuery,
  sessionFirst,
  usageDecay,
  valueDensity,
  type CandidateFeatures,
  type RankedList,
  type ScoredCandidate,
  type ScoringProfile,
} from '@anamnesis/ranking';
import { applyContext } from './context-signal.ts';
import { dateLeg } from './date-leg.ts';
import { buildFilter, IDENTIFIER } from './filter.ts';
import { resolveProfile } from './profiles.ts';
import type { Columns, Reader } from './reader.ts';
import {
  candidateRows,
  memoryRows,
  readRidsByIds,
  sessionRows,
  toMemory,
  type CandidateRow,
  type MemoryRow,
} from './store.ts';
import type { Explain, RecallOptions, RecallResult } from './types.ts';
import type { VectorLeg } from './vector-leg.ts';

/** What the pipeline reads. */
export interface RecallContext {
  /** The store's reads, through kept prepared statements. */
  read: Reader;
  leg: VectorLeg;
  /** The time of the query, ms since the epoch. */
  now: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PRIOR_LEGS = new Set(['importance', 'recency', 'usage']);

interface Validated {
  profile: ScoringProfile;
  topK: number;
  tokenBudget: number | undefined;
  minSimilarity: number;
  neighbors: number;
  mmr: { lambda: number; duplicateThreshold?: number; tagWeight: number } | null;
  maxHops: number;
  undirected: boolean;
}

function validate(options: RecallOptions): Validated {
  const known = new Set([
    'profile',
    'topK',
    'tokenBudget',
    'filter',
    'minSimilarity',
    'graph',
    'extraLists',
    'groupBy',
    'neighbors',
    'mmr',
    'recencyMode',
    'explain',
    'noCache',
  ]);
  for (const key of Object.keys(options)) {
    if (!known.has(key))
      throw new AnamnesisError('INVALID_INPUT', `unknown recall option ${JSON.stringify(key)}`);
  }
  const base = resolveProfile(options.profile ?? 'default');
  const profile: ScoringProfile = options.recencyMode
    ? { ...base, recencyMode: options.recencyMode }
    : base;
  if (
    options.recencyMode !== undefined &&
    !['boost', 'dampen', 'neutral'].includes(options.recencyMode)
  ) {
    throw new AnamnesisError('INVALID_INPUT', "recencyMode must be 'boost', 'dampen' or 'neutral'");
  }
  const topK = options.topK ?? 10;
  if (!Number.isInteger(topK) || topK < 1 || topK > 1000)
    throw new AnamnesisError('INVALID_INPUT', 'topK must be an integer in [1, 1000]');
  const tokenBudget = options.tokenBudget;
  if (tokenBudget !== undefined && (!Number.isFinite(tokenBudget) || tokenBudget < 1)) {
    throw new AnamnesisError('INVALID_INPUT', 'tokenBudget must be a positive number of tokens');
  }
  const minSimilarity = options.minSimilarity ?? profile.minSimilarity;
  if (
    typeof minSimilarity !== 'number' ||
    !Number.isFinite(minSimilarity) ||
    minSimilarity < -1 ||
    minSimilarity > 1
  ) {
    throw new AnamnesisError('INVALID_INPUT', 'minSimilarity must be within [-1, 1]');
  }
  const neighbors = options.neighbors ?? 0;
  if (!Number.isInteger(neighbors) || neighbors < 0 || neighbors > 20)
    throw new AnamnesisError('INVALID_INPUT', 'neighbors must be an integer in [0, 20]');
  if (options.groupBy !== undefined && options.groupBy !== 'session')
    throw new AnamnesisError('INVALID_INPUT', "groupBy must be 'session'");
  let mmrSpec = profile.mmr;
  if (options.mmr === false) mmrSpec = null;
  else if (options.mmr === true) mmrSpec = profile.mmr ?? { lambda: 0.5, tagWeight: 0.35 };
  else if (options.mmr !== undefined) {
    if (typeof options.mmr !== 'object' || options.mmr === null)
      throw new AnamnesisError('INVALID_INPUT', 'mmr must be a boolean or an object');
    const lambda = options.mmr.lambda ?? profile.mmr?.lambda ?? 0.5;
    if (!Number.isFinite(lambda))
      throw new AnamnesisError('INVALID_INPUT', 'mmr.lambda must be finite');
    const dup = options.mmr.duplicateThreshold;
    if (dup !== undefined && !Number.isFinite(dup))
      throw new AnamnesisError('INVALID_INPUT', 'mmr.duplicateThreshold must be finite');
    mmrSpec = {
      lambda,
      tagWeight: 0.35,
      ...(dup !== undefined ? { duplicateThreshold: dup } : {}),
    };
  }
  const maxHops = options.graph?.maxHops ?? 2;
  if (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > 5)
    throw new AnamnesisError('INVALID_INPUT', 'graph.maxHops must be an integer in [1, 5]');
  return {
    profile,
    topK,
    tokenBudget,
    minSimilarity,
    neighbors,
    mmr: mmrSpec,
    maxHops,
    undirected: options.graph?.undirected ?? true,
  };
}

function ftsLeg(
  ctx: RecallContext,
  query: string,
  where: string,
  params: (string | number | null)[],
  limit: number,
): RankedList {
  const match = prepareFtsQuery(query);
  if (match === '') return { leg: 'fts', items: [] };
  // Without a filter the FTS table answers alone (no join with the rows: measurably faster).
  // BM25 as a positive magnitude: higher is better.
  const item = (c: Columns) => ({ id: String(c.num(0)), score: -c.num(1) });
  const items =
    where === '1'
      ? ctx.read.all(
          'SELECT rowid, bm25(memories_fts, 1.0, 0.5) AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT ?',
          [match, limit],
          item,
        )
      : ctx.read.all(
          `SELECT m.rid, bm25(memories_fts, 1.0, 0.5) AS s FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
           WHERE memories_fts MATCH ? AND ${where} ORDER BY s LIMIT ?`,
          [match, ...params, limit],
          item,
        );
  return { leg: 'fts', items };
}

function allowedRids(
  ctx: RecallContext,
  where: string,
  params: (string | number | null)[],
): Set<number> | undefined {
  if (where === '1') return undefined;
  return new Set(
    ctx.read.all(`SELECT m.rid FROM memories m WHERE ${where}`, params, (c) => c.num(0)),
  );
}

/** Bounded-hop proximity from seed rows over links, ranked by hop distance (score = −hops). */
function graphLeg(
  ctx: RecallContext,
  seeds: number[],
  maxHops: number,
  undirected: boolean,
  allowed: Set<number> | undefined,
  limit: number,
): RankedList {
  const dist = new Map<number, number>();
  const seedSet = new Set(seeds);
  let frontier = [...seedSet];
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const json = JSON.stringify(frontier);
    const sql = undirected
      ? 'SELECT dst FROM links WHERE src IN (SELECT value FROM json_each(?1)) UNION SELECT src FROM links WHERE dst IN (SELECT value FROM json_each(?1))'
      : 'SELECT dst FROM links WHERE src IN (SELECT value FROM json_each(?1))';
    const next: number[] = [];
    for (const r of ctx.read.all(sql, [json], (c) => c.num(0))) {
      if (seedSet.has(r) || dist.has(r)) continue;
      dist.set(r, hop);
      next.push(r);
    }
    frontier = next;
  }
  const items = [...dist]
    .filter(([rid]) => !allowed || allowed.has(rid))
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([rid, hops]) => ({ id: String(rid), score: -hops }));
  return { leg: 'graph', items };
}

/** Runs the pipeline of the README: legs → fuse → post-fusion → MMR → select → explain. */
export async function recall(
  ctx: RecallContext,
  query: string,
  options: RecallOptions,
): Promise<RecallResult[]> {
  const v = validate(options);
  const { profile } = v;
  const { where, params } = buildFilter(options.filter);
  const { perLeg, beforeRerank } = poolSize(profile, v.tokenBudget ? Math.max(v.topK, 50) : v.topK);
  const queryVector = await ctx.leg.query(query);

  // Candidate legs: query-dependent lists of rids (as strings until rows are read).
  const lists: RankedList[] = [];
  const allowed =
    profile.legs.includes('vector') || options.graph ? allowedRids(ctx, where, params) : undefined;
  if (profile.legs.includes('fts')) lists.push(ftsLeg(ctx, query, where, params, perLeg));
  if (profile.legs.includes('vector')) {
    lists.push({
      leg: 'vector',
      items: ctx.leg
        .search(queryVector, perLeg, allowed)
        .map((h) => ({ id: String(h.rid), score: h.score })),
    });
  }
  if (profile.legs.includes('date'))
    lists.push(dateLeg(ctx.read, ctx.leg, queryVector, query, where, params, perLeg));
  if (profile.legs.includes('graph') || options.graph) {
    let seeds: number[];
    if (options.graph?.seeds) {
      if (
        !Array.isArray(options.graph.seeds) ||
        options.graph.seeds.some((s) => typeof s !== 'string')
      ) {
        throw new AnamnesisError('INVALID_INPUT', 'graph.seeds must be an array of ids');
      }
      seeds = [...readRidsByIds(ctx.read, options.graph.seeds).values()];
    } else {
      seeds = lists.flatMap((l) => l.items.slice(0, 3).map((i) => Number(i.id)));
    }
    lists.push(graphLeg(ctx, seeds, v.maxHops, v.undirected, allowed, perLeg));
  }
  const extraWeights: Record<string, number> = {};
  const extraLists = options.extraLists ?? [];
  if (!Array.isArray(extraLists))
    throw new AnamnesisError('INVALID_INPUT', 'extraLists must be an array');
  for (const extra of extraLists) {
    if (
      !extra ||
      typeof extra.label !== 'string' ||
      !IDENTIFIER.test(extra.label) ||
      !Array.isArray(extra.items) ||
      extra.items.some((i) => !i || typeof i.id !== 'string' || !Number.isFinite(i.score))
    ) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        'each extra list needs an identifier label and items of a string id and a finite score',
      );
    }
    if (['fts', 'vector', 'graph', 'date', ...PRIOR_LEGS].includes(extra.label)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `extra list label ${extra.label} is a built-in leg`,
      );
    }
    const rids = readRidsByIds(
      ctx.read,
      extra.items.map((i) => i.id),
    );
    const items = extra.items.filter(
      (i) => rids.has(i.id) && (!allowed || allowed.has(rids.get(i.id)!)),
    );
    lists.push({
      leg: extra.label,
      items: items.map((i) => ({ id: String(rids.get(i.id)), score: i.score })),
    });
    if (extra.weight !== undefined) {
      if (!Number.isFinite(extra.weight))
        throw new AnamnesisError('INVALID_INPUT', 'extra list weight must be finite');
      extraWeights[extra.label] = extra.weight;
    }
  }

  // Features of every candidate (filters were applied inside each leg); whole rows (text, tags,
  // metadata) are read below only for what MMR, a token budget or the answer needs.
  const candidateRids = [...new Set(lists.flatMap((l) => l.items.map((i) => Number(i.id))))];
  const rows = candidateRows(ctx.read, candidateRids);
  const whole = new Map<number, MemoryRow>();
  /** Whole rows of these candidates, read once each. */
  const wholeRows = (rids: readonly number[]): Map<number, MemoryRow> => {
    const missing = rids.filter((rid) => !whole.has(rid));
    for (const [rid, row] of memoryRows(ctx.read, missing)) whole.set(rid, row);
    return whole;
  };
  const features = new Map<string, CandidateFeatures>();
  const similarity = ctx.leg.similarities([...rows.keys()], queryVector);
  for (const [rid, row] of rows) {
    features.set(String(rid), {
      similarity: similarity.get(rid)!,
      importance: row.importance,
      ageHours: Math.max(0, (ctx.now - row.createdAt) / HOUR),
      accessCount: row.accessCount,
      memoryScore: row.memoryScore,
    });
  }
  // Prior legs rank the candidates by a stored signal; they never add candidates.
  const known = (l: RankedList) => ({ ...l, items: l.items.filter((i) => rows.has(Number(i.id))) });
  const fused: RankedList[] = lists.map(known);
  const present = [...rows.values()];
  if (profile.legs.includes('importance')) {
    fused.push({
      leg: 'importance',
      items: present
        .filter((r) => r.importance > 0)
        .sort((a, b) => b.importance - a.importance || a.rid - b.rid)
        .map((r) => ({ id: String(r.rid), score: r.importance })),
    });
  }
  if (profile.legs.includes('recency')) {
    fused.push({
      leg: 'recency',
      items: [...present]
        .sort((a, b) => b.createdAt - a.createdAt || a.rid - b.rid)
        .map((r) => ({ id: String(r.rid), score: -(ctx.now - r.createdAt) / HOUR })),
    });
  }
  if (profile.legs.includes('usage')) fused.push(usageLeg(ctx, present));

  const fusionProfile: ScoringProfile =
    profile.fusion.kind === 'rrf' && Object.keys(extraWeights).length > 0
      ? {
          ...profile,
          fusion: { ...profile.fusion, weights: { ...profile.fusion.weights, ...extraWeights } },
        }
      : profile;
  let scored = fuse(fusionProfile, fused, features);

  // Post-fusion: similarity floor, dedup by content (keep the best).
  const seenHash = new Set<string>();
  scored = scored.filter((c) => {
    if (c.similarity < v.minSimilarity) return false;
    const hash = rows.get(Number(c.id))!.contentHash;
    if (seenHash.has(hash)) return false;
    seenHash.add(hash);
    return true;
  });

  if (profile.context) {
    scored = applyContext(
      ctx.read,
      scored,
      rows,
      profile.context,
      { where, params },
      (rids) => ctx.leg.similarities(rids, queryVector),
      (row, similarity) => {
        if (similarity < v.minSimilarity || seenHash.has(row.contentHash)) return false;
        seenHash.add(row.contentHash);
        return true;
      },
      // a neighbour below what can be selected is not worth reading
      v.mmr || v.tokenBudget !== undefined ? beforeRerank : v.topK,
    );
  }

  const sessionInfo = new Map<string, Explain['session']>();
  if (options.groupBy === 'session') {
    const grouped = sessionFirst(
      scored.map((c) => ({
        id: c.id,
        session: rows.get(Number(c.id))!.session ?? `\u0000${c.id}`,
        score: c.score,
      })),
    );
    const byId = new Map(scored.map((c) => [c.id, c]));
    scored = grouped.map((g) => {
      const c = byId.get(g.id)!;
      sessionInfo.set(g.id, {
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

  // Diversity: MMR over the head of the fused list.
  const mmrRank = new Map<string, number>();
  let ordered: ScoredCandidate[] = scored;
  if (v.mmr && scored.length > 1) {
    const head = scored.slice(0, beforeRerank);
    const headRids = head.map((c) => Number(c.id));
    const vectors = ctx.leg.vectors(headRids);
    const tagged = wholeRows(headRids);
    const picked = mmr(
      head.map((c, i) => ({
        id: c.id,
        relevance: c.score,
        vector: vectors[i]!,
        tags: tagged.get(headRids[i]!)!.tags,
      })),
      {
        lambda: v.mmr.lambda,
        tagWeight: v.mmr.tagWeight,
        ...(v.mmr.duplicateThreshold !== undefined
          ? { duplicateThreshold: v.mmr.duplicateThreshold }
          : {}),
      },
    );
    const byId = new Map(head.map((c) => [c.id, c]));
    ordered = picked.map((p) => {
      mmrRank.set(p.id, p.rank);
      return byId.get(p.id)!;
    });
  }

  // Select: topK, or a token budget filled by value density.
  let selected: ScoredCandidate[];
  if (v.tokenBudget !== undefined) {
    const texts = wholeRows(ordered.map((c) => Number(c.id)));
    const dense = ordered
      .map((c) => ({ c, tokens: countTokens(texts.get(Number(c.id))!.text) }))
      .map((x) => ({ ...x, density: valueDensity({ score: x.c.score, tokens: x.tokens }) }))
      .sort((a, b) => b.density - a.density);
    selected = budgetCut(
      dense.map((x) => ({ id: x.c.id, tokens: x.tokens, c: x.c })),
      v.tokenBudget,
    ).map((s) => s.item.c);
  } else {
    selected = ordered.slice(0, v.topK);
  }

  const results: RecallResult[] = [];
  const answer = wholeRows(selected.map((c) => Number(c.id)));
  for (const c of selected) {
    const row = answer.get(Number(c.id))!;
    const result: RecallResult = { ...toMemory(row), score: c.score, similarity: c.similarity };
    if (options.explain) {
      result.explain = {
        profile: profile.name,
        legs: c.legs,
        contributions: c.contributions,
        ...(sessionInfo.has(c.id) ? { session: sessionInfo.get(c.id)! } : {}),
        ...(mmrRank.has(c.id) ? { mmrRank: mmrRank.get(c.id)! } : {}),
      };
    }
    results.push(result);
    if (v.neighbors > 0 && row.session !== null) {
      for (const n of neighborsOf(ctx, row, v.neighbors)) {
        if (results.some((r) => r.id === n.id) || selected.some((s) => s.id === String(n.rid)))
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
          similarity: ctx.leg.similarities([n.rid], queryVector).get(n.rid)!,
          ...(options.explain
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
  return results;
}

function usageLeg(ctx: RecallContext, rows: CandidateRow[]): RankedList {
  const events = ctx.read.all(
    "SELECT rid, at FROM usage WHERE event IN ('selected', 'used') AND rid IN (SELECT value FROM json_each(?))",
    [JSON.stringify(rows.map((r) => r.rid))],
    (c) => [c.num(0), c.num(1)] as const,
  );
  const ages = new Map<number, number[]>();
  for (const [rid, at] of events) {
    const list = ages.get(rid) ?? [];
    list.push(Math.max(0, (ctx.now - at) / DAY));
    ages.set(rid, list);
  }
  const items = [...ages]
    .map(([rid, a]) => ({ rid, score: usageDecay(a, 7) }))
    .sort((a, b) => b.score - a.score || a.rid - b.rid)
    .map((x) => ({ id: String(x.rid), score: x.score }));
  return { leg: 'usage', items };
}

/** Up to n memories before and n after `row` in its session, in time order. */
function neighborsOf(ctx: RecallContext, row: MemoryRow, n: number): MemoryRow[] {
  const before = sessionRows(ctx.read, row, 'before', n).reverse();
  const after = sessionRows(ctx.read, row, 'after', n);
  return [...before, ...after];
}
