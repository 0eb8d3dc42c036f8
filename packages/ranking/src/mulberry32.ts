/**
 * mulberry32: a small, fast, seeded 32-bit PRNG returning floats in [0, 1). The same seed gives
 * the same sequence on every platform, which is what reproducible corpora, benchmarks and fuzz
 * runs need (not for anything secret).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
