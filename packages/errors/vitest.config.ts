import { defineConfig } from 'vitest/config';

import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    name: 'errors',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
