import { defineConfig } from 'vitest/config';

import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    name: 'react',
    include: ['test/**/*.test.ts'],
    // Each file picks its DOM: happy-dom for React Testing Library, none for the server render.
    environment: 'node',
    testTimeout: 30_000,
  },
});
