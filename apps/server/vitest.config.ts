import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources in tests (the "source" export condition).
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: run test files two at a time at most; each has its own DATA_DIR and database.
    maxWorkers: 2,
    // The files of a worker share one module graph: loading the app's sources took about 4 s per file (about a
    // third of the suite's CPU), and each file still starts its own servers on its own DATA_DIR and database.
    isolate: false,
  },
});
