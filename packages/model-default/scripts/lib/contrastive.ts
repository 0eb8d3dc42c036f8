/**
 * Contrastive training of a static embedding table on the CPU, deterministic to the bit.
 *
 * A text is a bag of token ids; its vector is the normalised sum of its tokens' rows, and row
 * `t` is `w_t · v_t`: a fixed smooth-inverse-frequency weight `w_t` times a trained vector `v_t`
 * (so the exported rows are SIF-weighted by construction, and frequent tokens learn slowly).
 * Each batch holds `B` pairs of one task (say German long description ↔ English long
 * description); the loss is the symmetric InfoNCE over the batch (every other pair's text is a
 * negative) with temperature τ. Gradients reach only the rows of the batch's tokens, and lazy Adam
 * updates only those rows (sparse updates: a batch touches a few thousand of the ~66,000 rows).
 *
 * Determinism: one thread, a seeded PRNG for every shuffle, a fixed order of every sum, float32
 * parameters written with `Float32Array` (round to nearest), and no `Math.exp`/`Math.pow` (whose
 * last bit may differ between JavaScript engines): {@link exp} uses only +, −, ×, ÷ and rounding,
 * which IEEE 754 fixes exactly. So the same data, settings and seed give the same table on any
 * machine.
 */

/** Texts as bags: `ids[start[i]..start[i+1])` and how often each occurs. */
export interface Bags {
  start: Int32Array;
  ids: Int32Array;
  counts: Float64Array;
}

/** Builds {@link Bags} from token-id lists, keeping only tokens with `trainable[id]` or a row. */
export function toBags(lists: readonly (readonly number[])[], keep: (id: number) => boolean): Bags {
  const start = new Int32Array(lists.length + 1);
  const ids: number[] = [];
  const counts: number[] = [];
  const seen = new Map<number, number>();
  lists.forEach((list, i) => {
    seen.clear();
    for (const id of list) {
      if (!keep(id)) continue;
      const at = seen.get(id);
      if (at === undefined) {
        seen.set(id, ids.length);
        ids.push(id);
        counts.push(1);
      } else counts[at]!++;
    }
    start[i + 1] = ids.length;
  });
  return { start, ids: Int32Array.from(ids), counts: Float64Array.from(counts) };
}

/** A task: pairs of texts (indices into the bags) that belong together. */
export interface Task {
  name: string;
  a: Int32Array;
  b: Int32Array;
  /** Passes over the task per epoch (a small language's pairs seen more often). */
  repeat: number;
}

export interface TrainOptions {
  epochs: number;
  batchSize: number;
  temperature: number;
  /** Adam learning rate of new rows; GloVe rows use `lr · gloveLrScale`. */
  lr: number;
  gloveLrScale: number;
  /** Learning rate falls linearly to `lr · finalLrFraction` over the run, after `warmup` steps. */
  finalLrFraction: number;
  warmup: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  seed: number;
}

/** splitmix32: a small seeded PRNG with a full 2^32 period; returns [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 4294967296;
  };
}

/** Fisher–Yates shuffle in place with `random`. */
export function shuffle(
  list: { [index: number]: unknown; length: number },
  random: () => number,
): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
}

const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.442695040888963387;

/**
 * e^x from +, −, ×, ÷ and rounding only, so every engine gives the same bits: x = k·ln 2 + r with
 * |r| ≤ ln 2 / 2 (Cody–Waite), e^r by its Taylor series to r^13/13! (relative error below
 * 1e-15), then × 2^k built exactly from its bits. For x below −745, 0.
 */
