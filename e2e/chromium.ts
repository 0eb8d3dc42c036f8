/**
 * The system Chromium as every browser test and benchmark launches it: its path, its flags, and a
 * persistent profile in a fresh temporary folder (a disk cache and a compiled-wasm cache that
 * behave like a user's, unlike an incognito context's memory cache).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext } from '@playwright/test';

/** Debian's `chromium` package; no browser is ever downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium flags: WebGPU (SwiftShader adapter headless) and no background traffic. */
export const CHROMIUM_ARGS = [
  // Without it, navigator.gpu.requestAdapter() is null headless on Linux; with it, Chromium
  // gives a SwiftShader adapter (no other flag needed).
  '--enable-unsafe-webgpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--no-sandbox',
  '--disable-dev-shm-usage',
];

/** A headless Chromium on a fresh profile; `close` closes it and deletes the profile's folder. */
export interface Profile {
  context: BrowserContext;
  /** The profile's temporary folder: Chromium's `--user-data-dir`. */
  dir: string;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium on a new persistent profile under `<tmp>/<prefix>…`.
 * @param options.args flags added to {@link CHROMIUM_ARGS}.
 */
export async function launchProfile(
  prefix: string,
  options: Omit<NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>, 'args'> & {
    args?: string[];
  } = {},
): Promise<Profile> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { args = [], ...rest } = options;
  try {
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      ...rest,
      args: [...CHROMIUM_ARGS, ...args],
    });
    return {
      context,
      dir,
      close: async () => {
        try {
          await context.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
