/**
 * Work done behind the engine's calls, a step per macrotask: the first step once the engine has
 * been quiet for `idleMs` (no call in flight, none started or ended since: see
 * {@link QuietSteps.postpone}), the next ones at once after it while the engine stays quiet, until
 * a step says nothing remains.
 * Each step runs whole between calls, so a call never waits for more than one step; a step
 * that throws ends the work (what it was building stays incomplete, which its owner tolerates).
 */
export class QuietSteps {
  readonly #step: () => boolean;
  readonly #idleMs: number;
  readonly #busy: () => boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param step does one step; returns whether steps remain
   * @param idleMs quiet time (ms) before the first step, and before the next after a call
   * @param busy whether a call is in flight (a call longer than `idleMs` awaits between its
   *   parts: no step runs there); default: never
   */
  constructor(step: () => boolean, idleMs: number, busy: () => boolean = () => false) {
    this.#step = step;
    this.#idleMs = idleMs;
    this.#busy = busy;
  }

  /** Whether steps are scheduled. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** Schedules the steps, the first after the quiet time (again from now if they were scheduled). */
  start(): void {
    this.#schedule(this.#idleMs);
  }

  /** A call of the engine starts or ends: scheduled steps wait for another quiet spell. */
  postpone(): void {
    if (this.#timer !== undefined) this.#schedule(this.#idleMs);
  }

  /** Stops the steps (the store is closing, or the work starts over). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delay: number): void {
    this.stop();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#busy()) {
        this.#schedule(this.#idleMs);
        return;
      }
      let more: boolean;
      try {
        more = this.#step();
      } catch {
        more = false;
      }
      if (more) this.#schedule(0);
    }, delay);
    (this.#timer as { unref?: () => void }).unref?.(); // never keeps Node alive
  }
}
