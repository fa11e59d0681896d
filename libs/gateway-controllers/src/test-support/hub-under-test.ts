import type { RunningEmulator, start } from '@fleet-gateway/azure-emulator';
import type { Sku } from '@fleet-gateway/annotations';
import type { FrontDoorClients, FrontDoorScope } from '@fleet-gateway/azure-frontdoor';
import type { ArmRateLimiter, RateLimiterOptions, RetryOptions } from '@fleet-gateway/arm-runtime';
import {
  connectHarness,
  createPrivateLinkService as createMemberPrivateLinkService,
  memberNetwork,
  startHarness,
  TEST_SCOPE,
} from '@fleet-gateway/azure-frontdoor/test-support';
import { collectionPath, createLogger, EventRecorder, KubeClient, LeaderElector, Manager, objectPath, type KubeObject } from '@fleet-gateway/controller';
import type { GatewayApiVersion } from '@fleet-gateway/control-plane';
import { captureLogLines, startHubPlane, type HubPlane } from '@fleet-gateway/controller/test-support';
import { exportOf } from '@fleet-gateway/fleet-hub/test-support';
import { internalServiceExports, type CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { Registry } from 'prom-client';
import { gatewayClasses, gateways, httpRoutes, type CachedGateway, type CachedHTTPRoute } from '../gateway-api-resources.js';
import type { GatewayStores } from '../gateway-inputs.js';
import type { AzureFrontDoorAccess } from '../gateway-reconciler.js';
import type { GatewayControllers } from '../register-gateway-controller.js';
import { registerHubControllers } from '../register-hub-controllers.js';
import { servedGatewayApi, servesKind } from '../served-gateway-api.js';

/**
 * Test-only: one real kube-apiserver with the Gateway API and Fleet CRDs, the Azure emulator, and the hub's
 * controllers (registerHubControllers, as apps/hub-gateway registers them) on a Manager of their own, with test timings
 * and the harness's ARM clients. The test plays the members: it writes InternalServiceExport specs and approves Private
 * Link connections in the emulator.
 */
export const SCOPE: FrontDoorScope = TEST_SCOPE;
export const HUB_IDENTITY = `subscription/${SCOPE.subscriptionId}/cluster/test-hub`;
export const CLASS_NAME = 'azure-fleet-afd';
export const MEMBERS = ['member-1', 'member-2'];
export const APP_NAMESPACE = 'shop';
export const DEFAULT_SKU: Sku = 'Standard_AzureFrontDoor';

export interface AgentOptions {
  readonly azure?: boolean;
  readonly resyncPeriodMs?: number;
  readonly driftCheckMs?: number;
  readonly pendingRequeueMs?: number;
  readonly newRequestMessage?: () => string;
  /** Run as one replica of a leader-elected agent (the Lease of apps/hub-gateway), with this identity. */
  readonly leaderIdentity?: string;
  /** The agent's `--afd-resource-group` (default SCOPE's, which the emulator has). */
  readonly resourceGroup?: string;
  readonly terminalRecheckMs?: number;
  /** The agent's `--afd-profile-quota` (default AFD's 500). */
  readonly profileQuota?: number;
  /** Poll long-running operations as the agent does (the SDK's interval, or the operation's Retry-After), not every 5 ms. */
  readonly defaultPolling?: boolean;
}

/** The Lease apps/hub-gateway replicas share; test timings keep failover within seconds. */
export const HUB_LEASE = { namespace: 'fleet-system', name: 'hub-gateway-controller-manager.networking.fleet.azure.com' };
const HUB_LEASE_TIMINGS = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 };

export interface RunningAgent {
  readonly manager: Manager;
  readonly elector?: LeaderElector;
  readonly registry: Registry;
  readonly gateway: GatewayControllers;
  /** The caches the Gateway reconciler reads (to resolve a Gateway as the agent does). */
  readonly stores: GatewayStores;
  stop(): Promise<void>;
}

/** The hub's API server and agents, against an emulator that runs in this process (HubUnderTest) or its own. */
export interface HubAgainstArm {
  readonly plane: HubPlane['plane'];
  readonly client: KubeClient;
  readonly clients: FrontDoorClients;
  /** The ARM clients' limiter, shared by every agent started here. */
  readonly limiter: ArmRateLimiter;
  readonly logs: ReturnType<typeof captureLogLines>;
  /** Starts one agent; several may run at once as leader-elected replicas. */
  startAgent(options?: AgentOptions): Promise<RunningAgent>;
  stop(): Promise<void>;
}

