export { startControlPlane, type ControlPlane, type ControlPlaneOptions, type ControlPlaneState } from './control-plane.js';
export type { Cluster } from './cluster.js';
export { ensureBinaries, KUBERNETES_VERSION, type ControlPlaneBinaries } from './binaries.js';
export { installCrds, type CrdSelection } from './crd-install.js';
export { fleetCrds, gatewayApiCrds, gatewayApiModuleDir, FLEET_CRD_DIR, GATEWAY_API_MODULE } from './crds.js';
export { createMemberHubCredentials, memberNamespace, MEMBER_AGENT_HUB_RULES } from './member-credentials.js';
export { stopDetached } from './detached.js';
export { commandLineIncludes, isRunning, removeOnExit, startProcess, stopRecordedProcesses, type ManagedProcess } from './processes.js';
