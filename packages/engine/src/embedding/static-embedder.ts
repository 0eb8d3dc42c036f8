/**
 * The static default model in plain JavaScript: no ONNX Runtime, no transformers.js.
 *
 * The model (`@anamnesis/model-default`) is a table lookup: its ONNX graph gathers one int8 row
 * and one float scale per token id and multiplies them; the transformers.js embedder then
 * mean-pools the rows over the attention mask and normalises ({@link meanPoolNormalize}). This
 * embedder does the same arithmetic on the same bytes: the rows are read out of the same `.onnx`
 * file, the token ids are those of `@huggingface/tokenizers` (the tokenizer transformers.js itself
 * runs; plain ASCII text through {@link asciiWordPiece}, which gives the same ids, and the library
 * loaded and built only for the first text that needs it), texts are truncated to
 * `model_max_length` tokens as transformers.js truncates them (the first tokens kept, `[SEP]`
 * dropped), and each value is `Math.fround(int8 * scale)` (what ONNX Runtime's float32 Mul gives),
 * summed in float64 in token order and scaled by the inverse norm as `meanPoolNormalize` does. So the vectors are bit-identical to the ONNX pipeline's, and a store
 * embedded by either is read by the other under the same model id.
 */
import {
  decodeNeighbourTable,
  NEIGHBOUR_TABLE_FILE,
  readStaticWeights,
  STATIC_MODEL_FILES,
  weightsFingerprint,
  type NeighbourTable,
} from '@anamnesis/model-default';
import { AnamnesisError } from '@anamnesis/errors';
import type { Tokenizer } from '@huggingface/tokenizers';

import {
  asciiWordPiece,
  packWordPiece,
  readWordPiece,
  unpackWordPiece,
  wordPieceConfigFits,
  type PreparedWordPiece,
} from './ascii-word-piece.ts';
import { modelFileCache, type ModelFileCache } from './model-file-cache.ts';
import { unitOf } from './pooling.ts';
import { objectVocabulary, type Vocabulary } from './vocabulary.ts';
import { WordNeighbours } from './word-neighbours.ts';
import {
  checkLanguages,
  checkTexts,
  type Embedder,
  type TransformersEmbedderOptions,
} from './embedder.ts';

/** The vocabulary of a parsed `tokenizer.json`'s `model`, where it has an object of one. */
function wordsOf(model: { vocab?: unknown } | undefined): Vocabulary | undefined {
  const vocab = model?.vocab;
  return typeof vocab === 'object' && vocab !== null
    ? objectVocabulary(vocab as Record<string, unknown>)
    : undefined;
}

/** The `anamnesis.kind` a model's `config.json` declares when this embedder can run it. */
export const STATIC_MODEL_KIND = 'static-embedding';

