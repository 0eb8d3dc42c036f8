/**
 * Which files of the notes app's build the service worker precaches, and which it caches only when
 * they are first fetched. The first visit downloads what the default path needs (the app, SQLite's
 * wasm, the default model, the notices); ONNX Runtime (`ort/`, 14 to 27 MB a build) and the
 * transformers.js chunk that loads it are only needed when the person picks a runtime that runs on
 * it (see `src/runtime-choice.ts`), so they are fetched then and cached for offline use; the same
 * for SQLite3 Multiple Ciphers' build, which only notes locked with a passphrase load.
 */

/** Output paths (relative to `dist/`, `/`-separated) that only an ONNX Runtime path loads. */
const ON_DEMAND = [/^ort\//, /^assets\/transformers\.web-[\w-]+\.js$/];

/**
 * Never served: onnxruntime-web's own `new URL(…wasm, import.meta.url)` makes Vite emit a hashed
 * copy of its 27 MB wasm under `assets/` (the client plugin drops it, this is a second guard); the
 * app loads the copy under `ort/` (`wasmPaths`). The service worker itself is not precached.
 */
const NEVER = [/^assets\/ort-wasm[^/]*\.wasm$/, /^sw\.js$/];

/**
 * The build's files split into what the service worker precaches and what it caches on demand:
 * ONNX Runtime's, and `alsoOnDemand` (SQLite3 Multiple Ciphers' chunk and wasm, which only locked
 * notes load; their names carry no mark, so the build tells them).
 */
export function splitFiles(
  paths: readonly string[],
  alsoOnDemand: ReadonlySet<string> = new Set(),
): { precache: string[]; onDemand: string[] } {
  const precache: string[] = [];
  const onDemand: string[] = [];
  for (const path of paths) {
    if (NEVER.some((re) => re.test(path))) continue;
    const later = alsoOnDemand.has(path) || ON_DEMAND.some((re) => re.test(path));
    (later ? onDemand : precache).push(path);
  }
  return { precache, onDemand };
}
