import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/charts-test',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'charts-test',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Builds helm (Go, cold: minutes), installs hadolint and packs the charts' dependency once for every file.
    globalSetup: ['src/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each real-API file starts its own plane; two at once on two cores only slows both.
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '../../test-results/charts-test.json' }]],
  },
});
