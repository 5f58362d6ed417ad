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
    // Two cores, and each file starts its own worker threads: one file at a time.
    maxWorkers: 1,
    // The files share one module graph (the engine's sources are loaded once, not once per file).
    isolate: false,
  },
});
