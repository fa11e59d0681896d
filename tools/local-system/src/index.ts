// The local system as a library: what `make local-up` runs, for the end-to-end suites to start and drive.
export { startLocalSystem, stopLocalSystem, type LocalSystem, type LocalSystemOptions } from './local-system.js';
export type { AzureSideInfo } from './azure-side-info.js';
export type { RunningAgent } from './agents.js';
export { startEchoBackend, type EchoAnswer } from './echo-backend.js';
export { applyManifests, describeCondition, requestThroughEdge, SAMPLE, type Manifest } from './sample.js';
