/**
 * Runs an async task for the newest request only, as search-as-you-type needs: while a run is in
 * flight, later requests wait; when it ends, one run serves every request that came meanwhile
 * (the requests in between are never run on their own, their answers would be stale at once). The
 * last request always gets a run that starts after it, so the final query is never dropped.
 */
export class Latest {
  readonly #task: (isStale: () => boolean) => Promise<void>;
  /** Requests so far; a run compares it with the count it started at to know it is stale. */
  #requests = 0;
  /** The run in flight, if any. */
  #running: Promise<void> | undefined;
  /** The run that will start after the one in flight, shared by every request made meanwhile. */
  #next: Promise<void> | undefined;

  /**
   * @param task one run; `isStale()` tells it, after each await, whether a newer request came
   *   (then its answer should not be shown: another run follows at once). A failed run is the
   *   task's to report; it never stops later runs.
   */
  constructor(task: (isStale: () => boolean) => Promise<void>) {
    this.#task = task;
  }

  /** Asks for a run; resolves once a run that started after this request has ended. */
  request(): Promise<void> {
    this.#requests++;
    // Runs never overlap: the next one starts when the one in flight has ended.
    this.#next ??= (this.#running ?? Promise.resolve()).then(() => {
      this.#next = undefined;
      const at = this.#requests;
      const run = this.#task(() => this.#requests !== at).catch(() => undefined);
      this.#running = run;
      void run.then(() => {
        if (this.#running === run) this.#running = undefined;
      });
      return run;
    });
    return this.#next;
  }
}
