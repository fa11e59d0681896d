import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/runtime-bench',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'runtime-bench',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // One real API server: start-up takes seconds.
    testTimeout: 60_000,
    hookTimeout: 900_000,
    // Each file starts its own plane; two at once on two cores only slows both.
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '../../test-results/runtime-bench.json' }]],
  },
});
