import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/controller',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'controller',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Files that talk to a real API server start one control plane each (a few seconds) in beforeAll.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/controller.json' }]],
  },
});
