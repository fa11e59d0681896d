import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/member-azure',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'member-azure',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The emulator suites wait on Private Link timing (connections made, approved, re-read).
    testTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/member-azure.json' }]],
  },
});