function isNode(): boolean {
  return typeof process !== 'undefined' && !!process.versions?.node;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A model file could not be read (`missing`) or parsed (`corrupt`). */
class FileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'missing' | 'corrupt',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads `<root>/<model>/<file>`: from the file system in Node when `root` is a path or a `file:`
 * URL, else with `fetch` (relative to the page or worker).
 */
async function readFile(root: string, model: string, file: string): Promise<Uint8Array> {
  const rel = `${model}/${file}`;
  if (isNode() && !/^(https?|blob):/i.test(root)) {
    // Specifiers in variables: bundlers leave Node-only imports of this Node-only branch alone.
    const fsName = 'node:fs/promises';
    const pathName = 'node:path';
    const urlName = 'node:url';
    const [fs, path, url] = (await Promise.all([
      import(/* @vite-ignore */ fsName),
      import(/* @vite-ignore */ pathName),
      import(/* @vite-ignore */ urlName),
    ])) as [
      typeof import('node:fs/promises'),
      typeof import('node:path'),
      typeof import('node:url'),
    ];
    const dir = /^file:/i.test(root) ? url.fileURLToPath(root) : root;
    try {
      return new Uint8Array(await fs.readFile(path.join(dir, rel)));
    } catch (e) {
      throw new FileError(file, 'missing', messageOf(e));
    }
  }
  let response: Response;
  try {
    response = await fetch(new URL(rel, rootFolder(root)));
  } catch (e) {
    throw new FileError(file, 'missing', messageOf(e));
  }
  if (!response.ok) throw new FileError(file, 'missing', `HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The URL of a model root folder that is fetched from (relative to the page or worker). */
function rootFolder(root: string): URL {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  return new URL(root.endsWith('/') ? root : `${root}/`, base);
}

/**
 * Where the model's files are kept in OPFS (a browser's dedicated worker, a root with a
 * manifest), else `undefined` (see `model-file-cache.ts`).
 */
async function fileCache(root: string): Promise<ModelFileCache | undefined> {
  if (isNode()) return undefined;
  try {
    return await modelFileCache(rootFolder(root));
  } catch {
    return undefined;
  }
}

/**
 * The name under which the shortcut's reading of `tokenizer.json` ({@link packWordPiece}) is kept
 * beside the model's files; a new layout of it gets a new name.
 */
const PACKED_WORD_PIECE = 'word-piece-1';

function parseJson(bytes: Uint8Array, file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (value === null || typeof value !== 'object') throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (e) {
    throw new FileError(file, 'corrupt', messageOf(e));
  }
}

/** Each model's `config.json`, parsed, by root and model id: read once per page or process. */
const configs = new Map<string, Promise<Record<string, unknown>>>();

/**
 * A model's `config.json`, parsed. Read once: {@link isStaticModel} and the embedder both need it,
 * and a server that sends no cache validators would be asked for it twice. A failed read is not
 * kept (the next call tries again).
 */
function readConfig(root: string, model: string): Promise<Record<string, unknown>> {
  const key = `${root}\u0000${model}`;
  let config = configs.get(key);
  if (!config) {
    config = readFile(root, model, STATIC_MODEL_FILES.config).then((bytes) =>
      parseJson(bytes, STATIC_MODEL_FILES.config),
    );
    configs.set(key, config);
    config.catch(() => configs.delete(key));
  }
  return config;
}

/**
 * Whether {@link createStaticEmbedder} should run `options` instead of ONNX Runtime: not
 * `runtime: 'onnx'`, a device that is not `'webgpu'`, the `q8` weights (the model's only ones), a
 * local model, and a `config.json` there that declares `"anamnesis": { "kind": "static-embedding" }`.
 * A `config.json` that cannot be read or parsed gives `false`, so the ONNX path reports it as before.
 */
export async function isStaticModel(options: TransformersEmbedderOptions): Promise<boolean> {
  if (options.runtime === 'onnx' || options.device === 'webgpu') return false;
  if (options.dtype !== undefined && options.dtype !== 'q8') return false;
  if (options.localModelPath === undefined || typeof options.model !== 'string') return false;
  try {
    const config = await readConfig(options.localModelPath, options.model);
    return (config.anamnesis as { kind?: unknown } | undefined)?.kind === STATIC_MODEL_KIND;
  } catch {
    return false;
  }
}

/**
 * The static model whose word table (its words and their neighbours) a local model's `config.json`
 * names to borrow (`"anamnesis": { "word_table": "anamnesis/static-multi-64d" }`, a model under the
 * same root with the same tokenizer); none named, or no readable config: `undefined`.
 */
export async function modelWordTable(root: string, model: string): Promise<string | undefined> {
  try {
    const config = await readConfig(root, model);
    const table = (config.anamnesis as { word_table?: unknown } | undefined)?.word_table;
    return typeof table === 'string' && table !== '' ? table : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The languages a local model's `config.json` names (`"anamnesis": { "languages": "en,de" }`);
 * none named, or no readable config: `undefined` (recall takes the model for an English one).
 */
export async function modelLanguages(root: string, model: string): Promise<string[] | undefined> {
  try {
    const config = await readConfig(root, model);
    const languages = (config.anamnesis as { languages?: unknown } | undefined)?.languages;
    if (typeof languages !== 'string') return undefined;
    const list = languages
      .split(',')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return list.length > 0 ? list : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An embedder for a static model (the default model) in plain JavaScript, with the same vectors
 * as {@link createTransformersEmbedder} on that model (see the module comment). `device` names the
 * device it stands in for (`'cpu'` in Node, `'wasm'` in a browser, or the one asked for), with
 * `runtime: 'js'`; `selection.reason` is `'static'`.
 *
 * Errors: `INVALID_INPUT` (options), `MODEL_LOAD_FAILED` with `details.file` naming the missing or
 * corrupt file.
 */
export async function createStaticEmbedder(
  options: TransformersEmbedderOptions,
): Promise<Embedder> {
  if (!options || typeof options.model !== 'string' || options.model.length === 0) {
    throw new AnamnesisError('INVALID_INPUT', 'model must be a non-empty string');
  }
  const root = options.localModelPath;
  if (root === undefined) {
    throw new AnamnesisError('INVALID_INPUT', 'a static model needs localModelPath');
  }
  // Validated as the ONNX path validates them, though a lookup table needs no batches or threads.
  const languagesOption = checkLanguages(options.languages);
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new AnamnesisError('INVALID_INPUT', 'batchSize must be a positive integer');
  }
  const requested = options.device ?? 'auto';
  if (!['auto', 'wasm', 'cpu'].includes(requested)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `a static model runs on 'auto', 'wasm' or 'cpu', not ${String(requested)}`,
    );
  }
  const device = requested === 'auto' ? (isNode() ? 'cpu' : 'wasm') : requested;
  const model = options.model;
  let tokenizerJson: Promise<Record<string, unknown>> | undefined;
  let tokenizerConfig: Record<string, unknown>;
  let prepared: PreparedWordPiece | undefined;
  let weights: ReturnType<typeof readStaticWeights>;
  let maxTokens: number;
  let tokenizer: Promise<Tokenizer> | undefined;
  function loadFailed(e: FileError): AnamnesisError {
    const what = e.reason === 'missing' ? 'file is missing' : 'file is corrupt or unreadable';
    return new AnamnesisError('MODEL_LOAD_FAILED', `${model}: ${e.file}: ${what} (${e.message})`, {
      cause: e,
      details: { model, file: e.file, reason: e.reason, device },
    });
  }
  const languagesRead = languagesOption ?? modelLanguages(root, model);
  const cache = await fileCache(root);
  /** While the load runs: its files are reported to `onProgress` (a caller's, gone after it). */
  let loading = true;
  /** A model file: through the kept copies where there are any, else read as it is served. */
  const modelFile = async (file: string): Promise<Uint8Array> => {
    const bytes = await (cache
      ? cache.read(model, file, () => readFile(root, model, file))
      : readFile(root, model, file));
    if (loading)
      options.onProgress?.({ phase: 'model', loaded: bytes.length, total: bytes.length, file });
    return bytes;
  };
  /** `tokenizer.json`, parsed: read at the load, or at the first need where the load did not. */
  const readTokenizerJson = (): Promise<Record<string, unknown>> =>
    (tokenizerJson ??= modelFile(STATIC_MODEL_FILES.tokenizer).then((bytes) =>
      parseJson(bytes, STATIC_MODEL_FILES.tokenizer),
    ));
  /** The full tokenizer, built at its first use (a corrupt `tokenizer.json` then fails that call). */
  const fullTokenizer = (): Promise<Tokenizer> =>
    (tokenizer ??= Promise.all([
      readTokenizerJson().catch((e: unknown) => {
        throw e instanceof FileError ? loadFailed(e) : e;
      }),
      import('@huggingface/tokenizers').catch((e: unknown) => {
        throw new AnamnesisError(
          'MODEL_LOAD_FAILED',
          `${model}: the tokenizer library could not be loaded (${messageOf(e)})`,
          { cause: e, details: { model, device } },
        );
      }),
    ]).then(([json, { Tokenizer }]) => {
      try {
        return new Tokenizer(json, tokenizerConfig);
      } catch (e) {
        throw loadFailed(new FileError(STATIC_MODEL_FILES.tokenizer, 'corrupt', messageOf(e)));
      }
    }));
  // optional: a model without one (or with one that does not fit) searches its table per word
  const neighbourTable = modelFile(NEIGHBOUR_TABLE_FILE).then(
    (bytes) => {
      try {
        return decodeNeighbourTable(bytes);
      } catch {
        return undefined;
      }
    },
    () => undefined,
  );
  // What the shortcut read of `tokenizer.json` at an earlier start, kept packed: a start that
  // finds it reads neither `tokenizer.json` nor its vocabulary (see `vocabulary.ts`).
  const keptWordPiece = cache
    ?.readDerived(model, STATIC_MODEL_FILES.tokenizer, PACKED_WORD_PIECE)
    .then((bytes) => (bytes ? unpackWordPiece(bytes) : undefined));
  // read beside the others where nothing packed can stand in for it
  if (!keptWordPiece) readTokenizerJson().catch(() => undefined);
  try {
    const [configBytes, onnxBytes] = await Promise.all([
      modelFile(STATIC_MODEL_FILES.tokenizerConfig),
      modelFile(STATIC_MODEL_FILES.weights),
    ]);
    tokenizerConfig = parseJson(configBytes, STATIC_MODEL_FILES.tokenizerConfig);
    try {
      weights = readStaticWeights(onnxBytes);
    } catch (e) {
      throw new FileError(STATIC_MODEL_FILES.weights, 'corrupt', messageOf(e));
    }
    prepared = wordPieceConfigFits(tokenizerConfig) ? await keptWordPiece : undefined;
    if (!prepared) {
      // The same ids as `Tokenizer.encode` for plain ASCII text, without building the tokenizer.
      prepared = readWordPiece(await readTokenizerJson(), tokenizerConfig);
      const read = prepared;
      // kept for the next start, between other tasks
      if (read && cache)
        setTimeout(() => {
          const packed = packWordPiece(read);
          if (packed)
            void cache.keepDerived(model, STATIC_MODEL_FILES.tokenizer, PACKED_WORD_PIECE, packed);
        }, 0);
    }
    // transformers.js: `model_max_length ?? Infinity` (no limit when the config names none).
    const limit = tokenizerConfig.model_max_length;
    maxTokens = typeof limit === 'number' && limit > 0 ? limit : Infinity;
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    throw loadFailed(e);
  }
  // A tokenizer the shortcut does not read is built now, so its errors are the load's.
  if (!prepared) await fullTokenizer();
  const tokenizeAscii = prepared && asciiWordPiece(prepared);

  const { table, scale, vocabSize, dims } = weights;
  const vocabulary =
    prepared?.vocabulary ?? wordsOf((await readTokenizerJson()).model as { vocab?: unknown });
  const shipped: NeighbourTable | undefined = await neighbourTable;
  const fits =
    shipped !== undefined &&
    WordNeighbours.tableFits(shipped, {
      rows: vocabSize,
      dims,
      fingerprint: weightsFingerprint(weights),
    });
  // without a fitting table: prepared between other tasks from now on, so that the first
  // expanded query does not wait
  const neighbours = vocabulary
    ? new WordNeighbours(vocabulary, table, scale, dims, fits ? shipped : undefined)
    : undefined;
  neighbours?.prepareInBackground();
  void cache?.prune(); // copies of files no longer served
  loading = false;
  const languages = await languagesRead;
  const acc = new Float64Array(dims);
  let truncated = 0;

  /** A text's vector from its token ids: their rows (truncated) summed in float64, unit length. */
  function embedIds(ids: readonly number[]): Float32Array {
    let length = ids.length;
    if (length > maxTokens) {
      truncated++;
      length = maxTokens;
    }
    acc.fill(0);
    for (let t = 0; t < length; t++) {
      const id = ids[t]!;
      if (!(id >= 0 && id < vocabSize)) {
        throw new AnamnesisError(
          'MODEL_LOAD_FAILED',
          `${model}: token id ${id} is outside the table`,
          {
            details: { model, file: STATIC_MODEL_FILES.tokenizer, reason: 'corrupt', device },
          },
        );
      }
      const s = scale[id]!;
      const off = id * dims;
      // float32(int8) * float32 scale, rounded to float32 as ONNX Runtime's Mul does.
      for (let d = 0; d < dims; d++) acc[d]! += Math.fround(table[off + d]! * s);
    }
    return length > 0 ? unitOf(acc) : new Float32Array(dims);
  }

  return {
    id: model,
    dims,
    device,
    runtime: 'js',
    selection: { requested, device, reason: 'static' },
    ...(languages ? { languages } : {}),
    get truncated() {
      return truncated;
    },
    async embed(texts) {
      checkTexts(texts);
      const out: Float32Array[] = [];
      for (const text of texts) {
        // the ASCII shortcut where it holds (no await), else the full tokenizer
        const ids = tokenizeAscii?.(text) ?? (await fullTokenizer()).encode(text).ids;
        out.push(embedIds(ids));
      }
      return out;
    },
    neighbours(word) {
      return neighbours?.of(word) ?? [];
    },
    knows(word) {
      return neighbours?.knows(word) ?? false;
    },
    async dispose() {},
  };
}
