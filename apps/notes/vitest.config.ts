import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'notes', include: ['test/**/*.test.ts'], environment: 'node' },
});
