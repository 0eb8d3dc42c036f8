/**
 * The phases of the start, as tests, benchmarks and the service worker see them: marked on
 * `<body>` (`data-ready="true"`, `data-store="open"`, `data-model="ready"`) and, at the frame that
 * shows them (as `type-to-paint` ends), as User Timing marks `notes:<phase>` that benchmarks read.
 */

let storeWasOpened: () => void = () => undefined;
/** Resolves when the first store opened (for the service worker). */
export const storeOpen = new Promise<void>((resolve) => (storeWasOpened = resolve));
let modelWasReady: () => void = () => undefined;
/** Resolves when the first store's model is ready (for the service worker). */
export const modelReady = new Promise<void>((resolve) => (modelWasReady = resolve));

/** Marks `phase` reached, with `value` on `<body>`. */
export function reached(phase: 'ready' | 'store' | 'model', value: string): void {
  if (phase === 'store') storeWasOpened();
  if (phase === 'model') modelWasReady();
  document.body.dataset[phase] = value;
  requestAnimationFrame(() => performance.mark(`notes:${phase}`));
}