export function exp(x: number): number {
  if (x < -745) return 0;
  if (x > 709) return Infinity;
  const k = Math.round(x * INV_LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  let term = 1;
  let sum = 1;
  for (let n = 1; n <= 13; n++) {
    term = (term * r) / n;
    sum += term;
  }
  return sum * twoTo(k);
}

const bits = new DataView(new ArrayBuffer(8));
/** 2^k exactly, for integer k in −1074…1023. */
function twoTo(k: number): number {
  if (k < -1022) return twoTo(k + 52) / 4503599627370496; // subnormal: 2^(k+52) / 2^52
  bits.setUint32(0, (k + 1023) << 20);
  bits.setUint32(4, 0);
  return bits.getFloat64(0);
}

/** What {@link train} reports after each epoch (its callback may evaluate and log). */
export interface EpochReport {
  epoch: number;
  steps: number;
  meanLoss: number;
  seconds: number;
}

/**
 * Trains `v` (`[V, D]` float32, changed in place) on `tasks` with the symmetric in-batch
 * InfoNCE. Row `t` of the model is `weight[t] · v[t]`; `lrScale[t]` is 0 for rows that stay
 * fixed (zero rows), 1 for new rows and `gloveLrScale` for GloVe rows (the caller sets it).
 */
export function train(
  v: Float32Array,
  dims: number,
  weight: Float64Array,
  lrScale: Float32Array,
  bags: Bags,
  tasks: readonly Task[],
  options: TrainOptions,
  onEpoch: (report: EpochReport) => void,
): void {
  const D = dims;
  const V = weight.length;
  const B = options.batchSize;
  const tau = options.temperature;
  const { beta1, beta2, epsilon } = options;
  const random = prng(options.seed);
  const m = new Float32Array(V * D);
  const s = new Float32Array(V * D);
  const b1t = new Float64Array(V).fill(1);
  const b2t = new Float64Array(V).fill(1);
  const slot = new Int32Array(V).fill(-1);
  const grad = new Float64Array(V * D);
  const touched: number[] = [];

  const sumA = new Float64Array(B * D);
  const sumB = new Float64Array(B * D);
  const normA = new Float64Array(B);
  const normB = new Float64Array(B);
  const logits = new Float64Array(B * B);
  const g = new Float64Array(B * B);
  const dA = new Float64Array(B * D);
  const dB = new Float64Array(B * D);

  // Batches per epoch, for the learning-rate schedule.
  const perEpoch = tasks.reduce((n, t) => n + t.repeat * Math.floor(t.a.length / B), 0);
  const totalSteps = perEpoch * options.epochs;
  let step = 0;

  /** Sum of the rows of text `t` into `out[off..off+D)`; returns its norm. */
  const embed = (t: number, out: Float64Array, off: number): number => {
    out.fill(0, off, off + D);
    for (let k = bags.start[t]!; k < bags.start[t + 1]!; k++) {
      const id = bags.ids[k]!;
      const c = bags.counts[k]! * weight[id]!;
      const row = id * D;
      for (let d = 0; d < D; d++) out[off + d]! += c * v[row + d]!;
    }
    let n = 0;
    for (let d = 0; d < D; d++) n += out[off + d]! * out[off + d]!;
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < D; d++) out[off + d]! /= n;
    return n;
  };

  /** Adds `scale · weight[id] · ds` to the gradient of every token of text `t`. */
  const scatter = (t: number, ds: Float64Array, off: number) => {
    for (let k = bags.start[t]!; k < bags.start[t + 1]!; k++) {
      const id = bags.ids[k]!;
      if (lrScale[id] === 0) continue;
      let at = slot[id]!;
      if (at < 0) {
        at = slot[id] = touched.length;
        touched.push(id);
      }
      const c = bags.counts[k]! * weight[id]!;
      const base = at * D;
      for (let d = 0; d < D; d++) grad[base + d]! += c * ds[off + d]!;
    }
  };

  /** The gradient of the loss through the normalisation: (du − (du·u) u) / |s|. */
  const throughNorm = (du: Float64Array, u: Float64Array, norm: Float64Array, i: number) => {
    const off = i * D;
    if (norm[i]! === 0) {
      du.fill(0, off, off + D);
      return;
    }
    let dot = 0;
    for (let d = 0; d < D; d++) dot += du[off + d]! * u[off + d]!;
    for (let d = 0; d < D; d++) du[off + d] = (du[off + d]! - dot * u[off + d]!) / norm[i]!;
  };

  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    const started = performance.now();
    const batches: { task: Task; pairs: Int32Array }[] = [];
    for (const task of tasks) {
      for (let r = 0; r < task.repeat; r++) {
        const order = Int32Array.from({ length: task.a.length }, (_, i) => i);
        shuffle(order, random);
        for (let i = 0; i + B <= order.length; i += B)
          batches.push({ task, pairs: order.subarray(i, i + B) });
      }
    }
    shuffle(batches, random);
    let lossSum = 0;
    for (const { task, pairs } of batches) {
      step++;
      const progress = totalSteps > 1 ? (step - 1) / (totalSteps - 1) : 0;
      const warm = options.warmup > 0 ? Math.min(1, step / options.warmup) : 1;
      const lr = options.lr * warm * (1 - (1 - options.finalLrFraction) * progress);

      for (let i = 0; i < B; i++) {
        normA[i] = embed(task.a[pairs[i]!]!, sumA, i * D);
        normB[i] = embed(task.b[pairs[i]!]!, sumB, i * D);
      }
      for (let i = 0; i < B; i++) {
        for (let j = 0; j < B; j++) {
          let dot = 0;
          for (let d = 0; d < D; d++) dot += sumA[i * D + d]! * sumB[j * D + d]!;
          logits[i * B + j] = dot / tau;
        }
      }
      // g = ((row softmax − I) + (column softmax − I)) / 2B, and the loss.
      let loss = 0;
      for (let i = 0; i < B; i++) {
        let max = -Infinity;
        for (let j = 0; j < B; j++) max = Math.max(max, logits[i * B + j]!);
        let z = 0;
        for (let j = 0; j < B; j++) {
          const e = exp(logits[i * B + j]! - max);
          g[i * B + j] = e;
          z += e;
        }
        for (let j = 0; j < B; j++) g[i * B + j] = g[i * B + j]! / z / (2 * B);
        g[i * B + i]! -= 1 / (2 * B);
        loss -= Math.log(exp(logits[i * B + i]! - max) / z); // reporting only
      }
      for (let j = 0; j < B; j++) {
        let max = -Infinity;
        for (let i = 0; i < B; i++) max = Math.max(max, logits[i * B + j]!);
        let z = 0;
        const col = new Float64Array(B);
        for (let i = 0; i < B; i++) {
          col[i] = exp(logits[i * B + j]! - max);
          z += col[i]!;
        }
        for (let i = 0; i < B; i++) g[i * B + j]! += col[i]! / z / (2 * B);
        g[j * B + j]! -= 1 / (2 * B);
        loss -= Math.log(col[j]! / z);
      }
      lossSum += loss / (2 * B);

      // dL/du_a = (1/τ) g u_b, dL/du_b = (1/τ) gᵀ u_a.
      dA.fill(0);
      dB.fill(0);
      for (let i = 0; i < B; i++) {
        for (let j = 0; j < B; j++) {
          const c = g[i * B + j]! / tau;
          if (c === 0) continue;
          for (let d = 0; d < D; d++) {
            dA[i * D + d]! += c * sumB[j * D + d]!;
            dB[j * D + d]! += c * sumA[i * D + d]!;
          }
        }
      }
      for (let i = 0; i < B; i++) {
        throughNorm(dA, sumA, normA, i);
        throughNorm(dB, sumB, normB, i);
        scatter(task.a[pairs[i]!]!, dA, i * D);
        scatter(task.b[pairs[i]!]!, dB, i * D);
      }

      // Lazy Adam on the touched rows, in the order they were first touched.
      for (let at = 0; at < touched.length; at++) {
        const id = touched[at]!;
        const rate = lr * lrScale[id]!;
        b1t[id] = b1t[id]! * beta1;
        b2t[id] = b2t[id]! * beta2;
        const c1 = 1 - b1t[id];
        const c2 = 1 - b2t[id];
        const row = id * D;
        const base = at * D;
        for (let d = 0; d < D; d++) {
          const gd = grad[base + d]!;
          const md = (m[row + d] = beta1 * m[row + d]! + (1 - beta1) * gd);
          const sd = (s[row + d] = beta2 * s[row + d]! + (1 - beta2) * gd * gd);
          v[row + d] = v[row + d]! - (rate * (md / c1)) / (Math.sqrt(sd / c2) + epsilon);
          grad[base + d] = 0;
        }
        slot[id] = -1;
      }
      touched.length = 0;
    }
    onEpoch({
      epoch,
      steps: batches.length,
      meanLoss: lossSum / Math.max(1, batches.length),
      seconds: (performance.now() - started) / 1000,
    });
  }
}
