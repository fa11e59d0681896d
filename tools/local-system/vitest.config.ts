import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/local-system',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'local-system',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/local-system.json' }]],
  },
});
