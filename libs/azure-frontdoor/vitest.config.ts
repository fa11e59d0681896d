import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/azure-frontdoor',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'azure-frontdoor',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/azure-frontdoor.json' }]],
  },
});
