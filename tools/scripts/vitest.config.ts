import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/scripts',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/scripts.json' }]],
  },
});
