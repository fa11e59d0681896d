export { start, type RunningEmulator } from './emulator.js';
export type { EmulatorOptions, EdgeOptions } from './options.js';
export type { EmulatorAdmin } from './admin/emulator-admin.js';
// The emulator in its own process (the CLI) and its admin API over HTTP, for benchmarks that keep it off their event loop.
export { EmulatorAdminClient } from './admin/admin-client.js';
export { startEmulatorProcess, type EmulatorProcess } from './bench/emulator-process.js';
export type { StateDump } from './admin/admin-api.js';
export type { FaultSpec, FaultKind, Fault } from './admin/faults.js';
export type { CounterEntry } from './admin/counters.js';
export type { EdgeStatus } from './edge/edge-runtime.js';
export { EDGE_HEADER, PROTOCOL_HEADER } from './edge/edge-server.js';
export type { WafPolicySpec } from './network/waf-policies.js';
export type { ConsumerEndpointSpec } from './private-link/connections.js';
export type { LimitOverrides, Limits } from './limits.js';
export {
  sdkClientOptions,
  stubCredential,
  emulatorIdentityCredential,
  managedIdentityEnvironment,
  OTHER_CREDENTIAL_VARIABLES,
  FAST_POLLING,
} from './sdk-options.js';
export type { ArmAuthentication } from './identity/arm-authentication.js';
export type { ManagedIdentitySettings } from './identity/token-issuer.js';
export { parseRoleDefinition, roleGrants, actionMatches, type RoleDefinition } from './authorization/role-definition.js';
export type { RoleAssignment } from './authorization/role-assignments.js';
// The repository's deploy/azure-roles (role definitions and who is assigned which), for the tests that hold the
// agents to them and for the README's roles table.
export {
  rolesAgainstRun,
  readShippedAssignments,
  readShippedRoles,
  shippedRole,
  SHIPPED_ROLES_DIR,
  type ShippedAssignment,
  type ShippedRole,
} from './testing/shipped-roles.js';
export { renderAzureRolesTable } from './testing/shipped-roles-table.js';
// The fidelity ledger's data (fidelity-ledger.yaml), for e2e's Azure-mode assumption checks and the emulator README's tables.
export { readFidelityLedger, renderLedgerTables, type FidelityLedger, type LedgerAssumption, type LedgerBehaviour } from './fidelity-ledger.js';
export { RawArmClient, type RawResponse } from './raw-arm-client.js';
export { CloudProviderStandIn, LOAD_BALANCER_FINALIZER, type CloudProviderOptions } from './cloud-provider/cloud-provider.js';
export {
  ANNOTATIONS as CLOUD_PROVIDER_ANNOTATIONS,
  TAGS as CLOUD_PROVIDER_TAGS,
  planLoadBalancer,
  type CloudSettings,
  type LoadBalancerPlan,
} from './cloud-provider/service-annotations.js';
export { AzureLoadBalancerWriter, type ServiceAddress } from './cloud-provider/azure-load-balancer.js';
// Test support (src/testing/): a request to the emulated edge with the Host of an AFD endpoint (fetch cannot set Host),
// optionally pinned to one edge; a local HTTP(S) backend that records what reached it, and a certificate for it.
export { backendCertificate, edgeRequest, edgeTlsRequest, startBackend, type Backend, type EdgeRequestOptions, type EdgeResponse } from './testing/backends.js';
// A browser's CORS preflight, and the CORS headers of an answer.
export { corsHeadersOf, preflightFrom } from './testing/cors-requests.js';
// Front Door's operation timing profile (`operationTimings: 'azure'`), for benchmarks that print what they ran against.
export {
  AZURE_OPERATION_DURATIONS,
  AZURE_RETRY_AFTER,
  OPERATION_TIMING_PROFILES,
  type DurationBounds,
  type KindTimings,
  type OperationTimingsProfile,
} from './operation-timings.js';
// A reproducible stand-in for Math.random (the edge's `random` option).
export { seededRandom } from './seeded-random.js';