export interface HubUnderTest extends HubAgainstArm {
  readonly emulator: RunningEmulator;
}

export interface HubUnderTestOptions {
  readonly emulator?: Parameters<typeof start>[0];
  /** Member clusters whose `fleet-member-<name>` namespaces exist (default MEMBERS). */
  readonly members?: readonly string[];
  /** The ARM clients' limiter buckets (default: one that never waits); benchmarks pass the agent's (`{}`). */
  readonly limiter?: RateLimiterOptions;
  /** The ARM clients' retry and bounds (request timeout, Retry-After cap); default the harness's fast retries. */
  readonly retry?: RetryOptions;
  /** The Gateway API release whose CRDs the hub serves (default: the control plane's, `GATEWAY_API_VERSION`). */
  readonly gatewayApiVersion?: GatewayApiVersion;
  /** Namespaces created beside the app's (default none). */
  readonly namespaces?: readonly string[];
}

export async function startHubUnderTest(options: HubUnderTestOptions = {}): Promise<HubUnderTest> {
  const { emulator, ...arm } = await startHarness({
    ...(options.emulator ? { emulator: options.emulator } : {}),
    ...(options.limiter ? { limiter: options.limiter } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const hub = await startHubWith(arm, options);
  return {
    ...hub,
    emulator,
    stop: async () => {
      await hub.stop();
      await emulator.stop();
    },
  };
}

/**
 * The hub against an emulator running in its own process (the CLI: `startEmulatorProcess`), so that the agents here
 * do not share its event loop. It must have SCOPE's resource group; the caller stops it.
 */
export async function startHubAgainstArm(
  emulator: { readonly armEndpoint: string; readonly caCertificate: string },
  options: Omit<HubUnderTestOptions, 'emulator'> = {},
): Promise<HubAgainstArm> {
  return startHubWith(
    connectHarness(emulator, { ...(options.limiter ? { limiter: options.limiter } : {}), ...(options.retry ? { retry: options.retry } : {}) }),
    options,
  );
}

async function startHubWith(arm: Pick<HubAgainstArm, 'clients' | 'limiter'>, options: HubUnderTestOptions): Promise<HubAgainstArm> {
  const { clients, limiter } = arm;
  const members = options.members ?? MEMBERS;
  const { plane, client } = await startHubPlane({
    namespaces: [APP_NAMESPACE, 'other-team', HUB_LEASE.namespace, ...members.map((m) => `fleet-member-${m}`), ...(options.namespaces ?? [])],
  });
  await plane.installCrds('hub', {
    gatewayApi: 'standard',
    fleet: true,
    ...(options.gatewayApiVersion ? { gatewayApiVersion: options.gatewayApiVersion } : {}),
  });
  await client.create(collectionPath(gatewayClasses), {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    metadata: { name: CLASS_NAME },
    spec: { controllerName: CONTROLLER_NAME },
  });
  const logs = captureLogLines();
  const running = new Set<RunningAgent>();

  async function startAgent(agent: AgentOptions = {}): Promise<RunningAgent> {
    const logger = createLogger({ level: 'debug', stream: logs.stream, fields: { component: 'hub-gateway' } });
    const elector = agent.leaderIdentity
      ? new LeaderElector({ client, ...HUB_LEASE, identity: agent.leaderIdentity, ...HUB_LEASE_TIMINGS, logger })
      : undefined;
    const manager = new Manager({ logger, ...(elector ? { leaderElector: elector } : {}) });
    const registry = new Registry();
    const events = manager.addEventRecorder(
      new EventRecorder({ client, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger }),
    );
    const timing = agent.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: agent.resyncPeriodMs };
    const azure: AzureFrontDoorAccess | undefined =
      agent.azure === false
        ? undefined
        : {
            clients,
            scope: agent.resourceGroup === undefined ? SCOPE : { ...SCOPE, resourceGroup: agent.resourceGroup },
            hubIdentity: HUB_IDENTITY,
            identity: { identity: 'the test identity' },
            ...(agent.defaultPolling ? {} : { pollIntervalMs: 5 }),
            pendingRequeueMs: agent.pendingRequeueMs ?? 200,
            ...(agent.driftCheckMs !== undefined ? { driftCheck: { periodMs: agent.driftCheckMs } } : {}),
            ...(agent.terminalRecheckMs !== undefined ? { terminalRecheckMs: agent.terminalRecheckMs } : {}),
            ...(agent.profileQuota !== undefined ? { profileQuota: agent.profileQuota } : {}),
            ...(elector ? { writeFence: manager.leaseFence(HUB_LEASE_TIMINGS.leaseDurationMs - HUB_LEASE_TIMINGS.renewDeadlineMs)! } : {}),
          };
    // As apps/hub-gateway does: ListenerSets are watched where the hub serves them.
    const listenerSets = servesKind(await servedGatewayApi(client), 'ListenerSet');
    const { fleet, classes, gateway } = registerHubControllers({
      listenerSets,
      manager,
      client,
      logger,
      events,
      registry,
      defaultSku: DEFAULT_SKU,
      ...(azure ? { azure } : {}),
      ...timing,
      ...(agent.newRequestMessage ? { newRequestMessage: agent.newRequestMessage } : {}),
    });
    await manager.start();
    const agentHandle: RunningAgent = {
      manager,
      ...(elector ? { elector } : {}),
      registry,
      gateway,
      stores: {
        gatewayClasses: classes.gatewayClasses.store,
        gateways: gateway.gateways.store,
        httpRoutes: gateway.httpRoutes.store,
        referenceGrants: gateway.referenceGrants.store,
        serviceImports: fleet.serviceImports.store,
        internalServiceExports: fleet.internalServiceExports.store,
        namespaces: gateway.namespaces.store,
        ...(gateway.listenerSets ? { listenerSets: gateway.listenerSets.store } : {}),
      },
      stop: async () => {
        running.delete(agentHandle);
        await manager.shutdown('test agent stopped');
      },
    };
    running.add(agentHandle);
    return agentHandle;
  }

  return {
    plane,
    client,
    clients,
    limiter,
    logs,
    startAgent,
    stop: async () => {
      await Promise.all([...running].map((a) => a.stop()));
      await plane.stop();
    },
  };
}

// ---- objects, as a platform team and the members write them ----

export interface ListenerFixture {
  readonly name?: string;
  readonly hostname?: string;
  /** HTTPS on 443 with an AFD-managed certificate (the listener TLS option of the annotation contract). */
  readonly https?: boolean;
}

export function gatewayBody(
  name: string,
  annotations: Record<string, string> = {},
  listeners: readonly ListenerFixture[] = [{}],
  extraSpec: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name, namespace: APP_NAMESPACE, annotations },
    spec: {
      gatewayClassName: CLASS_NAME,
      listeners: listeners.map((l, i) => ({
        name: l.name ?? `http-${i}`,
        protocol: l.https ? 'HTTPS' : 'HTTP',
        port: l.https ? 443 : 80,
        ...(l.hostname ? { hostname: l.hostname } : {}),
        ...(l.https ? { tls: { mode: 'Terminate', options: { 'networking.fleet.azure.com/afd-certificate': 'managed' } } } : {}),
        allowedRoutes: { namespaces: { from: 'All' } },
      })),
      ...extraSpec,
    },
  };
}

