import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'model-default',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
