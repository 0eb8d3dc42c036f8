/**
 * The search-box part of `bench:quality` (issue 38): the suite of what people type into a search
 * box (`apps/bench/search-box/`: prefixes, typos, codes, phrases, addresses, spelling, negation,
 * emoji, paraphrase, and queries about nothing stored), scored per kind; and the "no related
 * memory" rate: of queries whose answer is not in the store, the share that recall answers with
 * nothing or with weak results only (`RecallResult.weak`), as an app shows "no match".
 */
import {
  createEngine,
  type Embedder,
  type EngineOptions,
  type RememberInput,
} from '@anamnesis/engine';
import { ASKED_AT as MEANING_ASKED_AT, MEMORIES as MEANING_MEMORIES } from '../meaning/memories.ts';
import { CASES as MEANING_CASES } from '../meaning/cases.ts';
import { ASKED_AT, MEMORIES } from '../search-box/memories.ts';
import { CASES } from '../search-box/cases.ts';
import { countFoundWeak, type Conversation, type FoundWeak } from './locomo.ts';
import { oramaAsk } from './orama.ts';
import type { Split } from './quality-corpora.ts';

/** A suite of queries about one store, each with the memories that answer it (none: `none`). */
export interface Suite {
  name: string;
  memories: readonly RememberInput[];
  askedAt: number;
  cases: readonly {
    kind: string;
    query: string;
    targets: readonly string[];
    typing?: boolean;
    split: Split;
  }[];
}

/** The search-box suite (issue 38): what people type into a search box. */
export const SEARCH_BOX: Suite = {
  name: 'search-box',
  memories: MEMORIES,
  askedAt: ASKED_AT,
  cases: CASES,
};
/** The meaning suite (issue 66): time words, whole matches, long notes, paraphrase, other languages. */
export const MEANING: Suite = {
  name: 'meaning',
  memories: MEANING_MEMORIES,
  askedAt: MEANING_ASKED_AT,
  cases: MEANING_CASES,
};

/** Scores of one kind of query. */
export interface KindScore {
  kind: string;
  queries: number;
  /** Share with a target first. */
  hit1: number;
  mrr: number;
  /** Share with a target in the first k. */
  recall: number;
  /** Share whose best result was weak (an app would say "no match": a false alarm). */
  weak: number;
}

/** The suite's scores on one split. */
export interface SearchBoxReport {
  suite: string;
  split: Split;
  kinds: KindScore[];
  /** The `none` kind: queries about nothing stored. */
  noAnswer: NoAnswerRate;
  /** Queries with an answer: found in the first k, and found but marked weak. */
  foundWeak: FoundWeak;
}

/** How queries about nothing stored were answered. */
export interface NoAnswerRate {
  queries: number;
  /** Answered with no result. */
  empty: number;
  /** Answered with weak results only. */
  onlyWeak: number;
  /** (empty + onlyWeak) / queries. */
  rate: number;
}

/** What recall answers, as the measures here read it. */
type Ask = (query: string, typing: boolean) => Promise<{ id: string; weak?: true }[]>;

async function withStore<T>(
  memories: readonly RememberInput[],
  askedAt: number,
  embedder: EngineOptions['embedder'],
  run: (ask: Ask) => Promise<T>,
  k: number,
): Promise<T> {
  const engine = await createEngine({ storage: 'memory', embedder, now: () => askedAt });
  try {
    await engine.rememberMany(memories);
    return await run((query, typing) => engine.recall(query, { topK: k, typing, noCache: true }));
  } finally {
    await engine.close();
  }
}

/** Adds one no-answer query's outcome to a rate. */
function countNoAnswer(rate: NoAnswerRate, results: readonly { weak?: true }[]): void {
  rate.queries++;
  if (results.length === 0) rate.empty++;
  else if (results.every((r) => r.weak)) rate.onlyWeak++;
  rate.rate = (rate.empty + rate.onlyWeak) / rate.queries;
}

const emptyRate = (): NoAnswerRate => ({ queries: 0, empty: 0, onlyWeak: 0, rate: 0 });

