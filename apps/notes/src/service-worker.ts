/**
 * The notes app's service worker (`/sw.js`, written by `pwa.ts` at build): registered once the app
 * has answered a first visit (the store open and the model ready), so that its precache, which
 * makes the app work offline, revalidates what the page already downloaded instead of competing
 * with it for the first search (a browser keeps six connections to an origin, and the precache
 * asks for every file at once).
 */

let registration: Promise<ServiceWorkerRegistration | undefined> | undefined;

/** Whether this page registers a service worker (a production build, in a browser with them). */
function available(): boolean {
  return import.meta.env.PROD && 'serviceWorker' in navigator;
}

/** Registers the service worker (once; later calls return the same registration). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!available()) return Promise.resolve(undefined);
  registration ??= navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .catch((e: unknown) => {
      console.warn('the service worker could not be registered: no offline use', e);
      return undefined;
    });
  return registration;
}

/**
 * Registers the service worker once `answered` resolves (the model ready), or `fallbackMs` (ms)
 * after `started` resolves (the store open) if the model takes longer or fails.
 */
export function registerWhenAnswered(
  answered: Promise<unknown>,
  started: Promise<unknown>,
  fallbackMs = 10_000,
): void {
  const late = started.then(() => new Promise((resolve) => setTimeout(resolve, fallbackMs)));
  void Promise.race([answered, late]).then(registerServiceWorker);
}

/**
 * Resolves once the service worker controls the page (registering it now if it was not yet), so
 * that what the page then downloads is kept for offline use; at once where there is none (a dev
 * server, a browser without them); at the latest after `timeoutMs` (ms).
 */
export async function whenControlled(timeoutMs = 10_000): Promise<void> {
  if (!(await registerServiceWorker())) return;
  const sw = navigator.serviceWorker;
  if (sw.controller) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    new Promise<void>((resolve) => {
      sw.addEventListener('controllerchange', () => resolve(), { once: true });
    }),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Asks the service worker to keep SQLite3 Multiple Ciphers' build (what locked notes open on) for
 * offline use, once it controls the page: notes locked before it did, or whose build it dropped,
 * then still open offline. Resolves whether it did (false without a service worker, or offline).
 */
export async function keepCipherForOffline(): Promise<boolean> {
  await whenControlled();
  const controller = available() ? navigator.serviceWorker.controller : null;
  if (!controller) return false;
  const channel = new MessageChannel();
  const answer = new Promise<boolean>((resolve) => {
    channel.port1.onmessage = (e: MessageEvent) => resolve(e.data === 'kept');
  });
  controller.postMessage({ type: 'keep-cipher' }, [channel.port2]);
  return answer;
}
