import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/fleet-hub',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'fleet-hub',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The real-API file starts one control plane (a few seconds) in beforeAll and restarts its API server once.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/fleet-hub.json' }]],
  },
});
