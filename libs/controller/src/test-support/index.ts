// Test-only helpers that start real API servers, shared with the libs whose integration tests build on this runtime
// (imported as `@fleet-gateway/controller/test-support`, never from production code).
export { startHubPlane, type HubPlane } from './hub-plane.js';
export { captureLogLines, logsFlushed } from './log-capture.js';
export { createNamespace, eventually, kubeConfigAs, nextMatching } from './real-api.js';
export { AgentProcess, bundleAgent, type LogLine } from './agent-process.js';
export { percentile } from '../bench/percentile.js';
export { residentMiB } from '../bench/resident-memory.js';
export { clientForLocalServer } from './local-server-client.js';
export { deferred } from '../util/deferred.js';
