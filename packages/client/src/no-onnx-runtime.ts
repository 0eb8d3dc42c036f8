/**
 * What the engine's `#transformers` (transformers.js, with ONNX Runtime's JavaScript inside) is in
 * an app built without ONNX Runtime: `anamnesis()` without `ortBuilds` points it here (see
 * `vite.ts`), which keeps 0.6 MB of code that could never run out of the app's build. An ONNX path
 * (another model, `device: 'webgpu'`, `runtime: 'onnx'`) then fails with `MODEL_LOAD_FAILED`
 * saying what to change; the default model in plain JavaScript never imports it.
 */
import { AnamnesisError } from '@anamnesis/errors';

function missing(): never {
  throw new AnamnesisError(
    'MODEL_LOAD_FAILED',
    'this app was built without ONNX Runtime: list the builds its ONNX path needs in ' +
      "anamnesis({ ortBuilds: ['plain', 'asyncify'] }) in its Vite config",
  );
}

/** transformers.js's settings: any use says what is missing. */
export const env: unknown = new Proxy(
  {},
  { get: missing, set: missing, has: missing, ownKeys: missing },
);

/** transformers.js's pipeline factory: says what is missing. */
export function pipeline(): never {
  return missing();
}
