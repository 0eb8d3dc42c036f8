import type { RecallStage, RecallStageTimes } from '../types.ts';

/** Zeroed {@link RecallStageTimes}: every stage, in pipeline order. */
export function emptyStageTimes(): RecallStageTimes {
  const ms: Record<RecallStage, number> = {
    query: 0,
    embed: 0,
    fts: 0,
    expansion: 0,
    vector: 0,
    date: 0,
    graph: 0,
    rows: 0,
    fusion: 0,
    signals: 0,
    mmr: 0,
    answer: 0,
  };
  return { recalls: 0, ms };
}

/** Adds each stage's time of one recall to `totals`: {@link lap} ends the stage named. */
export class StageClock {
  readonly #totals: RecallStageTimes | undefined;
  #last = performance.now();

  constructor(totals: RecallStageTimes | undefined) {
    this.#totals = totals;
    if (totals) totals.recalls++;
  }

  /** Ends `stage`: the time since the previous lap (or the start) is added to it. */
  lap(stage: RecallStage): void {
    if (!this.#totals) return;
    const now = performance.now();
    this.#totals.ms[stage] += now - this.#last;
    this.#last = now;
  }
}
