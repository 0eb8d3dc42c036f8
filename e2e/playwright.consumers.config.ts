/**
 * Consumer tests (`pnpm test:consumers`): the packages as a new user gets them. The tarballs that
 * `pnpm pack` makes are installed with npm in fresh folders outside the workspace, and the
 * README's quick starts run there (Node, `tsc`, a Vite app in Chromium, the CLI). See
 * `consumers/consumers.spec.ts`.
 */
import { fileURLToPath } from 'node:url';

import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  testDir: './consumers',
  // Packing, three npm installs and a Vite build happen once, in the first test's `beforeAll`.
  timeout: 15 * 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: `${repoRoot}test-results/consumers.json` }]],
  use: {
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
});
