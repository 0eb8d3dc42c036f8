import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'ranking',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
