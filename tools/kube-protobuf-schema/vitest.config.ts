import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/tools/kube-protobuf-schema',
  resolve: { tsconfigPaths: true },
  test: {
    name: 'kube-protobuf-schema',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // A cold `go run` compiles k8s.io/api: tens of seconds on two cores.
    testTimeout: 600_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/kube-protobuf-schema.json' }]],
  },
});
