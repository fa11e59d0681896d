import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/fleet-schema',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'fleet-schema',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/fleet-schema.json' }]],
  },
});
