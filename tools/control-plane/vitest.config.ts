import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/control-plane',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'control-plane',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Real API servers: start-up takes seconds, and a cold binary build (normally done by `.ci/run` first) minutes.
    testTimeout: 60_000,
    hookTimeout: 900_000,
    // Each file starts its own plane; two at once on two cores only slows both.
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '../../test-results/control-plane.json' }]],
  },
});
