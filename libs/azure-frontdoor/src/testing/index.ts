// Test-only (imported as `@fleet-gateway/azure-frontdoor/test-support`, never from production code): the emulator
// with SDK clients wired as the hub wires them, for the integration tests of libs that build on this provider.
// An emulator already running (in its own process, the CLI's) wired as startHarness wires one; what counts as a write.
export { connectHarness, WRITE_METHODS } from './emulator-harness.js';
export { readsCounted, startHarness, TEST_SCOPE, writesCounted, type Harness, type HarnessOptions } from './emulator-harness.js';
export { originsOf, type HeldOrigin } from './held-origins.js';
export { createPrivateLinkService, memberNetwork } from './private-link-service.js';
export { observedFromGraph } from './observed-from-graph.js';
