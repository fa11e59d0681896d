import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/kubectl-afd',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'kubectl-afd',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The process and real-API files bundle the agent and start a control plane and the emulator in beforeAll.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/kubectl-afd.json' }]],
  },
});
