/**
 * LoCoMo retrieval scoring shared by eval-locomo.ts and sweep.ts: each conversation is its own
 * corpus (turns keyed by dia_id, text `${speaker}: ${text}`), each question of category 1–4 with
 * evidence is a query, ranked by cosine of the pipeline's unit vectors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FeatureExtractionPipeline } from '@huggingface/transformers';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Qa {
  question: string;
  evidence?: string[];
  category: number;
}
export interface Conversation {
  id: string;
  turns: Turn[];
  questions: { text: string; evidence: Set<string>; category: number }[];
}

export function loadConversations(dir: string): Conversation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      const sessions = Object.keys(data)
        .map((k) => /^session_(\d+)$/.exec(k))
        .filter((m): m is RegExpExecArray => m !== null && Array.isArray(data[m[0]]))
        .sort((a, b) => Number(a[1]) - Number(b[1]));
      const turns = sessions.flatMap((m) => data[m[0]] as Turn[]);
      const questions = (data.qa as Qa[])
        .filter((q) => q.category >= 1 && q.category <= 4 && (q.evidence?.length ?? 0) > 0)
        .map((q) => ({ text: q.question, evidence: new Set(q.evidence), category: q.category }));
      return { id: file.replace(/\.json$/, ''), turns, questions };
    });
}

async function embed(fe: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  const batch = 64;
  for (let i = 0; i < texts.length; i += batch) {
    const t = await fe(texts.slice(i, i + batch), { pooling: 'mean', normalize: true });
    const [n, d] = t.dims as [number, number];
    const data = t.data as Float32Array;
    for (let r = 0; r < n; r++) out.push(data.slice(r * d, (r + 1) * d));
  }
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return Number.isFinite(s) ? s : -Infinity; // an empty text has a NaN vector
}

export interface Totals {
  n: number;
  recall5: number;
  recall10: number;
  mrr: number;
  ndcg10: number;
}
const zero = (): Totals => ({ n: 0, recall5: 0, recall10: 0, mrr: 0, ndcg10: 0 });

export async function evaluate(
  fe: FeatureExtractionPipeline,
  conversations: Conversation[],
): Promise<Record<string, Totals>> {
  const totals: Record<string, Totals> = { all: zero() };
  for (const conv of conversations) {
    const docs = await embed(
      fe,
      conv.turns.map((t) => `${t.speaker}: ${t.text}`),
    );
    const queries = await embed(
      fe,
      conv.questions.map((q) => q.text),
    );
    conv.questions.forEach((q, qi) => {
      const scores = docs.map((d, i) => ({ id: conv.turns[i]!.dia_id, s: dot(queries[qi]!, d) }));
      scores.sort((a, b) => b.s - a.s || a.id.localeCompare(b.id));
      const ranked = scores.map((x) => x.id);
      const hits = (k: number) => ranked.slice(0, k).filter((id) => q.evidence.has(id)).length;
      const first = ranked.findIndex((id) => q.evidence.has(id));
      let dcg = 0;
      ranked.slice(0, 10).forEach((id, i) => {
        if (q.evidence.has(id)) dcg += 1 / Math.log2(i + 2);
      });
      let idcg = 0;
      for (let i = 0; i < Math.min(10, q.evidence.size); i++) idcg += 1 / Math.log2(i + 2);
      for (const key of ['all', `cat${q.category}`]) {
        const t = (totals[key] ??= zero());
        t.n += 1;
        t.recall5 += hits(5) / q.evidence.size;
        t.recall10 += hits(10) / q.evidence.size;
        t.mrr += first === -1 ? 0 : 1 / (first + 1);
        t.ndcg10 += dcg / idcg;
      }
    });
  }
  for (const t of Object.values(totals)) {
    t.recall5 /= t.n;
    t.recall10 /= t.n;
    t.mrr /= t.n;
    t.ndcg10 /= t.n;
  }
  return totals;
}
