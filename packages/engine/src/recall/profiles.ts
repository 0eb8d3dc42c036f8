import { AnamnesisError } from '@anamnesis/errors';
import { getProfile, PROFILES, type Priors, type ScoringProfile } from '@anamnesis/ranking';

/**
 * The `default` profile's priors: a memory created now gains 20% of its fused score, one 90 days
 * old 10%, one a year old about 1%; importance 1 gains 20% and 0 loses 20% (0.5, the default, is
 * neutral); a memory marked used gains up to 20% (one fresh use: 10%; uses decay with a 7-day
 * half-life). Enough for the newer, the more important or the more used of two comparable matches
 * to come first, too little to lift a weak match over a much better one. On LoCoMo dev (questions
 * about the distant past) recall@10 moves 0.7774 → 0.7748; the half-life is an app's to change:
 * `{ ...DEFAULT_PROFILE, name: 'mine', priors: { ...DEFAULT_PRIORS, halfLifeDays: 7 } }`.
 */
export const DEFAULT_PRIORS: Priors = Object.freeze({
  recency: 0.2,
  halfLifeDays: 90,
  importance: 0.2,
  usage: 0.2,
});

/**
 * The `default` profile: weighted RRF with k = 5 over the lexical (weight 1), vector (0.7), graph
 * (0.3), date (1: memories of a day or month the query names, by cosine; empty without one) and
 * expansion (0.3: BM25 over the model's nearest words to the query's lower-case words, "accident" →
 * "crash", "mishap"; empty without a static model) legs, a lexical rank weighed by the share of the
 * query the memory holds (full from 30% of its words by rarity, √ below: one common word of the
 * query is not a match), then the priors ({@link DEFAULT_PRIORS}: recency, importance and usage as a gentle
 * multiplier), no MMR, then conversation context: each memory is lifted
 * by 0.3 of the margin of its better immediate session neighbour, 0.1 of the one two turns away and
 * 0.3 of its session's best (the first 10 candidates look up their neighbours; no sessions, no
 * effect), then speaker focus: a memory whose app-given speaker (`meta.speaker`) the query names
 * (`{ speaker: 'Melanie' }` for "What does Melanie …?") gains its own score once more (no speaker
 * given, no effect: a note titled "Meeting: …" is never taken for a speaker). Chosen on LoCoMo dev data (`apps/bench/src/tune-default.ts`, `bench:locomo -- --cv`):
 * a sharp k, a lexical leg weighted above the static model's vectors, and context win; k = 5 is
 * what each fold of the 3-fold cross-validation chose on the other two conversations.
 */
export const DEFAULT_PROFILE: ScoringProfile = Object.freeze({
  name: 'default',
  description:
    'anamnesis: RRF k = 5, fts 1 / vector 0.7 / graph 0.3 / date 1 / expansion 0.3, lexical evidence (full at 0.3, exponent 0.5), priors (recency 0.2, half-life 90 days, importance 0.2, usage 0.2), session context 0.3 / 0.1 / 0.3, speaker focus 1',
  legs: ['fts', 'vector', 'graph', 'date', 'expansion'],
  fusion: {
    kind: 'rrf',
    k: 5,
    weights: { fts: 1, vector: 0.7, graph: 0.3, date: 1, expansion: 0.3 },
    defaultWeight: 1,
    absent: 'skip',
    memoryScoreWeight: 0,
  },
  recency: { kind: 'none' },
  recencyMode: 'neutral',
  minSimilarity: -1,
  mmr: null,
  pool: { perLegFactor: 3, minPerLeg: 60 },
  context: { head: 10, neighbor: 0.3, near: 0.1, session: 0.3 },
  speaker: 1,
  priors: DEFAULT_PRIORS,
  lexicalEvidence: { full: 0.3, exponent: 0.5 },
  wholeFirst: { head: 20, margin: 0.4 },
  supersession: true,
} satisfies ScoringProfile);

/** Every profile recall accepts: the seeds' and `default`. */
export const ENGINE_PROFILES: Readonly<Record<string, ScoringProfile>> = Object.freeze({
  ...PROFILES,
  default: DEFAULT_PROFILE,
});

const LEGS = new Set([
  'fts',
  'vector',
  'graph',
  'importance',
  'recency',
  'usage',
  'date',
  'expansion',
]);

