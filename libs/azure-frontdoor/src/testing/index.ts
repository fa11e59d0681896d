// Test-only (imported as `@fleet-gateway/azure-frontdoor/test-support`, never from production code): the emulator
// with SDK clients wired as the hub wires them, for the integration tests of libs that build on this provider.
export { connectHarness, readsCounted, startHarness, TEST_SCOPE, WRITE_METHODS, writesCounted, type Harness, type HarnessOptions } from './emulator-harness.js';
export { createPrivateLinkService, memberNetwork } from './private-link-service.js';
