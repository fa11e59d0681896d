import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/conformance',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'conformance',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // One run: the local hub, a go build of the suite (cold: minutes) and upstream's own waits.
    testTimeout: 1_800_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/conformance.json' }]],
  },
});