function finite(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Looks a profile up by name, or checks a custom profile object; `INVALID_INPUT` for an unknown
 * name or a malformed object.
 */
export function resolveProfile(profile: string | ScoringProfile): ScoringProfile {
  if (typeof profile === 'string') return getProfile(profile, { default: DEFAULT_PROFILE });
  const bad = (why: string) => new AnamnesisError('INVALID_INPUT', `custom profile: ${why}`);
  if (!profile || typeof profile !== 'object') throw bad('must be a name or an object');
  if (typeof profile.name !== 'string') throw bad('needs a name');
  const legs: unknown = profile.legs;
  if (!Array.isArray(legs) || (legs as unknown[]).some((l) => !LEGS.has(l as string)))
    throw bad('legs must be known leg names');
  const f = profile.fusion;
  if (f?.kind === 'rrf') {
    if (!finite(f.k) || f.k < 0 || !finite(f.defaultWeight) || !finite(f.memoryScoreWeight))
      throw bad('bad rrf parameters');
    if (f.absent !== 'skip' && f.absent !== 'penalty')
      throw bad("absent must be 'skip' or 'penalty'");
    if (Object.values(f.weights ?? {}).some((w) => !finite(w))) throw bad('weights must be finite');
  } else if (f?.kind === 'linear') {
    if (Object.values(f.weights ?? {}).some((w) => !finite(w))) throw bad('weights must be finite');
  } else {
    throw bad("fusion.kind must be 'rrf' or 'linear'");
  }
  const r = profile.recency;
  if (
    !r ||
    !['none', 'multiplier', 'factor'].includes(r.kind) ||
    (r.kind !== 'none' && (!finite(r.halfLifeHours) || r.halfLifeHours <= 0))
  ) {
    throw bad('bad recency');
  }
  if (!finite(profile.minSimilarity)) throw bad('minSimilarity must be finite');
  const c = profile.context;
  if (
    c !== undefined &&
    c !== null &&
    (typeof c !== 'object' ||
      ![c.neighbor, c.near, c.session].every((w) => finite(w) && w >= 0) ||
      !Number.isInteger(c.head) ||
      c.head < 0 ||
      c.head > 1000)
  )
    throw bad('context needs weights ≥ 0 and an integer head in [0, 1000]');
  const pr = profile.priors;
  if (
    pr !== undefined &&
    pr !== null &&
    (typeof pr !== 'object' ||
      ![pr.recency, pr.importance, pr.usage].every((w) => finite(w) && w >= 0 && w <= 1) ||
      !finite(pr.halfLifeDays) ||
      pr.halfLifeDays <= 0)
  )
    throw bad('priors need weights in [0, 1] and a half-life in days > 0');
  const ev = profile.lexicalEvidence;
  if (
    ev !== undefined &&
    ev !== null &&
    (typeof ev !== 'object' ||
      !finite(ev.full) ||
      ev.full <= 0 ||
      ev.full > 1 ||
      !finite(ev.exponent) ||
      ev.exponent < 0 ||
      (ev.margin !== undefined && (!finite(ev.margin) || ev.margin < 0)))
  )
    throw bad('lexicalEvidence needs full in (0, 1], an exponent ≥ 0 and a margin ≥ 0');
  const wf = profile.wholeFirst;
  if (
    wf !== undefined &&
    wf !== null &&
    (typeof wf !== 'object' ||
      !Number.isInteger(wf.head) ||
      wf.head < 0 ||
      wf.head > 1000 ||
      !finite(wf.margin) ||
      wf.margin < 0)
  )
    throw bad('wholeFirst needs an integer head in [0, 1000] and a margin ≥ 0');
  if (
    profile.supersession !== undefined &&
    profile.supersession !== null &&
    typeof profile.supersession !== 'boolean'
  )
    throw bad('supersession must be a boolean');
  const sp = profile.speaker;
  if (sp !== undefined && sp !== null && (!finite(sp) || sp < 0))
    throw bad('speaker must be a finite weight ≥ 0');
  if (
    profile.mmr !== null &&
    (!profile.mmr || !finite(profile.mmr.lambda) || !finite(profile.mmr.tagWeight))
  )
    throw bad('bad mmr');
  if (
    profile.pool !== 'memsense' &&
    (!profile.pool || !finite(profile.pool.perLegFactor) || !finite(profile.pool.minPerLeg))
  ) {
    throw bad('bad pool');
  }
  return profile;
}
