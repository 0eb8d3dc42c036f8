import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnamnesisError } from '@anamnesis/errors';
import { type ScoringProfile } from '@anamnesis/ranking';
import { createEngine, type EngineOptions, type RememberInput } from '@anamnesis/engine';

/** One LoCoMo conversation, turned into memories and queries. */
export interface Conversation {
  id: string;
  memories: RememberInput[];
  questions: { text: string; evidence: string[]; category: number }[];
  /** The time questions are asked: one day after the last session. */
  askedAt: number;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
}

/** Parses LoCoMo's "1:56 pm on 8 May, 2023" (UTC). */
export function parseLocomoDate(text: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim());
  if (!m)
    throw new AnamnesisError('INVALID_INPUT', `unrecognised LoCoMo date ${JSON.stringify(text)}`);
  const months = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  const month = months.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new AnamnesisError('INVALID_INPUT', `unrecognised month in ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/**
 * Loads every LoCoMo JSON file of a folder: each turn a memory (`dia_id` as id, `speaker: text` as
 * content, the speaker as `meta.speaker`, the session date plus one second per turn as `createdAt`, the session as `session`);
 * each question of categories 1-4 with evidence a query.
 */
export function loadLocomo(dir: string): Conversation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      const memories: RememberInput[] = [];
      let last = 0;
      const sessions = Object.keys(data)
        .map((k) => /^session_(\d+)$/.exec(k))
        .filter((m): m is RegExpExecArray => m !== null && Array.isArray(data[m[0]]))
        .sort((a, b) => Number(a[1]) - Number(b[1]));
      for (const m of sessions) {
        const start = parseLocomoDate(String(data[`${m[0]}_date_time`]));
        (data[m[0]] as RawTurn[]).forEach((turn, i) => {
          const createdAt = start + i * 1000;
          last = Math.max(last, createdAt);
          memories.push({
            id: turn.dia_id,
            text: `${turn.speaker}: ${turn.text}`,
            meta: { speaker: turn.speaker },
            session: m[0],
            createdAt,
            kind: 'turn',
            allowDuplicate: true,
          });
        });
      }
      const questions = (data.qa as { question: string; evidence?: string[]; category: number }[])
        .filter((q) => q.category >= 1 && q.category <= 4 && (q.evidence?.length ?? 0) > 0)
        .map((q) => ({ text: q.question, evidence: q.evidence!, category: q.category }));
      return { id: file.replace(/\.json$/, ''), memories, questions, askedAt: last + 86_400_000 };
    });
}

/** Retrieval metrics averaged over questions. */
export interface Metrics {
  questions: number;
  recall: number;
  mrr: number;
  ndcg10: number;
}

/** Metrics overall and per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop). */
export interface Report extends Metrics {
  byCategory: Record<string, Metrics>;
  /**
   * Each question's scores, in the order the questions were added (conversations, then their
   * questions: the same order for every ranker of a line), for bootstrap intervals
   * (`bootstrap.ts`). Absent where a report is a sum of others.
   */
  perQuestion?: Omit<Metrics, 'questions'>[];
  /**
   * Questions whose answer was found (a target in the first k), and of those, the ones whose
   * first target was marked weak (`RecallResult.weak`: an app hides it). Absent where the ranker
   * marks nothing weak (outside the engine).
   */
  foundWeak?: FoundWeak;
}

/** Answers found, and found but marked weak. */
export interface FoundWeak {
  found: number;
  weak: number;
  /** weak / found. */
  rate: number;
}

/** Adds one question's outcome to a {@link FoundWeak}: `first`, its first target in the first k, if any. */
export function countFoundWeak(tally: FoundWeak, first: { weak?: true } | undefined): void {
  if (!first) return;
  tally.found++;
  if (first.weak) tally.weak++;
  tally.rate = tally.weak / tally.found;
}

/** Scores one ranked list of ids against the evidence. */
export function scoreRanking(
  ranked: readonly string[],
  evidence: readonly string[],
  k: number,
): Omit<Metrics, 'questions'> {
  const relevant = new Set(evidence);
  const recall = ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
  const first = ranked.findIndex((id) => relevant.has(id));
  const mrr = first < 0 ? 0 : 1 / (first + 1);
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(relevant.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  return { recall, mrr, ndcg10: dcg / idcg };
}

/** Accumulates per-question scores into a report. */
export class ReportBuilder {
  #all: Metrics = { questions: 0, recall: 0, mrr: 0, ndcg10: 0 };
  #cats = new Map<number, Metrics>();
  #each: Omit<Metrics, 'questions'>[] = [];
  #foundWeak: FoundWeak | undefined;

  /** Counts one question's first target in the first k (undefined: not found) for {@link Report.foundWeak}. */
  found(first: { weak?: true } | undefined): void {
    this.#foundWeak ??= { found: 0, weak: 0, rate: 0 };
    countFoundWeak(this.#foundWeak, first);
  }

  add(category: number, s: Omit<Metrics, 'questions'>): void {
    this.#each.push({ recall: s.recall, mrr: s.mrr, ndcg10: s.ndcg10 });
    for (const m of [this.#all, this.#cat(category)]) {
      m.questions++;
      m.recall += s.recall;
      m.mrr += s.mrr;
      m.ndcg10 += s.ndcg10;
    }
  }

  #cat(c: number): Metrics {
    let m = this.#cats.get(c);
    if (!m) this.#cats.set(c, (m = { questions: 0, recall: 0, mrr: 0, ndcg10: 0 }));
    return m;
  }

  build(): Report {
    const avg = (m: Metrics): Metrics => ({
      questions: m.questions,
      recall: m.questions ? m.recall / m.questions : 0,
      mrr: m.questions ? m.mrr / m.questions : 0,
      ndcg10: m.questions ? m.ndcg10 / m.questions : 0,
    });
    const byCategory: Record<string, Metrics> = {};
    for (const c of [...this.#cats.keys()].sort()) byCategory[String(c)] = avg(this.#cats.get(c)!);
    return {
      ...avg(this.#all),
      byCategory,
      perQuestion: this.#each,
      ...(this.#foundWeak ? { foundWeak: this.#foundWeak } : {}),
    };
  }
}

/** A named way to rank: an engine profile name or a profile object. */
export type Ranker = string | ScoringProfile;

/**
 * Runs every conversation through a fresh in-memory engine (one store per conversation, the given
 * embedder shared) and reports recall@k, MRR and nDCG@10 for each ranker.
 */
export async function runLocomo(
  conversations: readonly Conversation[],
  rankers: Readonly<Record<string, Ranker>>,
  options: { embedder: EngineOptions['embedder']; k?: number },
): Promise<Record<string, Report>> {
  const k = options.k ?? 10;
  const builders = Object.fromEntries(
    Object.keys(rankers).map((name) => [name, new ReportBuilder()]),
  );
  for (const conv of conversations) {
    const engine = await createEngine({
      storage: 'memory',
      embedder: options.embedder,
      now: () => conv.askedAt,
    });
    try {
      await engine.rememberMany(conv.memories);
      for (const q of conv.questions) {
        for (const [name, profile] of Object.entries(rankers)) {
          const results = await engine.recall(q.text, {
            profile,
            topK: Math.max(k, 10),
            noCache: true,
          });
          const builder = builders[name]!;
          builder.add(
            q.category,
            scoreRanking(
              results.map((r) => r.id),
              q.evidence,
              k,
            ),
          );
          builder.found(results.slice(0, k).find((r) => q.evidence.includes(r.id)));
        }
      }
    } finally {
      await engine.close();
    }
  }
  return Object.fromEntries(Object.entries(builders).map(([name, b]) => [name, b.build()]));
}
