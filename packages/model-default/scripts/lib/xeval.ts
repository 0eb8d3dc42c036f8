/**
 * Retrieval checks of a static model outside `bench:quality`: cross-language retrieval on the
 * descriptions held out of training (a short description in one language finds the long
 * description in another among every held-out description of that pair), English short → long,
 * and vector-only recall on LoCoMo conversations. Scored by cosine of unit vectors; recall@10 and
 * MRR of the one right document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { readStaticWeights } from '../../src/static-weights.ts';
import type { Language } from './ddtp.ts';
import type { Conversation } from './locomo.ts';
import type { Item, Split } from './training-data.ts';
import { WordPiece } from './wordpiece.ts';

/** A text's unit vector (all zeros for a text with no known token). */
export type Embed = (text: string) => Float64Array;

export interface Scores {
  n: number;
  recall10: number;
  mrr: number;
}

/**
 * Ranks `docs` by cosine for each query; `target[q]` is the index of the query's one right
 * document. Ties go against the right document (a zero query vector finds nothing).
 */
export function rankScores(
  queries: Float64Array[],
  docs: Float64Array[],
  target: number[],
): Scores {
  let recall = 0;
  let mrr = 0;
  for (let q = 0; q < queries.length; q++) {
    const qv = queries[q]!;
    const score = (d: Float64Array) => {
      let s = 0;
      for (let i = 0; i < qv.length; i++) s += qv[i]! * d[i]!;
      return s;
    };
    const right = score(docs[target[q]!]!);
    let above = 0;
    for (let d = 0; d < docs.length; d++) if (d !== target[q] && score(docs[d]!) >= right) above++;
    if (above < 10) recall++;
    mrr += 1 / (above + 1);
  }
  const n = queries.length;
  return { n, recall10: n ? recall / n : 0, mrr: n ? mrr / n : 0 };
}

/** The directions scored: query language → document language, on short → long descriptions. */
export function crossLanguageDirections(
  languages: readonly Language[],
): [query: Language, doc: Language][] {
  const out: [Language, Language][] = [['en', 'en']];
  for (const l of languages) {
    if (l === 'en') continue;
    out.push([l, 'en'], ['en', l], [l, l]);
  }
  return out;
}

/**
 * Scores every direction on the items of `split` that have both languages (at most `cap` of them,
 * in md5 order): each query is an item's short description, its target the same item's long
 * description in the other language, among those of every item scored.
 */
export function crossLanguage(
  embed: Embed,
  items: readonly Item[],
  split: Split,
  languages: readonly Language[],
  cap: number,
): Record<string, Scores> {
  const out: Record<string, Scores> = {};
  for (const [ql, dl] of crossLanguageDirections(languages)) {
    const chosen = items
      .filter((i) => i.split === split && i.texts[ql]?.short && i.texts[dl]?.long)
      .slice(0, cap);
    const queries = chosen.map((i) => embed(i.texts[ql]!.short));
    const docs = chosen.map((i) => embed(i.texts[dl]!.long));
    out[`${ql}→${dl}`] = rankScores(
      queries,
      docs,
      chosen.map((_, k) => k),
    );
  }
  return out;
}

/** Vector-only LoCoMo: recall@10 and MRR over the questions with evidence (each evidence turn). */
export function locomoVectorScores(embed: Embed, conversations: readonly Conversation[]): Scores {
  let n = 0;
  let recall = 0;
  let mrr = 0;
  for (const conv of conversations) {
    const docs = conv.turns.map((t) => embed(`${t.speaker}: ${t.text}`));
    for (const q of conv.questions) {
      const qv = embed(q.text);
      const scored = docs.map((d, i) => {
        let s = 0;
        for (let k = 0; k < qv.length; k++) s += qv[k]! * d[k]!;
        return [s, i] as const;
      });
      scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const top = new Set(scored.slice(0, 10).map(([, i]) => conv.turns[i]!.dia_id));
      let hits = 0;
      for (const e of q.evidence) if (top.has(e)) hits++;
      recall += hits / q.evidence.size;
      const first = scored.findIndex(([, i]) => q.evidence.has(conv.turns[i]!.dia_id));
      mrr += first >= 0 ? 1 / (first + 1) : 0;
      n++;
    }
  }
  return { n, recall10: n ? recall / n : 0, mrr: n ? mrr / n : 0 };
}

/**
 * An {@link Embed} over a built static model's files (`<root>/<id>/`), with the engine's
 * arithmetic: WordPiece ids, the first `model_max_length` ids of `[CLS] … [SEP]` kept, each value
 * `fround(int8 · scale)` summed in float64, scaled to unit length.
 */
export function fileEmbedder(root: string, id: string): Embed {
  const dir = join(root, id);
  const tokenizer = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as {
    model: { vocab: Record<string, number>; max_input_chars_per_word?: number };
  };
  const config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as {
    model_max_length: number;
  };
  const vocab: string[] = [];
  for (const [token, i] of Object.entries(tokenizer.model.vocab)) vocab[i] = token;
  const wordPiece = new WordPiece(vocab, tokenizer.model.max_input_chars_per_word ?? 100);
  const { table, scale, dims } = readStaticWeights(
    new Uint8Array(readFileSync(join(dir, 'onnx', 'model_quantized.onnx'))),
  );
  return (text) => {
    const ids = wordPiece.encode(text).slice(0, config.model_max_length - 1); // [CLS] is first
    const acc = new Float64Array(dims);
    for (const t of ids) {
      const s = scale[t]!;
      for (let d = 0; d < dims; d++) acc[d]! += Math.fround(table[t * dims + d]! * s);
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += acc[d]! * acc[d]!;
    if (norm > 0) for (let d = 0; d < dims; d++) acc[d] = acc[d]! / Math.sqrt(norm);
    return acc;
  };
}
