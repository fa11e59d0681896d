import { startAdminServer } from './admin/admin-server.js';
import { EmulatorAdmin } from './admin/emulator-admin.js';
import { RequestCounters } from './admin/counters.js';
import { FaultInjector } from './admin/faults.js';
import { RoleAssignments } from './authorization/role-assignments.js';
import { startArmServer } from './arm/arm-server.js';
import { OperationTracker } from './arm/lro.js';
import { ResourceGroups } from './arm/resource-groups.js';
import { ResourceStore } from './arm/store.js';
import { Throttler } from './arm/throttling.js';
import { SchemaValidator } from './arm/validation.js';
import { EdgeRuntime } from './edge/edge-runtime.js';
import type { EmulatorContext } from './emulator-context.js';
import { startManagedIdentityEndpoint } from './identity/managed-identity-server.js';
import { TokenIssuer, type ManagedIdentitySettings } from './identity/token-issuer.js';
import { createKindRegistry } from './kinds.js';
import { AddressPool } from './network/address-pool.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { PrivateLinkConnections } from './private-link/connections.js';
import { createServerCertificates } from './tls/certificates.js';

export interface RunningEmulator {
  /** https://127.0.0.1:<port>: pass as `endpoint` to the Azure SDK clients. */
  armEndpoint: string;
  /** PEM of the CA to trust (`tlsOptions: { ca }`). */
  caCertificate: string;
  /** http://127.0.0.1:<port> of the edge (data plane); send requests with the endpoint's host name as Host. */
  edgeUrl: string;
  /**
   * https://127.0.0.1:<port> of the edge: connect with the host as SNI and Host; it presents a certificate from
   * `caCertificate` for the endpoint's host name and every validated custom domain.
   */
  edgeTlsUrl: string;
  /** The admin API in process; `admin.url` serves the same over HTTP. */
  admin: EmulatorAdmin;
  /**
   * The managed-identity endpoint (App Service protocol): a process whose environment has IDENTITY_ENDPOINT and
   * IDENTITY_HEADER set to these (`managedIdentityEnvironment`) gets its tokens here through DefaultAzureCredential.
   */
  identityEndpoint: string;
  identityHeader: string;
  /** The identity its tokens are issued to: role assignments name its `principalId` (the tokens' object id). */
  managedIdentity: ManagedIdentitySettings;
  stop(): Promise<void>;
}

/** Starts the emulator in this process. */
export async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const store = new ResourceStore();
  const faults = new FaultInjector();
  const counters = new RequestCounters();
  const context: EmulatorContext = {
    store,
    resourceGroups: new ResourceGroups(),
    validator: new SchemaValidator(resolved.specDir),
    // `fast` operations keep real-time timers whatever the clock; `azure` ones end by the clock.
    operations: new OperationTracker(resolved.operationTiming.ends, resolved.operationTiming.ends === 'clock' ? resolved.clock : Date.now),
    kinds: createKindRegistry(),
    pageSize: resolved.pageSize,
    deployment: resolved.deployment,
    timing: resolved.operationTiming,
    takeLroFailure: (method, path) => {
      const fault = faults.take('lro-failure', method, path);
      return fault === undefined
        ? undefined
        : { code: fault.code ?? 'InternalServerError', message: fault.message ?? 'The operation failed (injected fault).' };
    },
    now: resolved.clock,
    limits: resolved.limits,
    addresses: new AddressPool(),
    privateLink: new PrivateLinkConnections(store, resolved.limits, resolved.afdManagedSubscriptionId, resolved.privateLink, resolved.clock),
    afdManagedSubscriptionId: resolved.afdManagedSubscriptionId,
    roles: new RoleAssignments(),
  };
  for (const assignment of resolved.roleAssignments) context.roles.assign(assignment);
  const certificates = await createServerCertificates();
  const tokens = new TokenIssuer(resolved.managedIdentity, resolved.clock);
  const arm = await startArmServer(
    {
      context,
      throttler: new Throttler(resolved.throttling, resolved.clock),
      faults,
      counters,
      authentication: resolved.armAuthentication,
      tokens,
      onUnexpectedError: (error) => console.error('[azure-emulator] unexpected error', error),
    },
    certificates,
    resolved.armPort,
  );
  const edge = new EdgeRuntime(context, resolved.edge, resolved.random);
  const { url: edgeUrl, tlsUrl: edgeTlsUrl } = await edge.start(resolved.edgePort, resolved.edgeTlsPort, certificates);
  const admin = new EmulatorAdmin(context, counters, faults, edge);
  const adminServer = await startAdminServer(admin, resolved.adminPort);
  admin.url = adminServer.url;
  const identity = await startManagedIdentityEndpoint(tokens, counters, resolved.identityPort);
  return {
    armEndpoint: arm.url,
    caCertificate: certificates.caCertificate,
    edgeUrl,
    edgeTlsUrl,
    admin,
    identityEndpoint: identity.endpoint,
    identityHeader: identity.header,
    managedIdentity: resolved.managedIdentity,
    stop: async () => {
      context.operations.stop();
      context.privateLink.stop();
      await Promise.all([arm.close(), edge.stop(), adminServer.close(), identity.close()]);
    },
  };
}
