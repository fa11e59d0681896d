export { startControlPlane, type ControlPlane, type ControlPlaneOptions, type ControlPlaneState } from './control-plane.js';
export type { Cluster } from './cluster.js';
export { fillCacheDir } from './cache-dir.js';
export { ensureBinaries, KUBERNETES_VERSION, type ControlPlaneBinaries } from './binaries.js';
export { installCrds, type CrdSelection } from './crd-install.js';
export {
  checkedGatewayApiVersion,
  defaultGatewayApiVersion,
  fleetCrds,
  gatewayApiCrds,
  gatewayApiModule,
  gatewayApiModuleDir,
  FLEET_CRD_DIR,
  GATEWAY_API_VERSIONS,
  NEWEST_GATEWAY_API_VERSION,
  OLDEST_GATEWAY_API_VERSION,
  type CustomResourceDefinitionManifest,
  type GatewayApiVersion,
} from './crds.js';
export { crdExtensionFields, renderCrdExtensionTable } from './crd-extension-table.js';
export { renderKubeconfig } from './kubeconfig.js';
export { freePorts } from './ports.js';
export { createMemberHubCredentials, memberAgentHubRules, memberNamespace } from './member-credentials.js';
export { stopDetached } from './detached.js';
export { commandLineIncludes, isRunning, removeOnExit, startProcess, stopRecordedProcesses, type ManagedProcess } from './processes.js';
