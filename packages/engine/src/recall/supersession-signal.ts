import {
  asksHistory,
  asksSelf,
  factSubjects,
  relationsOf,
  sumContributions,
  type ScoredCandidate,
} from '@anamnesis/ranking';
import type { RecallReads, Succession } from './rid-memo.ts';

/**
 * Current facts first (issue 70): a candidate that a newer memory supersedes (a `supersedes` link,
 * found at write time or set by the app: `writes/supersession.ts`) gives its place to the newest
 * of its successors: the successor takes the older's score and a little more (a `current`
 * contribution; it joins the candidates if no leg found it: "where do I live" finds "I live in
 * Porto" by its words and "We moved to Lisbon" through it), and the older keeps
 * {@link DEMOTED} of its score (a `superseded` contribution). A query that asks about the past
 * ("where did I live before", "my old dentist": `asksHistory`) changes nothing. First, a question
 * about the writer's own fact ranks another person's fact of that relation lower (`ownFactsFirst`).
 * Scores still add up; the list comes back sorted.
 */

/** The share of its score a superseded candidate keeps. */
export const DEMOTED = 0.5;
/** Above the older's score, by this much, the successor ranks. */
const ABOVE = 1e-9;
/** Links followed from a memory to its newest successor, at most. */
const MAX_HOPS = 8;

/** The succession of each of `rids` that a newer memory supersedes (kept until the store changes). */
export function successions(store: RecallReads, rids: readonly number[]): Map<number, Succession> {
  const direct = (of: readonly number[]) => {
    const out = new Map<number, { by: number; at: number; confirmed: boolean }>();
    store.read.each(
      `SELECT l.dst, l.src, m.created_at, l.weight FROM links l JOIN memories m ON m.rid = l.src
        WHERE l.kind = 'supersedes' AND l.dst IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(of)],
      (c) => {
        const [dst, src, at, weight] = [c.num(0), c.num(1), c.num(2), c.num(3)];
        const seen = out.get(dst);
        if (!seen || at > seen.at) out.set(dst, { by: src, at, confirmed: weight >= 1 });
      },
    );
    return out;
  };
  const kept = store.memo.successors.get(rids, (missing) => {
    const first = direct(missing);
    // each chain followed to its newest memory
    const current = new Map<number, number>([...first].map(([rid, s]) => [rid, s.by]));
    let frontier = [...new Set(current.values())];
    for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
      const next = direct(frontier);
      for (const [rid, at] of current) {
        const s = next.get(at);
        if (s && s.by !== rid) current.set(rid, s.by);
      }
      frontier = [...new Set([...next.values()].map((s) => s.by))];
    }
    return missing.map((rid) => {
      const s = first.get(rid);
      return [rid, s ? { ...s, current: current.get(rid)! } : null] as const;
    });
  });
  const out = new Map<number, Succession>();
  for (const [rid, s] of kept) if (s) out.set(rid, s);
  return out;
}

/**
 * The candidates with their current facts in place (see the module comment): returns the list
 * sorted, and, for each successor that took an older memory's place, that older memory's id (its
 * match carries over: the successor answers what the older did).
 */
export function applySupersession(
  store: RecallReads,
  query: string,
  candidates: readonly ScoredCandidate[],
  head: number,
  similarityOf: (rids: readonly number[]) => Map<number, number>,
  textsOf: (rids: readonly number[]) => Map<number, string>,
): {
  scored: ScoredCandidate[];
  inherits: Map<string, string>;
  superseded: Map<string, Succession>;
} {
  const inherits = new Map<string, string>();
  const scored = ownFactsFirst(query, candidates, head, textsOf);
  const top = scored.slice(0, head);
  const found = successions(
    store,
    top.map((c) => Number(c.id)),
  );
  if (found.size === 0 || asksHistory(query))
    return { scored: [...scored], inherits, superseded: new Map() };
  const byId = new Map(scored.map((c) => [c.id, c]));
  const superseded = new Map<string, Succession>();
  const missing = [...new Set([...found.values()].map((s) => s.current))].filter(
    (rid) => !byId.has(String(rid)),
  );
  const similarities = missing.length > 0 ? similarityOf(missing) : new Map<number, number>();
  for (const c of top) {
    const s = found.get(Number(c.id));
    if (!s) continue;
    superseded.set(c.id, s);
    const place = c.score + ABOVE;
    const id = String(s.current);
    const now = byId.get(id);
    if (!now || now.score < place) {
      const base = now ?? {
        id,
        score: 0,
        similarity: similarities.get(s.current) ?? 0,
        legs: [],
        contributions: [],
      };
      const lift = place - base.score;
      const contributions = [
        ...base.contributions,
        { component: 'current', value: 1, weight: lift, contribution: lift },
      ];
      byId.set(id, { ...base, contributions, score: sumContributions(contributions) });
      if (!inherits.has(id)) inherits.set(id, c.id);
    }
    const old = byId.get(c.id)!;
    const cut = -(1 - DEMOTED) * old.score;
    const contributions = [
      ...old.contributions,
      { component: 'superseded', value: 1, weight: cut, contribution: cut },
    ];
    byId.set(c.id, { ...old, contributions, score: sumContributions(contributions) });
  }
  return {
    scored: [...byId.values()].sort((a, b) => b.score - a.score),
    inherits,
    superseded,
  };
}

/**
 * A question about the writer's own fact ("where do I live", "my phone number": `asksSelf`) ranks
 * another person's fact of that relation ("My sister Hana lives in Glasgow", "Mum's number is…")
 * at {@link DEMOTED} of its score (an `another person` contribution). Returns the list sorted.
 */
function ownFactsFirst(
  query: string,
  scored: readonly ScoredCandidate[],
  head: number,
  textsOf: (rids: readonly number[]) => Map<number, string>,
): ScoredCandidate[] {
  const relations = asksSelf(query) ? relationsOf(query) : [];
  if (relations.length === 0) return [...scored];
  const top = scored.slice(0, head);
  const texts = textsOf(top.map((c) => Number(c.id)));
  const others = new Set(
    top
      .filter((c) => {
        const subjects = factSubjects(texts.get(Number(c.id)) ?? '');
        return relations.some((r) => subjects.has(r) && subjects.get(r) !== 'self');
      })
      .map((c) => c.id),
  );
  if (others.size === 0) return [...scored];
  return scored
    .map((c) => {
      if (!others.has(c.id)) return c;
      const cut = -(1 - DEMOTED) * c.score;
      const contributions = [
        ...c.contributions,
        { component: 'another person', value: 1, weight: cut, contribution: cut },
      ];
      return { ...c, contributions, score: sumContributions(contributions) };
    })
    .sort((a, b) => b.score - a.score);
}
