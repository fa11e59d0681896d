import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/member-discovery',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'member-discovery',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/member-discovery.json' }]],
  },
});
