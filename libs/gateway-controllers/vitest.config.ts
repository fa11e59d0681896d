import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/gateway-controllers',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'gateway-controllers',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The real-API file starts one control plane (a few seconds) in beforeAll.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/gateway-controllers.json' }]],
  },
});
