import { defineConfig } from 'vitest/config';

const gatewayApiRun = process.env.GATEWAY_API_VERSION ? `@gateway-api-${process.env.GATEWAY_API_VERSION}` : '';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/hub-gateway',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'hub-gateway',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The process and real-API files bundle the agent and start a control plane and the emulator in beforeAll.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A run against another Gateway API release than the default (GATEWAY_API_VERSION) reports beside the default run.
    reporters: ['default', ['json', { outputFile: `../../test-results/hub-gateway${gatewayApiRun}.json` }]],
  },
});
