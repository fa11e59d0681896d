// Test-only helpers for the hub's Fleet side, shared with the hub agent's process tests (imported as
// `@fleet-gateway/fleet-hub/test-support`, never from production code).
export { exportOf, httpPort, type ExportFixture } from './exports.js';
