import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/hub-gateway',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'hub-gateway',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/hub-gateway.json' }]],
  },
});
