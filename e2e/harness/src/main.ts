/**
 * The test app's page: starts embedder workers and exposes {@link HarnessApi} on `window.harness`
 * for Playwright tests and the browser benchmark.
 */
import type {
  LoadOptions,
  LoadResult,
  RequestBody,
  Response,
  ThroughputResult,
  WireError,
} from './protocol.ts';

/** A load as seen from the page. */
export interface PageLoadResult extends LoadResult {
  /** Milliseconds from `new Worker()` to the loaded model (worker start, imports, model). */
  totalMs: number;
  /** Set when the first worker failed with a fresh-worker hint and a second one loaded wasm. */
  fellBackFrom?: WireError;
}

/** What the tests call on `window.harness`. */
export interface HarnessApi {
  /** Whether the page's `navigator.gpu.requestAdapter()` gives an adapter. */
  hasAdapter(): Promise<boolean>;
  /** Terminates the current worker (if any), starts a fresh one and loads the model in it. */
  load(options: LoadOptions): Promise<PageLoadResult>;
  /**
   * Like `load`, and when it fails with `details.freshWorker` (a failed WebGPU session poisons
   * the worker), terminates that worker and loads `wasm` in a fresh one: what a worker host does.
   */
  loadWithFallback(options: LoadOptions): Promise<PageLoadResult>;
  /** Like `load`, but returns the typed error (or null when the load succeeded). */
  loadError(options: LoadOptions): Promise<WireError | null>;
  /** Embeds texts in the current worker; vectors as plain arrays. */
  embed(texts: string[]): Promise<number[][]>;
  /** Embeds `texts` in batches of `batch` (after one warm-up batch) and times it. */
  throughput(texts: string[], batch: number): Promise<ThroughputResult>;
  /** Terminates the current worker. */
  terminate(): void;
}

/** An error thrown by the harness, carrying the worker's typed error. */
class HarnessError extends Error {
  readonly wire: WireError;
  constructor(wire: WireError) {
    super(`${wire.code ?? wire.name}: ${wire.message}`);
    this.wire = wire;
  }
}

class WorkerClient {
  readonly worker: Worker;
  readonly started: Promise<void>;
  #next = 1;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    let started!: () => void;
    this.started = new Promise((resolve) => (started = resolve));
    this.worker.onmessage = (event: MessageEvent<Response>) => {
      const message = event.data;
      if (message.id === 0) {
        started();
        return;
      }
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new HarnessError(message.error));
    };
    this.worker.onerror = (event) => {
      const error = new HarnessError({ name: 'WorkerError', message: event.message });
      for (const p of this.#pending.values()) p.reject(error);
      this.#pending.clear();
    };
  }

  call<T>(request: RequestBody): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  terminate(): void {
    this.worker.terminate();
    const error = new HarnessError({ name: 'WorkerError', message: 'terminated' });
    for (const p of this.#pending.values()) p.reject(error);
    this.#pending.clear();
  }
}

let current: WorkerClient | undefined;

function client(): WorkerClient {
  if (!current) throw new Error('no worker: call load() first');
  return current;
}

async function load(options: LoadOptions): Promise<PageLoadResult> {
  current?.terminate();
  const start = performance.now();
  current = new WorkerClient();
  const result = await current.call<LoadResult>({ op: 'load', options });
  return { ...result, totalMs: performance.now() - start };
}

const harness: HarnessApi = {
  async hasAdapter() {
    return (await navigator.gpu?.requestAdapter()) != null;
  },
  load,
  async loadWithFallback(options) {
    try {
      return await load(options);
    } catch (e) {
      const wire = e instanceof HarnessError ? e.wire : undefined;
      if (!wire?.details?.freshWorker) throw e;
      const result = await load({ ...options, device: 'wasm', breakWebGpu: false });
      return { ...result, fellBackFrom: wire };
    }
  },
  async loadError(options) {
    try {
      await load(options);
      return null;
    } catch (e) {
      if (e instanceof HarnessError) return e.wire;
      throw e;
    }
  },
  async embed(texts) {
    const vectors = await client().call<Float32Array[]>({ op: 'embed', texts });
    return vectors.map((v) => Array.from(v));
  },
  throughput(texts, batch) {
    return client().call<ThroughputResult>({ op: 'throughput', texts, batch });
  },
  terminate() {
    current?.terminate();
    current = undefined;
  },
};

(window as unknown as { harness: HarnessApi }).harness = harness;
document.body.dataset.ready = 'true';
