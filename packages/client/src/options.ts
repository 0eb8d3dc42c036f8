/** `openMemory`'s options, and their validation into what the worker opens and the page's settings. */

import type { EncryptionOptions, ProgressEvent, SyncPlugin } from '@anamnesis/engine';
import { ENGLISH_MODEL_ID, MODEL_ID } from '@anamnesis/model-default';
import { AnamnesisError } from '@anamnesis/errors';

import type { ClientDevice, ClientStorage, ReadyPart, Role, WorkerOpenOptions } from './api.ts';

export type { Role };
import type { ClientEnvironment } from './environment.ts';

/** URLs (absolute, or relative to the page) where the app serves the files the worker needs. */
export interface AssetUrls {
  /**
   * Root of the local models, holding `<model id>/config.json`, `…/tokenizer.json`,
   * `…/onnx/*.onnx` (what `@anamnesis/client/vite` serves). Default `'/models/'`.
   */
  models?: string;
  /**
   * Folder of ONNX Runtime's wasm files (`ort-wasm-simd-threaded[.asyncify].{mjs,wasm}`) of the
   * exact onnxruntime-web version that `@huggingface/transformers` depends on (what
   * `@anamnesis/client/vite` serves). ONNX Runtime's code is loaded from here only, never from a
   * CDN: the engine refuses an ONNX model without it (`INVALID_INPUT`). Default `'/ort/'`.
   */
  ort?: string;
  /**
   * URL of the worker module: the app's own bundle of `@anamnesis/client/worker`, for a build
   * without Vite (esbuild, Rollup…; see the package README). Default: the worker next to this
   * module (`new URL('./worker.js', import.meta.url)`), which Vite bundles by itself.
   */
  worker?: string | URL;
}

