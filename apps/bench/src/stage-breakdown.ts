/**
 * Where recall's time goes: the difference of two reads of the engine's `stats().recallStages`
 * around a timed run, per recall and as a share of the whole, so that a regression names its
 * stage.
 */
import type { RecallStage, RecallStageTimes } from '@anamnesis/engine';

/** One stage's time per computed recall, and its share of all stages. */
export interface StageCost {
  stage: RecallStage;
  /** Milliseconds per recall (mean over the run). */
  ms: number;
  /** Share of the summed stages, 0..1. */
  share: number;
}

/** The cost of each stage between two reads (`before` older), in pipeline order. */
export function stageCosts(before: RecallStageTimes, after: RecallStageTimes): StageCost[] {
  const recalls = after.recalls - before.recalls;
  if (recalls <= 0) throw new Error('no recall was computed between the two reads');
  const stages = Object.keys(after.ms) as RecallStage[];
  const ms = stages.map((stage) => (after.ms[stage] - before.ms[stage]) / recalls);
  const total = ms.reduce((a, b) => a + b, 0);
  return stages.map((stage, i) => ({ stage, ms: ms[i]!, share: total > 0 ? ms[i]! / total : 0 }));
}

/** Table rows: stage, ms per recall, share (stages that took no time left out). */
export function stageRows(costs: readonly StageCost[]): string[][] {
  return costs
    .filter((c) => c.ms > 0)
    .map((c) => [c.stage, c.ms.toFixed(3), `${(c.share * 100).toFixed(1)}%`]);
}
