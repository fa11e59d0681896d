import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/agent-flags',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'agent-flags',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '../../test-results/agent-flags.json' }]],
  },
});
