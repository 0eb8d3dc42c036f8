/**
 * Bootstrap intervals over questions (issue 42): how far a corpus line's score could move with
 * another draw of questions like these. Questions are resampled with replacement, `resamples`
 * times, with a fixed seed (mulberry32), so that a rerun prints the same interval.
 */
import { mulberry32 } from '@anamnesis/ranking';

/** A 95% interval: the 2.5th and 97.5th percentiles of the resampled means. */
export interface Interval {
  low: number;
  high: number;
}

/** Options of the bootstrap. */
export interface BootstrapOptions {
  /** How many resamples (default 2,000). */
  resamples?: number;
  /** The PRNG seed (default 42). */
  seed?: number;
}

const RESAMPLES = 2000;
const SEED = 42;

/** The `q`-quantile (0–1) of sorted values, by linear interpolation between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Means of `resamples` resamples (with replacement) of `values`, sorted. */
function resampledMeans(values: readonly number[], options: BootstrapOptions): number[] {
  const n = values.length;
  const random = mulberry32(options.seed ?? SEED);
  const means: number[] = [];
  for (let r = 0; r < (options.resamples ?? RESAMPLES); r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means.push(sum / n);
  }
  return means.sort((a, b) => a - b);
}

/** 95% percentile bootstrap interval of the mean of per-question scores. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): Interval {
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN };
  const means = resampledMeans(values, options);
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

/**
 * 95% paired bootstrap interval of mean(a) − mean(b), where `a[i]` and `b[i]` are two rankers'
 * scores on the same question `i`: the questions are resampled, each keeping its pair. An interval
 * that excludes 0 says the difference is unlikely to be this draw of questions alone.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): Interval {
  if (a.length !== b.length) throw new RangeError('pairedBootstrap: a and b differ in length');
  return bootstrapMean(
    a.map((x, i) => x - b[i]!),
    options,
  );
}

/** `[low, high]` with three decimals, signed when `signed` (for differences). */
export function formatInterval(i: Interval, signed = false): string {
  const f = (x: number) => `${signed && x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  return `[${f(i.low)}, ${f(i.high)}]`;
}
