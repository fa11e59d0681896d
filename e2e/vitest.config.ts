import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../node_modules/.vite/e2e',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['src/**/*.test.ts', 'scenarios/**/*.e2e.test.ts'],
    globalSetup: ['src/global-setup.ts'],
    // One system for every scenario: files run one after another, each owning its namespaces.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    reporters: ['default', ['json', { outputFile: '../test-results/e2e.json' }]],
  },
});
