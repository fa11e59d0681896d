import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/scripts',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['*.test.ts'],
    // The summary tests run a nested Vitest and the toolchain tests run shell scripts: seconds each, more on a busy
    // machine, where Vitest's 5 s default would fail them for no fault of theirs.
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/scripts.json' }]],
  },
});
