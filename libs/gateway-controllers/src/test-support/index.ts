// Test-only (imported as `@fleet-gateway/gateway-controllers/test-support`, never from production code): fixtures for
// Gateways, HTTPRoutes and InternalServiceExports as platform teams and members write them, the hub under test, what
// the real-API tests read back, the hub agent's bundle as a process, and the benchmarks' fleets.
export * from './hub-under-test.js';
export * from './hub-probes.js';
export * from './hub-agent-process.js';
export * from './bench-fleet.js';