/** Scores the suite's `split` as `ask` answers it: per kind, and the `none` kind's rate. */
async function scoreSuite(
  suite: Suite,
  split: Split,
  ask: Ask,
  k: number,
): Promise<Pick<SearchBoxReport, 'kinds' | 'noAnswer' | 'foundWeak'>> {
  const kinds = new Map<string, KindScore>();
  const noAnswer = emptyRate();
  const foundWeak: FoundWeak = { found: 0, weak: 0, rate: 0 };
  for (const c of suite.cases.filter((c) => c.split === split)) {
    const results = await ask(c.query, c.typing ?? false);
    if (c.targets.length === 0) {
      countNoAnswer(noAnswer, results);
      continue;
    }
    const s = kinds.get(c.kind) ?? {
      kind: c.kind,
      queries: 0,
      hit1: 0,
      mrr: 0,
      recall: 0,
      weak: 0,
    };
    const rank = results.findIndex((r) => c.targets.includes(r.id)) + 1;
    s.queries++;
    if (rank === 1) s.hit1++;
    if (rank > 0) s.mrr += 1 / rank;
    if (rank > 0 && rank <= k) s.recall++;
    if (results.length === 0 || results[0]!.weak) s.weak++;
    countFoundWeak(
      foundWeak,
      results.slice(0, k).find((r) => c.targets.includes(r.id)),
    );
    kinds.set(c.kind, s);
  }
  const out = [...kinds.values()].map((s) => ({
    ...s,
    hit1: s.hit1 / s.queries,
    mrr: s.mrr / s.queries,
    recall: s.recall / s.queries,
    weak: s.weak / s.queries,
  }));
  return { kinds: out, noAnswer, foundWeak };
}

/** Runs the suite's `split` on the default profile, with recall's defaults (`minMatch` too). */
export async function runSearchBox(
  suite: Suite,
  split: Split,
  embedder: EngineOptions['embedder'],
  k = 10,
): Promise<SearchBoxReport> {
  return {
    suite: suite.name,
    split,
    ...(await withStore(
      suite.memories,
      suite.askedAt,
      embedder,
      (ask) => scoreSuite(suite, split, ask, k),
      k,
    )),
  };
}

/**
 * The suite's `split` through Orama (issue 42): hybrid search on the same embeddings, English
 * tokenizer, typo tolerance 1 and its prefix matching, for every query (Orama has no separate
 * typing mode). Orama marks no result weak and, with no similarity floor, always answers: its
 * `weak` is the share answered with nothing, and the `none` kind is not scored.
 */
export async function runSearchBoxOrama(
  suite: Suite,
  split: Split,
  embedder: Embedder,
  k = 10,
): Promise<Omit<SearchBoxReport, 'noAnswer' | 'foundWeak'>> {
  const search = await oramaAsk(suite.memories, embedder, { tolerance: 1, k });
  const { kinds } = await scoreSuite(
    suite,
    split,
    async (query) => (await search(query)).map((id) => ({ id })),
    k,
  );
  return { suite: suite.name, split, kinds };
}

/**
 * The no-related-memory rate of questions asked of a store that does not hold their answer:
 * each conversation's questions asked of the next conversation's store (notes questions of the
 * pages store and back; one LoCoMo conversation's of another's). Those stores hold related
 * texts (software described two ways, two people's lives), so this is the hard case.
 */
export async function crossStoreNoAnswer(
  conversations: readonly Conversation[],
  embedder: EngineOptions['embedder'],
  k = 10,
): Promise<NoAnswerRate> {
  const rate = emptyRate();
  for (const [i, conv] of conversations.entries()) {
    const other = conversations[(i + 1) % conversations.length]!;
    if (other === conv) continue;
    await withStore(
      conv.memories,
      conv.askedAt,
      embedder,
      async (ask) => {
        for (const q of other.questions) countNoAnswer(rate, await ask(q.text, false));
      },
      k,
    );
  }
  return rate;
}
