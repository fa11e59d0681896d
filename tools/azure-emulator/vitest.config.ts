import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/azure-emulator',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'azure-emulator',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/azure-emulator.json' }]],
  },
});