export interface RuleFixture {
  readonly path: string;
  readonly backends: readonly { readonly name: string; readonly namespace?: string; readonly weight?: number }[];
}

export function routeBody(name: string, gateway: string, rules: readonly RuleFixture[], namespace = APP_NAMESPACE) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace },
    spec: {
      parentRefs: [{ name: gateway, namespace: APP_NAMESPACE }],
      rules: rules.map((r) => ({
        matches: [{ path: { type: 'PathPrefix', value: r.path } }],
        backendRefs: r.backends.map((b) => ({
          group: 'networking.fleet.azure.com',
          kind: 'ServiceImport',
          name: b.name,
          ...(b.namespace ? { namespace: b.namespace } : {}),
          port: 80,
          ...(b.weight !== undefined ? { weight: b.weight } : {}),
        })),
      })),
    },
  };
}

/** A Gateway and one HTTPRoute of the same name sending `/` to `backend` (default: the ServiceImport of that name). */
export async function applyGatewayWithRoute(
  client: KubeClient,
  name: string,
  options: { annotations?: Record<string, string>; backend?: string } = {},
): Promise<void> {
  await applyObject(client, gatewayPath(name), gatewayBody(name, options.annotations));
  await applyObject(client, routePath(name), routeBody(name, name, [{ path: '/', backends: [{ name: options.backend ?? name }] }]));
}

