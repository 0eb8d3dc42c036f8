import {
  bestLegRank,
  compareFused,
  namesSpeaker,
  queryWords,
  speakerOf,
  SPEAKER_PREFIX_CHARS,
  sumContributions,
  type ScoredCandidate,
} from '@anamnesis/ranking';
import type { RecallReads } from './rid-memo.ts';
import type { CandidateRow } from './store.ts';

/**
 * Speaker focus (a profile's `speaker` weight; see `speakerOf`): each candidate of a session whose
 * text opens with a speaker the query names gains `weight ·` its own score, explained as the
 * component `speaker` (value: the score before, so the contributions still add up to the score).
 * Candidates without a session are untouched, and so is everything when no candidate has one or
 * the query names no speaker: then nothing is read. Reads only the first characters of the
 * candidates of a session that a lift could bring into the first `limit` (`scored` comes best
 * first, and a lift only raises scores, so a candidate below `s_limit / (1 + weight)` cannot get
 * there). Returns the candidates re-sorted.
 */
export function applySpeaker(
  store: RecallReads,
  query: string,
  scored: readonly ScoredCandidate[],
  rows: ReadonlyMap<number, CandidateRow>,
  weight: number,
  limit: number,
): ScoredCandidate[] {
  if (weight === 0) return [...scored];
  const floor = scored.length > limit ? scored[limit - 1]!.score / (1 + weight) : -Infinity;
  const inSession = scored
    .filter((c) => c.score > 0 && c.score >= floor && rows.get(Number(c.id))?.session != null)
    .map((c) => Number(c.id));
  if (inSession.length === 0) return [...scored];
  const words = queryWords(query);
  const speakers = store.memo.speakers.get(inSession, (missing) =>
    store.read.all(
      'SELECT rid, substr(text, 1, ?) FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
      [SPEAKER_PREFIX_CHARS + 1, JSON.stringify(missing)],
      (c) => [c.num(0), speakerOf(c.text(1) ?? '')] as const,
    ),
  );
  const named = new Set<string>();
  const verdict = new Map<string, boolean>();
  for (const [rid, speaker] of speakers) {
    if (speaker === null) continue;
    let yes = verdict.get(speaker);
    if (yes === undefined) verdict.set(speaker, (yes = namesSpeaker(words, speaker)));
    if (yes) named.add(String(rid));
  }
  if (named.size === 0) return [...scored];
  const out = scored.map((c) => {
    const bestRank = bestLegRank(c.legs);
    if (!named.has(c.id) || c.score <= 0) return { id: c.id, score: c.score, bestRank, c };
    const contributions = [
      ...c.contributions,
      { component: 'speaker', value: c.score, weight, contribution: weight * c.score },
    ];
    const score = sumContributions(contributions);
    return { id: c.id, score, bestRank, c: { ...c, contributions, score } };
  });
  out.sort(compareFused);
  return out.map((x) => x.c);
}
