import {
  bestLegRank,
  compareFused,
  namesSpeaker,
  normalizeSpeaker,
  queryWords,
  SPEAKER_META_KEY,
  sumContributions,
  type ScoredCandidate,
} from '@anamnesis/ranking';
import type { RecallReads } from './rid-memo.ts';

/**
 * Speaker focus (a profile's `speaker` weight; see `SPEAKER_META_KEY`): each candidate whose
 * app-given speaker (`meta.speaker`) the query names gains `weight ·` its own score, explained as
 * the component `speaker` (value: the score before, so the contributions still add up to the
 * score). Candidates without a speaker are untouched, and so is everything when the query names
 * none. Reads the speaker only of candidates that a lift could bring into the first `limit`
 * (`scored` comes best first, and a lift only raises scores, so a candidate below
 * `s_limit / (1 + weight)` cannot get there). Returns the candidates re-sorted.
 */
export function applySpeaker(
  store: RecallReads,
  query: string,
  scored: readonly ScoredCandidate[],
  weight: number,
  limit: number,
): ScoredCandidate[] {
  if (weight === 0) return [...scored];
  const words = queryWords(query);
  if (words.size === 0) return [...scored];
  const floor = scored.length > limit ? scored[limit - 1]!.score / (1 + weight) : -Infinity;
  const lifted = scored.filter((c) => c.score > 0 && c.score >= floor).map((c) => Number(c.id));
  if (lifted.length === 0) return [...scored];
  const speakers = store.memo.speakers.get(lifted, (missing) =>
    store.read.all(
      'SELECT rid, json_extract(meta, ?) FROM memories WHERE rid IN (SELECT value FROM json_each(?))',
      [`$.${SPEAKER_META_KEY}`, JSON.stringify(missing)],
      (c) => [c.num(0), normalizeSpeaker(c.text(1))] as const,
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
