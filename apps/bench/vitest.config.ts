import { defineConfig } from 'vitest/config';

import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: { name: 'bench', include: ['test/**/*.test.ts'], environment: 'node' },
});
