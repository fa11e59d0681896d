// Test-only (imported as `@fleet-gateway/gateway-controllers/test-support`, never from production code): fixtures for
// Gateways, HTTPRoutes and InternalServiceExports as platform teams and members write them, and the hub under test.
export * from './hub-under-test.js';
export * from './hub-agent-process.js';
