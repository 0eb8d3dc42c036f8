/** The owner's worker: started, opened, called with deadlines, closed. */

import type { ProgressEvent, StoreChange } from '@anamnesis/engine';
import { AnamnesisError, isAnamnesisError } from '@anamnesis/errors';
import * as Comlink from 'comlink';

import {
  PROGRESS_ARG,
  type EngineMethod,
  type OpenInfo,
  type RemoteWorkerApi,
  type WorkerOpenOptions,
} from './api.ts';
import { withDeadline } from './deadline.ts';
import type { ClientEnvironment, WorkerLike } from './environment.ts';
import { DEFAULT_TIMEOUT_MS, plainRuntime, type Settings } from './options.ts';
import { unwrap, type Reply } from './wire.ts';

/** Splits a `{ onProgress }` callback off a method's options argument (functions do not clone). */
export function splitProgress(
  method: EngineMethod,
  args: readonly unknown[],
): { args: unknown[]; onProgress: ((e: ProgressEvent) => void) | undefined } {
  const at = PROGRESS_ARG[method];
  const list = [...args];
  const options = at === undefined ? undefined : list[at];
  if (
    at === undefined ||
    !options ||
    typeof options !== 'object' ||
    typeof (options as { onProgress?: unknown }).onProgress !== 'function'
  ) {
    return { args: list, onProgress: undefined };
  }
  const { onProgress, ...rest } = options as { onProgress: (e: ProgressEvent) => void };
  list[at] = rest;
  return { args: list, onProgress };
}

/**
 * A callback for the worker (a Comlink proxy) that also restarts the deadline: each event is a
 * sign of life. Undefined when there is no callback.
 */
export function signOfLife<E>(
  callback: ((event: E) => void) | undefined,
  touch: () => void,
): ((event: E) => void) | undefined {
  return callback
    ? Comlink.proxy((event: E) => {
        touch();
        callback(event);
      })
    : undefined;
}

/** Why the model does not run on the WebGPU asked for (`MemoryInfo.fellBackFrom`'s form). */
type FellBack = { code: string; message: string };

/**
 * What `info.fellBackFrom` says when WebGPU was asked for and the worker loaded the model
 * elsewhere because there is no adapter (`selection.reason` `'no-webgpu'`); undefined otherwise.
 */
function noAdapterFallback(open: WorkerOpenOptions, info: OpenInfo): FellBack | undefined {
  if (open.embedder === 'tfidf' || open.embedder.device !== 'webgpu') return undefined;
  if (info.selection?.reason !== 'no-webgpu' || info.device === 'webgpu') return undefined;
  return {
    code: 'UNSUPPORTED',
    message: `WebGPU has no adapter here: the model runs on ${info.device}`,
  };
}

/** One started worker with its engine open. */
export class WorkerHost {
  readonly info: OpenInfo;
  readonly fellBackFrom: FellBack | undefined;
  readonly #worker: WorkerLike;
  readonly #remote: Comlink.Remote<RemoteWorkerApi>;
  readonly #timeoutMs: number;

  private constructor(
    worker: WorkerLike,
    remote: Comlink.Remote<RemoteWorkerApi>,
    info: OpenInfo,
    timeoutMs: number,
    fellBackFrom: FellBack | undefined,
  ) {
    this.#worker = worker;
    this.#remote = remote;
    this.info = info;
    this.#timeoutMs = timeoutMs;
    this.fellBackFrom = fellBackFrom;
  }

  /**
   * Starts a worker (or takes `worker`, started and sent nothing yet) and opens the store in it;
   * on a poisoned WebGPU, retries in a fresh worker on wasm. WebGPU asked for where there is no
   * adapter runs on wasm in the same worker (the engine's choice), and `fellBackFrom` says so too.
   * `onChange` hears every change the store commits while this worker has it open.
   */
  static async start(
    env: ClientEnvironment,
    open: WorkerOpenOptions,
    settings: Settings,
    onChange?: (change: StoreChange) => void,
    worker: WorkerLike = env.createWorker(),
  ): Promise<WorkerHost> {
    try {
      return await WorkerHost.#launch(worker, open, settings, undefined, onChange);
    } catch (e) {
      if (
        !isAnamnesisError(e, 'UNSUPPORTED') ||
        e.details?.freshWorker !== true ||
        open.embedder === 'tfidf'
      )
        throw e;
      const wasm: WorkerOpenOptions = {
        ...open,
        embedder: { ...open.embedder, device: 'wasm', wasmPaths: plainRuntime(settings.ort) },
        simulateWebGpuFailure: false,
      };
      return WorkerHost.#launch(
        env.createWorker(),
        wasm,
        settings,
        { code: e.code, message: e.message },
        onChange,
      );
    }
  }

  static async #launch(
    worker: WorkerLike,
    open: WorkerOpenOptions,
    settings: Settings,
    fellBackFrom: FellBack | undefined,
    onChange: ((change: StoreChange) => void) | undefined,
  ): Promise<WorkerHost> {
    const remote = Comlink.wrap<RemoteWorkerApi>(worker);
    let onError: ((event: Event) => void) | undefined;
    try {
      const failed = new Promise<never>((_, reject) => {
        onError = (event: Event) =>
          reject(
            new AnamnesisError(
              'INTERNAL',
              `the worker failed to start: ${(event as ErrorEvent).message ?? 'error event'}`,
            ),
          );
        worker.addEventListener('error', onError);
      });
      const { onProgress, onReady } = settings;
      const info = await withDeadline(settings.openTimeoutMs, 'open', (touch) =>
        Promise.race([
          remote
            .open(
              open,
              signOfLife(onProgress, touch),
              signOfLife(onReady, touch),
              onChange ? Comlink.proxy(onChange) : undefined,
            )
            .then((r) => unwrap(r as Reply<OpenInfo>)),
          failed,
        ]),
      );
      const fell = fellBackFrom ?? noAdapterFallback(open, info);
      return new WorkerHost(worker, remote, info, settings.timeoutMs, fell);
    } catch (e) {
      worker.terminate();
      throw e;
    } finally {
      if (onError) worker.removeEventListener('error', onError);
    }
  }

  /** Runs one engine method in the worker, with the call deadline. */
  call(
    method: EngineMethod,
    args: unknown[],
    onProgress: ((e: ProgressEvent) => void) | undefined,
    operation?: string,
  ): Promise<unknown> {
    const call = this.#remote.call as unknown as (
      method: EngineMethod,
      args: unknown[],
      onProgress?: unknown,
      operation?: string,
    ) => Promise<Reply<unknown>>;
    return withDeadline(this.#timeoutMs, method, (touch) =>
      call(method, args, signOfLife(onProgress, touch), operation).then(unwrap),
    );
  }

  /** Closes the engine (bounded by the call deadline), then terminates the worker. */
  async close(): Promise<void> {
    try {
      await withDeadline(this.#timeoutMs || DEFAULT_TIMEOUT_MS, 'close', () =>
        this.#remote.close().then(unwrap),
      );
    } finally {
      this.terminate();
    }
  }

  terminate(): void {
    this.#worker.terminate();
  }
}
