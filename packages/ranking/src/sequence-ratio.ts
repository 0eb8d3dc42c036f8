/**
 * Ratcliff/Obershelp similarity, the value of Python's
 * `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()`: `2·M / T`, where T is the total
 * length of both strings and M the number of characters in the matching blocks found by repeatedly
 * taking the longest common substring (leftmost in `a`, then leftmost in `b`, on ties) and
 * recursing on the pieces to its left and right. Two empty strings have ratio 1.
 *
 * There is no junk heuristic: with `autojunk=True` (Python's default) difflib ignores characters
 * that make up more than 1 % of a `b` of 200 or more characters, so results can differ from the
 * default `SequenceMatcher` on long strings; they are identical for shorter `b`. Strings are
 * compared as UTF-16 code units (Python compares code points; they differ only around astral
 * characters).
 */

interface Block {
  readonly i: number;
  readonly j: number;
  readonly k: number;
}

class Matcher {
  readonly #a: string;
  readonly #b: string;
  /** Positions of each code unit in b, ascending. */
  readonly #b2j = new Map<number, number[]>();
  /** len[s]: length of the common run ending at b[s - 1] in the row stamped stamp[s]. */
  readonly #len: Int32Array;
  readonly #stamp: Int32Array;
  #row = 0;

  constructor(a: string, b: string) {
    this.#a = a;
    this.#b = b;
    for (let j = 0; j < b.length; j++) {
      const c = b.charCodeAt(j);
      const list = this.#b2j.get(c);
      if (list === undefined) this.#b2j.set(c, [j]);
      else list.push(j);
    }
    this.#len = new Int32Array(b.length + 1);
    this.#stamp = new Int32Array(b.length + 1).fill(-1);
  }

  /** difflib's find_longest_match without junk: the longest a[i..i+k) == b[j..j+k) in range. */
  longest(alo: number, ahi: number, blo: number, bhi: number): Block {
    let bi = alo;
    let bj = blo;
    let bk = 0;
    const len = this.#len;
    const stamp = this.#stamp;
    this.#row++; // an id no slot carries, so the first row starts from empty runs
    for (let i = alo; i < ahi; i++) {
      const prev = this.#row;
      const cur = ++this.#row;
      const js = this.#b2j.get(this.#a.charCodeAt(i));
      if (js === undefined) continue;
      let rowK = 0;
      let rowJ = 0;
      // Descending j, so slot j (previous row) is read before slot j + 1 is overwritten.
      for (let x = js.length - 1; x >= 0; x--) {
        const j = js[x]!;
        if (j >= bhi) continue;
        if (j < blo) break;
        const k = (stamp[j] === prev ? len[j]! : 0) + 1;
        len[j + 1] = k;
        stamp[j + 1] = cur;
        if (k >= rowK) {
          rowK = k;
          rowJ = j;
        }
      }
      // Strictly longer than any earlier row: difflib keeps the first (smallest i, then j) on ties.
      if (rowK > bk) {
        bk = rowK;
        bi = i - rowK + 1;
        bj = rowJ - rowK + 1;
      }
    }
    return { i: bi, j: bj, k: bk };
  }

  matches(): number {
    let total = 0;
    const queue: [number, number, number, number][] = [[0, this.#a.length, 0, this.#b.length]];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const { i, j, k } = this.longest(alo, ahi, blo, bhi);
      if (k === 0) continue;
      total += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    return total;
  }
}

/** `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()`, in [0, 1]. */
export function sequenceRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  return (2 * new Matcher(a, b).matches()) / total;
}

/** difflib's `real_quick_ratio`: an upper bound on {@link sequenceRatio} from the lengths alone. */
export function realQuickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * Math.min(a.length, b.length)) / total;
}

/** difflib's `quick_ratio`: an upper bound on {@link sequenceRatio} from character multisets. */
export function quickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  // Counts of b's code units: an array for ASCII, a Map for the rest.
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  for (let j = 0; j < b.length; j++) {
    const c = b.charCodeAt(j);
    if (c < 128) ascii[c]!++;
    else other.set(c, (other.get(c) ?? 0) + 1);
  }
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c < 128) {
      if (ascii[c]! > 0) {
        ascii[c]!--;
        matches++;
      }
    } else {
      const n = other.get(c) ?? 0;
      if (n > 0) {
        other.set(c, n - 1);
        matches++;
      }
    }
  }
  return (2 * matches) / total;
}

/**
 * `sequenceRatio(a, b) > threshold`, computed cheaply: the two upper bounds are tried first and
 * the full O(|a|·|b|)-worst-case ratio only when both exceed the threshold. Same answer as
 * comparing {@link sequenceRatio} directly.
 */
export function sequenceRatioExceeds(a: string, b: string, threshold: number): boolean {
  if (realQuickRatio(a, b) <= threshold) return false;
  if (quickRatio(a, b) <= threshold) return false;
  return sequenceRatio(a, b) > threshold;
}
