/**
 * The benchmark page (`browser/`, see `browser/main.ts`): built with the client's Vite plugin and
 * served on a free port, and opened in a Playwright context once it says it is ready. Used by
 * `bench:speed`, `bench:encryption -- --browser` and `bench:embed -- --browser`.
 */
import { fileURLToPath } from 'node:url';

import { anamnesis, type AnamnesisPluginOptions } from '@anamnesis/client/vite';
import type { BrowserContext, Page } from '@playwright/test';
import { build, preview, type InlineConfig } from 'vite';

/**
 * Builds `browser/` with the client's Vite plugin (with SQLite3 Multiple Ciphers, for encrypted
 * stores: a chunk only they load) and serves it on a free port.
 * @param options.plugin more of the plugin's options (`modelRoot`, `ortBuilds`).
 * @param options.isolated serve the page cross-origin isolated (COOP and COEP headers): the
 *   page's and its workers' `performance.now()` then tick in microseconds, not in 0.1 ms steps.
 */
export async function serve(options: { plugin?: AnamnesisPluginOptions; isolated?: boolean } = {}) {
  const root = fileURLToPath(new URL('../browser/', import.meta.url));
  const config: InlineConfig = {
    root,
    configFile: false,
    appType: 'mpa',
    logLevel: 'error',
    plugins: [anamnesis({ encryption: true, ...options.plugin })],
    worker: { format: 'es' },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      chunkSizeWarningLimit: 8192,
    },
  };
  await build(config);
  const headers = options.isolated
    ? {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      }
    : undefined;
  const server = await preview({ ...config, preview: { port: 0, host: '127.0.0.1', headers } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the preview server has no local URL');
  return { server, url };
}

/** Opens `path` in a new page and waits for the page's `data-ready`. */
export async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(path);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 600_000 });
  return page;
}