/** One hub for a test file, with one agent running (beforeAll starts it, afterAll calls `hub.stop()`). */
export async function startHubWithAgent(
  options: { emulator?: Parameters<typeof start>[0]; agent?: AgentOptions; gatewayApiVersion?: GatewayApiVersion } = {},
): Promise<{ hub: HubUnderTest; agent: RunningAgent }> {
  const hub = await startHubUnderTest({
    ...(options.emulator ? { emulator: options.emulator } : {}),
    ...(options.gatewayApiVersion ? { gatewayApiVersion: options.gatewayApiVersion } : {}),
  });
  return { hub, agent: await hub.startAgent(options.agent) };
}

export const gatewayPath = (name: string) => objectPath(gateways, name, APP_NAMESPACE);
export const routePath = (name: string, namespace = APP_NAMESPACE) => objectPath(httpRoutes, name, namespace);
export const exportPath = (cluster: string, service: string, namespace = APP_NAMESPACE) =>
  objectPath(internalServiceExports, `${namespace}-${service}`, `fleet-member-${cluster}`);

export async function applyObject(client: KubeClient, path: string, body: object): Promise<KubeObject> {
  return client.patch<KubeObject>(path, body, 'apply', { fieldManager: 'test-user', force: true });
}

export function readGateway(client: KubeClient, name: string): Promise<CachedGateway> {
  return client.get<CachedGateway>(gatewayPath(name));
}

export function readRoute(client: KubeClient, name: string, namespace = APP_NAMESPACE): Promise<CachedHTTPRoute> {
  return client.get<CachedHTTPRoute>(routePath(name, namespace));
}

export function readExport(client: KubeClient, cluster: string, service: string): Promise<CachedInternalServiceExport> {
  return client.get<CachedInternalServiceExport>(exportPath(cluster, service));
}

type Conditioned = { readonly conditions?: readonly { type: string }[] };

/** A condition of an object (`status.conditions`) or of a status entry (a listener's or route parent's `conditions`). */
export function conditionOf(object: { status?: Conditioned } | Conditioned | undefined, type: string) {
  const list = object && 'conditions' in object ? object.conditions : (object as { status?: Conditioned } | undefined)?.status?.conditions;
  return list?.find((c) => c.type === type) as { type: string; status: string; reason: string; message: string; observedGeneration?: number } | undefined;
}

export interface ExportFixture {
  readonly cluster: string;
  readonly service: string;
  /** A public origin address. */
  readonly publicAddress?: string;
  /** A Private Link Service (id, ILB address). */
  readonly privateLink?: { readonly id: string; readonly address: string };
  readonly connections?: readonly {
    readonly name: string;
    readonly status: 'Pending' | 'Approved' | 'Rejected' | 'Disconnected';
    readonly description?: string;
  }[];
  readonly weight?: number;
  /** The Service's namespace (default APP_NAMESPACE). */
  readonly namespace?: string;
  /** The member could not refresh its Azure data (missing information, not a withdrawal). */
  readonly azureDataStale?: boolean;
}

/** What a member agent publishes: server-side apply of the export's spec under its own field manager. */
export async function publishExport(client: KubeClient, fixture: ExportFixture): Promise<void> {
  const { cluster, service, namespace = APP_NAMESPACE } = fixture;
  const upstream = exportOf({ cluster, namespace, service });
  const body = {
    apiVersion: upstream.apiVersion,
    kind: upstream.kind,
    metadata: { name: upstream.metadata.name, namespace: upstream.metadata.namespace },
    spec: {
      ...upstream.spec,
      weight: fixture.weight ?? 1,
      ...(fixture.publicAddress ? { publicAddress: fixture.publicAddress } : {}),
      ...(fixture.privateLink
        ? {
            internalLoadBalancerIP: fixture.privateLink.address,
            privateLinkService: { resourceID: fixture.privateLink.id, location: 'eastus2' },
            privateEndpointConnections: (fixture.connections ?? []).map((c) => ({ ...c })),
          }
        : {}),
      azureObservedTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      ...(fixture.azureDataStale ? { azureDataStale: true } : {}),
    },
  };
  await client.patch(exportPath(cluster, service, namespace), body, 'apply', { fieldManager: `member-discovery-${cluster}`, force: true });
}

/** What AKS's cloud provider makes for a Service with Private Link (an internal LB and PLS `pls-<service>`), and the member's Network client. */
export async function createPrivateLinkService(emulator: RunningEmulator, cluster: string, service: string, credential?: Parameters<typeof memberNetwork>[2]) {
  const network = memberNetwork(emulator, cluster, credential);
  const pls = await createMemberPrivateLinkService(network, service);
  return { ...pls, network: network.client, resourceGroup: network.resourceGroup };
}
