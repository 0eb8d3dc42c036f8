/**
 * Browser tests of anamnesis: the system Chromium (`/usr/bin/chromium`, never a downloaded
 * browser), headless, with WebGPU on SwiftShader. The test app (`harness/`) and the example apps
 * (`apps/example`, `apps/react-example`) are built and served by `vite preview`, each on its own per-run port; every
 * test fails on a request to any other origin (see `fixtures.ts`).
 */
import { fileURLToPath } from 'node:url';

import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

// One port per run, shared with the web server and test workers through the environment, so
// that runs side by side on one machine never share (or fight over) a server.
process.env.HARNESS_PORT ??= String(20_000 + (process.pid % 20_000));
// The example app (apps/example) on the next port.
process.env.EXAMPLE_PORT ??= String(Number(process.env.HARNESS_PORT) + 1);
// The notes app (apps/notes) on the one after.
process.env.NOTES_PORT ??= String(Number(process.env.HARNESS_PORT) + 2);
// The React example (apps/react-example) on the one after.
process.env.REACT_EXAMPLE_PORT ??= String(Number(process.env.HARNESS_PORT) + 3);
const { HARNESS_PORT, EXAMPLE_PORT, NOTES_PORT, REACT_EXAMPLE_PORT } =
  await import('./harness/port.ts');

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export const BASE_URL = `http://127.0.0.1:${HARNESS_PORT}`;
/** The example app's origin (tests of it set `baseURL` to this). */
export const EXAMPLE_URL = `http://127.0.0.1:${EXAMPLE_PORT}`;
/** The notes app. */
export const NOTES_URL = `http://127.0.0.1:${NOTES_PORT}`;
/** The React example. */
export const REACT_EXAMPLE_URL = `http://127.0.0.1:${REACT_EXAMPLE_PORT}`;

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One test file at a time: two at a time took 15.7 min against 16.6 on 2 cores (the tests are
  // CPU-bound: each slowed down), not worth the timing risk. `E2E_WORKERS=2` runs two.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: `${repoRoot}test-results/playwright.json` }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
  webServer: [
    {
      command: 'pnpm run harness:serve',
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      url: `${BASE_URL}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The example app, built and served exactly as a user would (its own Vite config).
      command: 'pnpm run serve',
      cwd: fileURLToPath(new URL('../apps/example/', import.meta.url)),
      url: `${EXAMPLE_URL}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The notes app, built and served as `pnpm start` does.
      command: 'pnpm run start',
      cwd: fileURLToPath(new URL('../apps/notes/', import.meta.url)),
      url: `${NOTES_URL}/`,
      env: { PORT: String(NOTES_PORT) },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The React example (@anamnesis/react), built and served by `vite preview`.
      command: 'pnpm run serve',
      cwd: fileURLToPath(new URL('../apps/react-example/', import.meta.url)),
      url: `${REACT_EXAMPLE_URL}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
