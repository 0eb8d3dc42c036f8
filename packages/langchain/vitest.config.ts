import { defineConfig } from 'vitest/config';

import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    name: 'langchain',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
