/** Pieces every browser benchmark of e2e/bench uses: the seeded generator, quantiles, the harness. */
import { fileURLToPath } from 'node:url';

import { build, preview, type PreviewServer } from 'vite';

export { rng } from '../../apps/bench/src/corpus.ts';

/** The q-quantile of an ascending list. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The median of a list in any order. */
export const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Builds the test app and serves it on a free port (never a stale server of another run). */
export async function startHarness(): Promise<{ server: PreviewServer; url: string }> {
  const configFile = fileURLToPath(new URL('../harness/vite.config.ts', import.meta.url));
  await build({ configFile, configLoader: 'runner', logLevel: 'error' });
  const server = await preview({
    configFile,
    configLoader: 'runner',
    logLevel: 'error',
    preview: { port: 0, strictPort: false },
  });
  const url = server.resolvedUrls?.local[0]?.replace(/\/$/, '');
  if (!url) throw new Error('the preview server has no local URL');
  return { server, url };
}
