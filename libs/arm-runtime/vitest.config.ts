import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/arm-runtime',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'arm-runtime',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/arm-runtime.json' }]],
  },
});
