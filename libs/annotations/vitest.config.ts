import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/annotations',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'annotations',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/annotations.json' }]],
  },
});
