/**
 * A tokenizer's vocabulary (token ↔ id), as the static embedder's shortcut tokenizer and its word
 * neighbours read it: either the `model.vocab` object of a parsed `tokenizer.json`
 * ({@link objectVocabulary}), or packed ({@link packVocabulary}, {@link unpackVocabulary}): every
 * token in id order in one string, with where each starts and the ids in token order, so that a
 * token is found by binary search. Unpacking the default model's 61,000 tokens takes a few
 * milliseconds where `JSON.parse` of its `tokenizer.json` takes 50–70 and a pass over the parsed
 * object for its tokens by id another 20–27 (Chromium, 2 cores).
 */

/** Token ↔ id. */
export interface Vocabulary {
  /** One more than the greatest id. */
  readonly size: number;
  /** The id of `token`, if the vocabulary holds it. */
  idOf(token: string): number | undefined;
  /** The token of `id`, if the vocabulary has one. */
  tokenOf(id: number): string | undefined;
}

/** The vocabulary of a parsed `tokenizer.json`'s `model.vocab` (token → id; own properties only). */
export function objectVocabulary(vocab: Readonly<Record<string, unknown>>): Vocabulary {
  let byId: (string | undefined)[] | undefined;
  /** Id → token, built at the first need (a pass over the object). */
  const tokens = (): (string | undefined)[] => {
    if (byId) return byId;
    byId = [];
    for (const token in vocab) {
      const id = vocab[token];
      if (Object.hasOwn(vocab, token) && Number.isInteger(id) && (id as number) >= 0)
        byId[id as number] = token;
    }
    return byId;
  };
  return {
    get size() {
      return tokens().length;
    },
    idOf(token) {
      const id = Object.hasOwn(vocab, token) ? vocab[token] : undefined;
      return Number.isInteger(id) && (id as number) >= 0 ? (id as number) : undefined;
    },
    tokenOf(id) {
      return tokens()[id];
    },
  };
}

/** The packed form's parts (see {@link packVocabulary}). */
interface Packed {
  /** Every token, in id order. */
  text: string;
  /** Where token `id` starts in `text` (UTF-16 units), and where the last ends. */
  starts: Uint32Array;
  /** The ids, in the order of their tokens (UTF-16 code units, as `<` compares strings). */
  sorted: Uint32Array;
}

/** A packed vocabulary (see {@link unpackVocabulary}). */
class PackedVocabulary implements Vocabulary {
  readonly #text: string;
  readonly #starts: Uint32Array;
  readonly #sorted: Uint32Array;

  constructor({ text, starts, sorted }: Packed) {
    this.#text = text;
    this.#starts = starts;
    this.#sorted = sorted;
  }

  get size(): number {
    return this.#sorted.length;
  }

  tokenOf(id: number): string | undefined {
    return Number.isInteger(id) && id >= 0 && id < this.#sorted.length
      ? this.#text.slice(this.#starts[id], this.#starts[id + 1])
      : undefined;
  }

  idOf(token: string): number | undefined {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.#sorted[mid]!;
      const at = this.#text.slice(this.#starts[id], this.#starts[id + 1]);
      if (at === token) return id;
      if (at < token) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** Bytes before the packed parts: the token count and the text's UTF-8 length. */
const HEADER_BYTES = 8;

/**
 * `vocabulary` packed as bytes (little-endian): the token count n and the text's UTF-8 length, the
 * n + 1 starts and the n ids in token order (32 bits each), then the text in UTF-8. `undefined`
 * when it cannot be packed: ids that do not run 0 … n − 1 with a token each, or a token that does
 * not survive UTF-8 (a lone surrogate).
 */
export function packVocabulary(vocabulary: Vocabulary): Uint8Array | undefined {
  const n = vocabulary.size;
  const tokens: string[] = [];
  for (let id = 0; id < n; id++) {
    const token = vocabulary.tokenOf(id);
    if (token === undefined || vocabulary.idOf(token) !== id) return undefined;
    tokens.push(token);
  }
  const text = tokens.join('');
  const utf8 = new TextEncoder().encode(text);
  if (new TextDecoder().decode(utf8) !== text) return undefined;
  const starts = new Uint32Array(n + 1);
  for (let id = 0; id < n; id++) starts[id + 1] = starts[id]! + tokens[id]!.length;
  const sorted = Uint32Array.from(tokens.keys()).sort((a, b) =>
    tokens[a]! < tokens[b]! ? -1 : tokens[a]! > tokens[b]! ? 1 : 0,
  );
  const out = new Uint8Array(HEADER_BYTES + 4 * (2 * n + 1) + utf8.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, n, true);
  view.setUint32(4, utf8.length, true);
  let at = HEADER_BYTES;
  for (const part of [starts, sorted])
    for (const x of part) {
      view.setUint32(at, x, true);
      at += 4;
    }
  out.set(utf8, at);
  return out;
}

/**
 * The vocabulary {@link packVocabulary} packed into `bytes`, or `undefined` when they are not one
 * (the wrong length, starts that do not run up to the text's end, an id out of range).
 */
export function unpackVocabulary(bytes: Uint8Array): Vocabulary | undefined {
  if (bytes.length < HEADER_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const n = view.getUint32(0, true);
  const textBytes = view.getUint32(4, true);
  const tables = 4 * (2 * n + 1);
  if (bytes.length !== HEADER_BYTES + tables + textBytes) return undefined;
  // the tables as 32-bit words: a view where the bytes allow one on a little-endian machine
  const littleEndian = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
  const at = bytes.byteOffset + HEADER_BYTES;
  const words =
    littleEndian && at % 4 === 0
      ? new Uint32Array(bytes.buffer, at, 2 * n + 1)
      : Uint32Array.from({ length: 2 * n + 1 }, (_, i) =>
          view.getUint32(HEADER_BYTES + 4 * i, true),
        );
  const starts = words.subarray(0, n + 1);
  const sorted = words.subarray(n + 1);
  const text = new TextDecoder().decode(bytes.subarray(HEADER_BYTES + tables));
  if (starts[0] !== 0 || starts[n] !== text.length) return undefined;
  for (let i = 0; i < n; i++) if (starts[i]! > starts[i + 1]! || sorted[i]! >= n) return undefined;
  return new PackedVocabulary({ text, starts, sorted });
}
