/** Opening the extension's store, the same way from every extension page. */
import { openMemory, type MemoryClient } from '@anamnesis/client';

import { STORE_NAME } from './messages.ts';

let opening: Promise<MemoryClient> | undefined;

/**
 * The store (`'pages'`) on OPFS, engine in a dedicated worker. The model and ONNX Runtime files are
 * packaged in the extension (`/models/`, `/ort/`, emitted by the anamnesis() Vite plugin).
 */
export function openStore(): Promise<MemoryClient> {
  opening ??= openMemory({
    name: STORE_NAME,
    storage: 'opfs',
    persist: true,
    assets: { models: chrome.runtime.getURL('models/'), ort: chrome.runtime.getURL('ort/') },
  });
  opening.catch(() => {
    opening = undefined;
  });
  return opening;
}
