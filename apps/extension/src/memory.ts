/**
 * Opening the extension's store. The offscreen document is its one long-lived owner (its dedicated
 * worker runs the engine on the extension origin's OPFS); the popup and the full page never own it:
 * they ask the service worker to make sure the offscreen document runs, and forward every call to
 * it (`follow`), so closing a popup never interrupts a write.
 */
import { connectMemory, type MemoryClient, type OpenMemoryOptions } from '@anamnesis/client';

import { STORE_NAME, type EnsureOffscreenMessage } from './messages.ts';

/** True in the ONNX variant's build (`pnpm build:onnx`: ONNX Runtime packaged under `/ort/`). */
declare const __ANAMNESIS_ONNX__: boolean;

/**
 * The model (and, in the ONNX variant, ONNX Runtime) files are packaged in the extension
 * (`/models/`, `/ort/`). The default build runs the default model in plain JavaScript; the ONNX
 * variant runs it on ONNX Runtime, on WebGPU where that is faster.
 */
function options(): OpenMemoryOptions {
  return {
    name: STORE_NAME,
    storage: 'opfs',
    persist: true,
    assets: { models: chrome.runtime.getURL('models/'), ort: chrome.runtime.getURL('ort/') },
    ...(__ANAMNESIS_ONNX__ ? { device: 'auto', runtime: 'onnx' } : {}),
    // Pages remembered with another model (the English model, the default before issue 67) are
    // embedded again with the packaged model once, as the store opens, rather than refused.
    onModelMismatch: 'reembed',
  };
}

/** The offscreen document: opens (and owns) the store. Calls may be made at once. */
export function openOwnerStore(): MemoryClient {
  return connectMemory(options());
}

/**
 * An extension page (popup, full page): the store through its owner, the offscreen document,
 * which the service worker starts if needed. Calls may be made at once; they wait for the owner.
 */
export function openPageStore(): MemoryClient {
  const ensure: EnsureOffscreenMessage = { target: 'background', type: 'ensure-offscreen' };
  void chrome.runtime.sendMessage(ensure).catch(() => undefined);
  return connectMemory({ ...options(), follow: true });
}
