/**
 * What runs the notes app's embedding model, as the person chose it in the Model panel:
 * `'js'` (the default: the default model in plain JavaScript, nothing more to download),
 * `'onnx'` (the same model on ONNX Runtime's wasm build) or `'webgpu'` (on ONNX Runtime's WebGPU
 * build). The vectors are the same, so switching keeps the store as it is. ONNX Runtime is not part
 * of the first visit: choosing a path that needs it downloads its files first, with progress, and
 * the service worker keeps them for offline use (see `../sw-files.ts`).
 */
import type { OpenMemoryOptions } from '@anamnesis/client';

/** A runtime the person can choose. */
export type RuntimeChoice = 'js' | 'onnx' | 'webgpu';

/** The choices, in the order the panel lists them, with what each costs. */
export const RUNTIME_CHOICES: readonly { value: RuntimeChoice; label: string }[] = [
  { value: 'js', label: 'JavaScript (built in)' },
  { value: 'onnx', label: 'ONNX Runtime, wasm (downloads 14 MB once)' },
  { value: 'webgpu', label: 'ONNX Runtime, WebGPU (downloads 27 MB once)' },
];

/**
 * Where the choice is kept: localStorage, read synchronously, so that the store opens on the
 * chosen runtime from the app's first moment (the other settings are read from IndexedDB later).
 */
const KEY = 'anamnesis-notes:runtime';

/** The saved choice (`'js'` when none, or an unknown one, was saved). */
export function loadRuntimeChoice(storage: Pick<Storage, 'getItem'> | undefined): RuntimeChoice {
  const saved = storage?.getItem(KEY);
  return RUNTIME_CHOICES.some((c) => c.value === saved) ? (saved as RuntimeChoice) : 'js';
}

/** Saves the choice (`'js'` removes the key). */
export function saveRuntimeChoice(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  choice: RuntimeChoice,
): void {
  if (choice === 'js') storage?.removeItem(KEY);
  else storage?.setItem(KEY, choice);
}

/** `connectMemory`'s options for a choice. */
export function runtimeOptions(
  choice: RuntimeChoice,
): Pick<OpenMemoryOptions, 'device' | 'runtime'> {
  if (choice === 'onnx') return { device: 'wasm', runtime: 'onnx' };
  if (choice === 'webgpu') return { device: 'webgpu' };
  return {};
}

/**
 * ONNX Runtime's files a choice loads (under the app's `/ort/`): the wasm-only build for `'onnx'`,
 * the asyncify build (wasm and WebGPU) for `'webgpu'`. Where the browser has no WebGPU, the model
 * runs on that build's wasm; where a WebGPU session fails, the client falls back to the default
 * model in plain JavaScript, which needs neither.
 */
export function runtimeFiles(choice: RuntimeChoice, ort = '/ort/'): string[] {
  if (choice === 'onnx')
    return ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'].map((f) => ort + f);
  if (choice === 'webgpu')
    return ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm'].map(
      (f) => ort + f,
    );
  return [];
}

/** Bytes of a download so far, and in all (0 while unknown). */
export interface DownloadProgress {
  loaded: number;
  total: number;
}

/**
 * Downloads `urls` one after the other, reading each body to the end (through the service worker,
 * which keeps them), and reports the bytes read. The total is the sum of the `Content-Length`s
 * known so far, never below what was read (a compressed response's length counts less than its
 * body). Rejects when a file fails (offline, 404).
 */
export async function downloadFiles(
  urls: readonly string[],
  onProgress: (p: DownloadProgress) => void,
  fetcher: typeof fetch = fetch,
): Promise<void> {
  // Asked for together, so that the total is known early; read one after the other.
  const responses = await Promise.all(urls.map((url) => fetcher(url)));
  const failed = responses.findIndex((r) => !r.ok);
  if (failed >= 0) throw new Error(`${urls[failed]}: HTTP ${responses[failed]!.status}`);
  const total = responses.reduce((s, r) => s + Number(r.headers.get('content-length') ?? 0), 0);
  let loaded = 0;
  onProgress({ loaded, total });
  for (const response of responses) {
    const reader = response.body?.getReader();
    if (!reader) {
      loaded += (await response.arrayBuffer()).byteLength;
    } else {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        loaded += value.byteLength;
        onProgress({ loaded, total: Math.max(total, loaded) });
      }
    }
  }
  onProgress({ loaded, total: Math.max(total, loaded) });
}
