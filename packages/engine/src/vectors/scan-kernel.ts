import { VECTOR_SCAN_WASM } from './vector-scan-module.ts';

/** The compiled module, once tried: `null` where this runtime cannot compile it. */
let compiled: WebAssembly.Module | null | undefined;

/**
 * The vector scan's WebAssembly module (`vector-scan.wat`: the float32 and int8 kernels), decoded
 * and compiled once per page or process; each user instantiates it with a memory of its own. The
 * vector index and the int8 copy (and a model's word neighbours without a shipped table) each
 * decoded, validated and compiled it before. `undefined` where WebAssembly SIMD is unavailable:
 * the module does not compile.
 */
export function scanKernel(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      const text = atob(VECTOR_SCAN_WASM);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      compiled = new WebAssembly.Module(bytes);
    } catch {
      compiled = null;
    }
  }
  return compiled ?? undefined;
}
