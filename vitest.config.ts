import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every core (Vitest's default leaves one to its own process, so a 2-core machine ran the
    // test files one at a time; its main process is mostly idle while they run).
    maxWorkers: availableParallelism(),
    projects: ['packages/*', 'apps/notes', 'apps/extension', 'apps/bench', 'scripts'],
  },
});
