import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/model',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'model',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/model.json' }]],
  },
});
