import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/member-azure',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'member-azure',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/member-azure.json' }]],
  },
});
