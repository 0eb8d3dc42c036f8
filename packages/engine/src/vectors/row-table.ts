/**
 * Where each memory's vector sits in the index: row by rid. SQLite gives rids in ascending order
 * from 1, so a typed array indexed by rid holds them in 4 bytes each and is filled at open without
 * a hash insert per vector (a `Map` of 100k entries costs tens of milliseconds to build and a few
 * MB). A rid far beyond the rows held (more than {@link SPREAD} times their number, and past
 * {@link DIRECT}) goes to a `Map` instead, so a sparse store does not allocate for the gaps.
 */

/** Rids below this are always held directly. */
const DIRECT = 1 << 16;
/** A rid up to this many times the rows held (plus {@link DIRECT}) is held directly. */
const SPREAD = 4;

export class RowTable {
  /** Row + 1 by rid (0: none). */
  #direct = new Int32Array(0);
  /** Rows of rids beyond {@link RowTable.#direct}'s reach when they were set. */
  readonly #far = new Map<number, number>();
  /** Rids held. */
  #size = 0;

  get(rid: number): number | undefined {
    const row = rid >= 0 && rid < this.#direct.length ? this.#direct[rid]! - 1 : -1;
    if (row >= 0) return row;
    return this.#far.size > 0 ? this.#far.get(rid) : undefined;
  }

  has(rid: number): boolean {
    return this.get(rid) !== undefined;
  }

  /** Sets the row of `rid` (an integer; SQLite gives positive ones, a negative one goes to the Map). */
  set(rid: number, row: number): void {
    if (rid >= this.#direct.length && rid < DIRECT + SPREAD * (this.#size + 1)) this.#reach(rid);
    if (rid >= 0 && rid < this.#direct.length) {
      if (this.#direct[rid] === 0) {
        if (this.#far.size > 0 && this.#far.delete(rid)) this.#size--;
        this.#size++;
      }
      this.#direct[rid] = row + 1;
      return;
    }
    if (!this.#far.has(rid)) this.#size++;
    this.#far.set(rid, row);
  }

  /**
   * Sets the rows `first`, `first + 1`, … of `rids` in order, as {@link set} on each would: an
   * open adds a snapshot part's rids at once, so the direct table is grown once for the part and
   * the rids are written in one tight loop.
   */
  setRun(rids: ArrayLike<number>, first: number): void {
    let max = -Infinity;
    for (let i = 0; i < rids.length; i++) if (rids[i]! > max) max = rids[i]!;
    if (max >= this.#direct.length && max < DIRECT + SPREAD * (this.#size + rids.length))
      this.#reach(max);
    for (let i = 0; i < rids.length; i++) {
      const rid = rids[i]!;
      const direct = this.#direct; // `set` below may grow it
      if (rid >= 0 && rid < direct.length && this.#far.size === 0) {
        if (direct[rid] === 0) this.#size++;
        direct[rid] = first + i + 1;
      } else this.set(rid, first + i);
    }
  }

  delete(rid: number): void {
    if (rid >= 0 && rid < this.#direct.length && this.#direct[rid] !== 0) {
      this.#direct[rid] = 0;
      this.#size--;
    } else if (this.#far.delete(rid)) this.#size--;
  }

  /** Room for rids up to `rid` (at least doubling, so a run of ascending rids grows rarely). */
  #reach(rid: number): void {
    const next = new Int32Array(Math.max(rid + 1, this.#direct.length * 2, 1024));
    next.set(this.#direct);
    this.#direct = next;
  }

  /** Bytes held by the direct table. */
  get bytes(): number {
    return this.#direct.byteLength;
  }
}
