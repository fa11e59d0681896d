import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/member-export',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'member-export',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The real-API file starts two API servers (hub and member) in beforeAll and restarts the member agent once.
    testTimeout: 45_000,
    hookTimeout: 90_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/member-export.json' }]],
  },
});