/** Options of `openMemory`. */
export interface OpenMemoryOptions {
  /** Store name: one store (and one owner tab) per name; letters, digits, `.`, `-`, `_`. Default `'anamnesis'`. */
  name?: string;
  /**
   * `'opfs'` (fails with `UNSUPPORTED` where OPFS is missing), `'memory'` (a private store per tab,
   * lost on reload; no multi-tab), or `'auto'`: OPFS when it works, else memory, and
   * `stats().backendReason` says why. Default `'auto'`.
   */
  storage?: ClientStorage;
  /**
   * Where the app serves the model and ONNX Runtime files. Defaults: `'/models/'`, `'/ort/'` (the
   * runtime's files are only fetched for a model run on ONNX Runtime: see `runtime`).
   */
  assets?: AssetUrls;
  /**
   * Embedding model id, a folder under `assets.models` (or on `remoteHost`), or `'tfidf'` for the
   * zero-model TF-IDF backend (no model or ONNX Runtime is loaded). Default: the embedded default
   * model (`anamnesis/static-multi-64d`, multilingual). `ENGLISH_MODEL_ID` of
   * `@anamnesis/model-default` (`anamnesis/glove-100d-sif`) is the English-only model, served from
   * its own root (`anamnesis({ modelRoot: ENGLISH_MODEL_ROOT })` of `@anamnesis/client/vite`).
   */
  model?: string;
  /**
   * `'wasm'`, `'webgpu'`, or `'auto'` (loads both, keeps the faster after a short warm-up). With
   * `'webgpu'`, where the browser has no WebGPU adapter the model loads on wasm in the same worker,
   * and where WebGPU fails to create a session the client starts a fresh worker on `'wasm'`; either
   * way `info.fellBackFrom` says why (and `info.selection.reason` is `'no-webgpu'` for the first).
   * Default: `'wasm'` for the default model and the English model (a table lookup gains nothing
   * from a GPU), `'auto'` for any other model.
   *
   * The default model (a static model) on `'wasm'` or `'auto'` runs in plain JavaScript, with the
   * same vectors and without ONNX Runtime (no `/ort/` file is fetched; about 130 MB less memory
   * and no runtime start-up); on `'webgpu'`, or with `runtime: 'onnx'`, it runs on ONNX Runtime.
   */
  device?: ClientDevice;
  /**
   * What runs a static model such as the default model: `'auto'` (plain JavaScript on `'wasm'` and
   * `'auto'` devices, ONNX Runtime on `'webgpu'`) or `'onnx'` (always ONNX Runtime, from
   * `assets.ort`). Any other model always runs on ONNX Runtime. Default `'auto'`.
   */
  runtime?: 'auto' | 'onnx';
  /**
   * A hub-like host to download models from (e.g. `'https://models.example.com/'`). Default: none,
   * and nothing is ever fetched from another origin.
   */
  remoteHost?: string;
  /**
   * ONNX Runtime wasm threads. Default: 1 where the page is not cross-origin isolated (e.g. an
   * extension page, which has `SharedArrayBuffer` but whose CSP forbids the blob: workers threads
   * need), else ONNX Runtime's default.
   */
  threads?: number;
  /** Ask for persistent storage (`navigator.storage.persist()`) before opening. Default `false`. */
  persist?: boolean;
  /**
   * Encryption at rest, opt-in per store: every page of the OPFS store and of its journal is
   * encrypted and authenticated (SQLite3 Multiple Ciphers, ChaCha20-Poly1305) with a key derived
   * from `passphrase` in the worker (scrypt, 128 MiB, about a second at each open). Needs
   * `@evolu/sqlite-wasm` installed and `anamnesis({ encryption: true })` in the Vite config
   * (else `UNSUPPORTED`); `storage: 'memory'` with it is `UNSUPPORTED`, and `'auto'` never falls
   * back to memory. A new store is created encrypted; `WRONG_PASSPHRASE` for a passphrase that
   * does not open the store, `ENCRYPTION_MISMATCH` for a plain store (or, without this option, an
   * encrypted one); neither changes it. `changePassphrase(next)` re-keys. A tab that forwards to
   * the store's owner (`follow`, a second tab) is checked the same way by the owner before any of
   * its calls is sent. Default: none (a plain store). See the engine's `docs/encryption.md`.
   */
  encryption?: EncryptionOptions;
  /**
   * Deadline of each call, in milliseconds: a call with no answer (and no progress event) for this
   * long rejects with `TIMEOUT`, e.g. when the worker died. `0` turns deadlines off. Default 30,000.
   */
  timeoutMs?: number;
  /** Deadline of opening (worker start, model load, store open, waiting for an owner), in ms. Default 120,000. */
  openTimeoutMs?: number;
  /**
   * How long a new owner keeps retrying a store whose files the previous owner's worker still
   * holds, in ms, before `STORE_LOCKED`. Default 10,000.
   */
  lockRetryMs?: number;
  /** When the store was embedded with another model: `'error'` (`MODEL_MISMATCH`) or `'reembed'`. Default `'error'`. */
  onModelMismatch?: 'error' | 'reembed';
  /**
   * SQLite's page cache of the OPFS store, in MB (1–4,096): what it keeps of the pages recalls
   * read, and so how far the worker's SQLite memory can grow. Default 64. At 100k memories a
   * session fills 64 MB; 16 MB costs about 0.5 ms of recall p50 there (see the engine's option).
   */
  pageCacheMb?: number;
  /** Progress of the model load and of a re-embedding (per-call progress: `rememberMany`/`import` options). */
  onProgress?: (event: ProgressEvent) => void;
  /** Called when this tab's role changes (a follower took over as owner). */
  onRoleChange?: (role: Role) => void;
  /**
   * Never own the store: always forward to the tab (or extension document) that does, waiting
   * for one to announce itself, and never take over when it goes. For short-lived pages (an
   * extension's popup) beside one long-lived owner. Needs Web Locks and BroadcastChannel.
   * Default `false`.
   */
  follow?: boolean;
  /**
   * Called when the client's state changes: `'ready'` once the store is open (calls run),
   * `'failed'` (with the error) when it could not be opened, `'closed'` after `close()`.
   */
  onStateChange?: (state: MemoryState, error?: unknown) => void;
  /**
   * Called as each part becomes ready, for an app to show: `'store'` (the store is open: calls
   * run) and `'model'` (the embedding model is loaded, or the TF-IDF backend is fitted). A model
   * on wasm (the default model's default) loads while the store opens, so `'store'` usually comes
   * first: until `'model'`, `recall` answers from the lexical legs and marks its results
   * `partial`, and writes are stored at once and embedded when the model is ready. A model that
   * may use WebGPU (`device: 'auto'` or `'webgpu'` where WebGPU exists) is loaded first (a failed
   * WebGPU session may need a fresh worker), so `'model'` comes first. In a follower tab both
   * arrive when it finds the owner.
   */
  onReady?: (part: ReadyPart) => void;
  /**
   * Sync with the user's other devices: `browserSync({ url, room, passphrase })` from
   * `@anamnesis/sync/browser` (installed beside the client). Started once the store is ready, by
   * one tab of the origin at a time (the others take over when it closes), stopped by `close()`;
   * `memory.sync()` gives the running sync (status and events). Default: none.
   */
  sync?: SyncPlugin;
}

