/** Runs `fn` on each item in turn; the milliseconds each call took, in order. */
export async function timeEach(
  items: readonly string[],
  fn: (q: string) => Promise<unknown>,
): Promise<number[]> {
  const times: number[] = [];
  for (const q of items) {
    const start = performance.now();
    await fn(q);
    times.push(performance.now() - start);
  }
  return times;
}
