import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/translate',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'translate',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/translate.json' }]],
  },
});