/** Faults the test hooks can ask for (`@anamnesis/client/testing`); none in apps. */
export interface Faults {
  /** Make WebGPU session creation fail in the worker (to test the wasm fallback). */
  webGpuFailure?: boolean;
}

/**
 * A client's state: `'opening'` (calls wait, in order), `'ready'`, `'failed'` (every call rejects
 * with the opening error), `'closed'`.
 */
export type MemoryState = 'opening' | 'ready' | 'failed' | 'closed';

export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_OPEN_TIMEOUT_MS = 120_000;
const DEFAULT_LOCK_RETRY_MS = 10_000;

/** Resolved options. */
export interface Settings {
  name: string;
  timeoutMs: number;
  openTimeoutMs: number;
  ort: string;
  onProgress: ((e: ProgressEvent) => void) | undefined;
  onRoleChange: ((role: Role) => void) | undefined;
  onReady: ((part: ReadyPart) => void) | undefined;
  follow: boolean;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The wasm-only ONNX Runtime build's files in the `ort` folder (smaller and faster to start). */
export function plainRuntime(ort: string): { mjs: string; wasm: string } {
  return { mjs: `${ort}ort-wasm-simd-threaded.mjs`, wasm: `${ort}ort-wasm-simd-threaded.wasm` };
}

function resolveUrl(url: string, base: string | undefined): string {
  if (base === undefined) return url;
  try {
    return new URL(url, base).href;
  } catch {
    throw new AnamnesisError('INVALID_INPUT', `not a URL: ${url}`);
  }
}

function checkMs(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a non-negative number of ms`);
  }
  return value;
}

/** Validates `openMemory`'s options: what the worker opens with, and the page's settings. */
export function resolveOptions(
  options: OpenMemoryOptions,
  env: ClientEnvironment,
  faults: Faults = {},
): { open: WorkerOpenOptions; settings: Settings } {
  if (options === null || typeof options !== 'object') {
    throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
  }
  const name = options.name ?? 'anamnesis';
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      'name must be 1-128 letters, digits, dots, dashes or underscores',
    );
  }
  const storage = options.storage ?? 'auto';
  if (!['auto', 'opfs', 'memory'].includes(storage)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown storage ${String(storage)}`);
  }
  const model = options.model ?? MODEL_ID;
  const device =
    options.device ?? (model === MODEL_ID || model === ENGLISH_MODEL_ID ? 'wasm' : 'auto');
  if (!['auto', 'webgpu', 'wasm'].includes(device)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown device ${String(device)}`);
  }
  const runtime = options.runtime ?? 'auto';
  if (!['auto', 'onnx'].includes(runtime)) {
    throw new AnamnesisError('INVALID_INPUT', `unknown runtime ${String(runtime)}`);
  }
  let ort = resolveUrl(options.assets?.ort ?? '/ort/', env.baseUrl);
  if (!ort.endsWith('/')) ort += '/';
  const models = resolveUrl(options.assets?.models ?? '/models/', env.baseUrl);
  const settings: Settings = {
    name,
    timeoutMs: checkMs(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    openTimeoutMs: checkMs(options.openTimeoutMs, DEFAULT_OPEN_TIMEOUT_MS, 'openTimeoutMs'),
    ort,
    onProgress: options.onProgress,
    onRoleChange: options.onRoleChange,
    onReady: options.onReady,
    follow: options.follow === true,
  };
  const threads =
    options.threads ??
    ((globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false
      ? 1
      : undefined);
  const open: WorkerOpenOptions = {
    name,
    storage,
    embedder:
      model === 'tfidf'
        ? 'tfidf'
        : {
            model,
            localModelPath: models,
            device,
            ...(runtime !== 'auto' ? { runtime } : {}),
            // wasm only: the plain build (14 MB, about half the start-up); WebGPU needs asyncify's.
            wasmPaths: device === 'wasm' ? plainRuntime(ort) : ort,
            ...(options.remoteHost !== undefined ? { remoteHost: options.remoteHost } : {}),
            ...(threads !== undefined ? { threads } : {}),
          },
    onModelMismatch: options.onModelMismatch ?? 'error',
    lockRetryMs: checkMs(options.lockRetryMs, DEFAULT_LOCK_RETRY_MS, 'lockRetryMs'),
    ...(options.pageCacheMb !== undefined ? { pageCacheMb: options.pageCacheMb } : {}),
    ...(options.encryption !== undefined ? { encryption: options.encryption } : {}),
    ...(faults.webGpuFailure ? { simulateWebGpuFailure: true } : {}),
  };
  return { open, settings };
}
