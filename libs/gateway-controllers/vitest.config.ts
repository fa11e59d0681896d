import { defineConfig } from 'vitest/config';

const gatewayApiRun = process.env.GATEWAY_API_VERSION ? `@gateway-api-${process.env.GATEWAY_API_VERSION}` : '';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/libs/gateway-controllers',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'gateway-controllers',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The real-API file starts one control plane (a few seconds) in beforeAll.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A run against another Gateway API release than the default (GATEWAY_API_VERSION) reports beside the default run.
    reporters: ['default', ['json', { outputFile: `../../test-results/gateway-controllers${gatewayApiRun}.json` }]],
  },
});
