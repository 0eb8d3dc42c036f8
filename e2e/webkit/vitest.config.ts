import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

import { sourceConditions } from '../../vitest.shared.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The WebKit suite (`pnpm test:webkit`): its JSON report is counted by the CI summary. */
export default defineConfig({
  ...sourceConditions,
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: `${repo}test-results/webkit.json` },
  },
});
