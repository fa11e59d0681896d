// Test-only helpers for the Fleet CRD checks (imported as `@fleet-gateway/fleet-schema/test-support`, never from
// production code): an extended CRD with its extension fields removed, as fleet-networking installs it.
export { withoutExtensionFields } from './upstream-crd.js';
