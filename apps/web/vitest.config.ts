import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // What the screen showed when a browser test failed, in the log (CI keeps no screenshots).
    setupFiles: ['test/helpers/failure-report.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Browser tests share one machine's two cores: one file at a time.
    fileParallelism: false,
  },
});
