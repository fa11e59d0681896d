import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/member-discovery',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'member-discovery',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The process and real-API files start a hub, a member and the emulator in beforeAll and wait on the agent's
    // controllers and Private Link timing.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/member-discovery.json' }]],
  },
});
