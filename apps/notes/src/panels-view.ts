/**
 * The Model and Storage panels: what runs the model, where the notes live, how much they take;
 * and the banners that say so at the top (WebGPU chosen but not running, notes not saved).
 */
import type { MemoryClient, MemoryInfo } from '@anamnesis/client';

import type { AppState } from './app-state.ts';
import { bytes, h } from './dom.ts';
import type { Ui } from './layout.ts';
import { loadRuntimeChoice } from './runtime-choice.ts';

/** Why the model runs where it does, for people. */
const DEVICE_REASONS: Record<string, string> = {
  requested: 'chosen by the app (a static model gains nothing on a GPU)',
  'no-webgpu': 'WebGPU is not available in this browser',
  'webgpu-failed': 'WebGPU failed to start; fell back to wasm',
  'webgpu-faster': 'WebGPU was faster in a warm-up',
  'wasm-faster': 'wasm was faster than WebGPU in a warm-up',
};

function kv(panel: HTMLElement, rows: [string, string][]): void {
  panel.replaceChildren(...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

export class PanelsView {
  readonly #state: AppState;
  readonly #ui: Ui;

  constructor(state: AppState, ui: Ui) {
    this.#state = state;
    this.#ui = ui;
  }

  /**
   * What runs the model: as the worker reported it when it knows at open (a model loaded before
   * the store), else the person's choice (a WebGPU choice that fell back runs in JavaScript).
   */
  #runtimeShown(): string {
    const info = this.#state.memory.info;
    const onnx =
      info?.runtime !== undefined
        ? info.runtime === 'onnx'
        : !info?.fellBackFrom && loadRuntimeChoice(globalThis.localStorage) !== 'js';
    return onnx ? 'ONNX Runtime' : 'JavaScript';
  }

  /**
   * The WebGPU notice: shown while the person's choice is WebGPU and the model runs without it
   * (the client's `info.fellBackFrom`), in words for people; hidden otherwise.
   */
  #showGpuFallback(info: MemoryInfo | undefined): void {
    const banner = this.#ui.gpuBanner;
    const fell = info?.fellBackFrom;
    if (!fell || loadRuntimeChoice(globalThis.localStorage) !== 'webgpu') {
      banner.hidden = true;
      return;
    }
    const absent = info.selection?.reason === 'no-webgpu';
    banner.replaceChildren(
      h(
        'strong',
        {},
        absent ? 'WebGPU is not available in this browser. ' : 'WebGPU could not start here. ',
      ),
      absent
        ? 'Search runs on WebAssembly (wasm) on the processor instead.'
        : 'Search runs on the processor instead.',
      ' Your notes and what search finds are the same; only the speed may differ.',
    );
    banner.hidden = false;
  }

  async refreshStats(): Promise<void> {
    const { memory, store } = this.#state;
    const { modelPanel, storagePanel, persistButton, memoryBanner } = this.#ui;
    let info: MemoryInfo | undefined;
    try {
      info = memory.info;
    } catch {
      info = undefined; // not open yet
    }
    this.#showGpuFallback(info);
    let s: Awaited<ReturnType<MemoryClient['stats']>>;
    try {
      s = await memory.stats();
    } catch {
      return; // the store is not open (a failed start says why in its own banner)
    }
    const reason = memory.info?.selection?.reason;
    const why = reason ? (DEVICE_REASONS[reason] ?? reason) : undefined;
    kv(modelPanel, [
      ['model', s.model.id],
      ['device', s.model.device === 'webgpu' ? 'WebGPU' : s.model.device],
      ['why', why ?? '—'],
      ['runtime', this.#runtimeShown()],
      ['dimensions', String(s.model.dims)],
    ]);
    kv(storagePanel, [
      [
        'backend',
        s.backend === 'opfs'
          ? 'OPFS (on disk)'
          : `in memory${s.backendReason ? `: ${s.backendReason}` : ''}`,
      ],
      ['notes', String(store.size)],
      ['store size', bytes(s.bytes)],
      ['origin usage', `${bytes(s.usage)} of ${bytes(s.quota)}`],
      [
        'persisted',
        s.persisted === null ? 'unknown' : s.persisted ? 'yes' : 'no: the browser may evict it',
      ],
    ]);
    persistButton.hidden = s.persisted === true || s.backend !== 'opfs';
    memoryBanner.hidden = s.backend !== 'memory';
  }

  /** Listens to the persistent storage button. */
  listen(): void {
    // Not awaited before anything else: Firefox answers only once the person answers its prompt.
    this.#ui.persistButton.addEventListener('click', () => {
      void navigator.storage
        ?.persist?.()
        .catch(() => false)
        .then(() => this.refreshStats());
    });
  }
}
