/**
 * Lists read from the store, kept by key until the store changes: the least recently used
 * dropped first once their entries pass a capacity. A search box asks for the same words
 * keystroke after keystroke, and a common word's matches are thousands of rows to read again.
 */
export class KeptLists<V> {
  readonly #lists = new Map<string, V>();
  readonly #capacity: number;
  readonly #sizeOf: (list: V) => number;
  #size = 0;

  /**
   * @param capacity entries kept over all lists (a list longer than this is never kept)
   * @param sizeOf a list's entries
   */
  constructor(capacity: number, sizeOf: (list: V) => number) {
    this.#capacity = capacity;
    this.#sizeOf = sizeOf;
  }

  /** The list kept under `key`, if any (it becomes the most recently used). */
  kept(key: string): V | undefined {
    const list = this.#lists.get(key);
    if (list !== undefined) {
      this.#lists.delete(key); // most recently used last
      this.#lists.set(key, list);
    }
    return list;
  }

  /** Whether a list is kept under `key` (it stays where it is in the order of use). */
  has(key: string): boolean {
    return this.#lists.has(key);
  }

  /** The list kept under `key`, or the one `read` gives (kept when it fits). */
  get(key: string, read: () => V): V {
    const kept = this.kept(key);
    if (kept !== undefined) return kept;
    const fresh = read();
    this.keep(key, fresh);
    return fresh;
  }

  /** Keeps `list` under `key` (unless it alone is over the capacity), dropping the oldest as needed. */
  keep(key: string, list: V): void {
    const n = this.#sizeOf(list);
    if (n > this.#capacity || this.#lists.has(key)) return;
    for (const [oldest, old] of this.#lists) {
      if (this.#size + n <= this.#capacity) break;
      this.#lists.delete(oldest);
      this.#size -= this.#sizeOf(old);
    }
    this.#lists.set(key, list);
    this.#size += n;
  }
}
