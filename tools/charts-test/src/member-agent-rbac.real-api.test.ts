import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { CloudProviderStandIn, emulatorIdentityCredential, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { memberAgentHubRules, startControlPlane, type Cluster, type ControlPlane } from '@fleet-gateway/control-plane';
import {
  collectionPath,
  createLogger,
  EventRecorder,
  isNotFound,
  KubeApiError,
  KubeClient,
  Manager,
  objectPath,
  type Condition,
} from '@fleet-gateway/controller';
import { AgentProcess, bundleAgent, createNamespace, eventually } from '@fleet-gateway/controller/test-support';
import { registerFleetHubControllers } from '@fleet-gateway/fleet-hub';
import { SERVICE_ANNOTATIONS } from '@fleet-gateway/member-azure';
import {
  AZURE_DATA_CURRENT_CONDITION,
  ClusterRegion,
  internalServiceExports,
  ORIGIN_PUBLISHED_CONDITION,
  REGION_LABEL,
  SERVICE_EXPORT_FINALIZER,
  serviceExports,
  services,
  type CachedInternalServiceExport,
  type CachedService,
  type CachedServiceExport,
} from '@fleet-gateway/member-export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAccess, mayI, type ResourceAttributes } from './access-review.js';
import { refusals, startAgentEmulator, type AgentEmulator } from './agent-run.js';
import { installChart } from './helm.js';
import { scrapeMetrics, scraperToken } from './metrics-scrape.js';
import { serviceAccountIdentity, type ServiceAccountIdentity } from './service-account-identity.js';

const MEMBER = 'member-1';
const HUB_NAMESPACE = `fleet-member-${MEMBER}`;
/** Another member's hub namespace, with its own Role from the same chart. */
const NEIGHBOUR_NAMESPACE = 'fleet-member-member-2';
const SERVICE_ACCOUNT = 'member-discovery';
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/member-discovery-controller-manager.networking.fleet.azure.com';
const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000b2';
const NODE_RG = 'MC_fleet_member-1_eastus2';

let dir: string;
let bundle: string;
let plane: ControlPlane;
let member: Cluster;
let memberAdmin: KubeClient;
let hubAdmin: KubeClient;
let memberIdentity: ServiceAccountIdentity;
/** The member agent's identity on the hub: the ServiceAccount member-discovery of fleet-member-member-1, bound to the hub chart's Role there only. */
let hubIdentity: ServiceAccountIdentity;
let azure: AgentEmulator;
let emulator: RunningEmulator;
let standIn: CloudProviderStandIn | undefined;
let hubSide: Manager | undefined;
let agent: AgentProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'charts-test-member-rbac-'));
  bundle = await bundleAgent('member-discovery', path.join(dir, 'main.mjs'));
  [plane, azure] = await Promise.all([startControlPlane({ clusters: ['hub', MEMBER], controllerManager: false }), startAgentEmulator(dir)]);
  emulator = azure.emulator;
  member = plane.cluster(MEMBER);
  memberAdmin = new KubeClient(member.kubeConfig());
  hubAdmin = new KubeClient(plane.cluster('hub').kubeConfig());
  for (const client of [hubAdmin, memberAdmin]) {
    await createNamespace(client, 'fleet-system');
    await createNamespace(client, 'shop');
  }
  // The members' hub namespaces, as Fleet's hub agent creates them when they join, and member-1's agent's hub identity.
  for (const namespace of [HUB_NAMESPACE, NEIGHBOUR_NAMESPACE]) await createNamespace(hubAdmin, namespace);
  await hubAdmin.create(`/api/v1/namespaces/${HUB_NAMESPACE}/serviceaccounts`, { metadata: { name: SERVICE_ACCOUNT } });
  // The hub's Fleet CRDs and the member agents' hub Roles come from the hub chart; the member's ServiceExport CRD and
  // the agent's RBAC there from the member chart.
  await installChart('hub-gateway', plane.cluster('hub').kubeconfigPath, ['hub-member-clusters.yaml']);
  await installChart('member-discovery', member.kubeconfigPath, ['member-minimal.yaml']);
  memberIdentity = await serviceAccountIdentity(memberAdmin, member, SERVICE_ACCOUNT, path.join(dir, 'member-kubeconfig.yaml'));
  hubIdentity = await serviceAccountIdentity(hubAdmin, plane.cluster('hub'), SERVICE_ACCOUNT, path.join(dir, 'hub-kubeconfig.yaml'), HUB_NAMESPACE);

  // Fixtures, as admin: a node with AKS's region label, AKS's cloud provider (the emulator's stand-in builds each
  // LoadBalancer Service's internal load balancer and Private Link Service), and the hub agent's Fleet side (the
  // export's Conflict answer).
  await memberAdmin.create(collectionPath({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false }), {
    metadata: { name: 'aks-nodepool1-0', labels: { [REGION_LABEL]: 'eastus2' } },
  });
  emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: NODE_RG });
  standIn = new CloudProviderStandIn({
    kubeConfig: member.kubeConfig(),
    emulator,
    credential: emulatorIdentityCredential(emulator),
    settings: { subscriptionId: SUBSCRIPTION, resourceGroup: NODE_RG },
  });
  await standIn.start();
  const logger = createLogger({ level: 'error', fields: { component: 'hub-gateway' } });
  hubSide = new Manager({ logger });
  const events = hubSide.addEventRecorder(
    new EventRecorder({ client: hubAdmin, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger }),
  );
  registerFleetHubControllers({ manager: hubSide, client: hubAdmin, events, logger });
  await hubSide.start();
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await hubSide?.shutdown('test over');
  await standIn?.stop();
  await Promise.all([plane?.stop(), emulator?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * The status a request gets. On a loaded machine the API server's priority and fairness can shed a request of a new
 * ServiceAccount's with a 429; KubeClient waits that out itself, as client-go does.
 */
const statusOf = (request: () => Promise<unknown>): Promise<unknown> =>
  request().then(
    () => 200,
    (e: unknown) => (e instanceof KubeApiError ? e.statusCode : e),
  );
const readServiceExport = () => memberAdmin.get<CachedServiceExport>(objectPath(serviceExports, 'orders', 'shop'));
const hubExportPath = objectPath(internalServiceExports, 'shop-orders', HUB_NAMESPACE);
const readHubExport = () => hubAdmin.get<CachedInternalServiceExport>(hubExportPath).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
const conditionOf = (se: CachedServiceExport, type: string) => se.status?.conditions?.find((c) => c.type === type) as Condition | undefined;

const EXPORTS = { group: 'networking.fleet.azure.com', resource: 'internalserviceexports' } as const;
/** What RBAC answers each request, as `allowed` / `denied` lists, so a failure names every difference at once. */
async function answers(client: KubeClient, requests: readonly ResourceAttributes[]): Promise<{ allowed: string[]; denied: string[] }> {
  const allowed = await Promise.all(requests.map((r) => mayI(client, r)));
  return {
    allowed: requests.filter((_, i) => allowed[i]).map(describeAccess),
    denied: requests.filter((_, i) => !allowed[i]).map(describeAccess),
  };
}

describe("the member agent under only its chart's RBAC on the member and the hub chart's member Role on the hub (bundle under node, real kube-apiservers, Azure emulator)", () => {
  it("the hub identity may do what the hub chart's Role grants, in its own namespace only; nothing on status, no read by name, no update, no Events", async () => {
    const hub = hubIdentity.client;
    const granted = (await memberAgentHubRules()).flatMap((rule) => rule.verbs);
    expect([...granted].sort()).toEqual(['create', 'delete', 'list', 'patch', 'watch']);
    const own = granted.map((verb) => ({ verb, ...EXPORTS, namespace: HUB_NAMESPACE }));
    const neighbour = granted.map((verb) => ({ verb, ...EXPORTS, namespace: NEIGHBOUR_NAMESPACE }));
    const removed: ResourceAttributes[] = [
      { verb: 'get', ...EXPORTS, namespace: HUB_NAMESPACE },
      { verb: 'update', ...EXPORTS, namespace: HUB_NAMESPACE },
      ...['get', 'update', 'patch'].map((verb) => ({ verb, ...EXPORTS, subresource: 'status', namespace: HUB_NAMESPACE })),
      ...['create', 'patch'].map((verb) => ({ verb, group: 'events.k8s.io', resource: 'events', namespace: HUB_NAMESPACE })),
      { verb: 'create', group: '', resource: 'events', namespace: HUB_NAMESPACE },
      { verb: 'list', ...EXPORTS },
    ];
    expect(await answers(hub, [...own, ...neighbour, ...removed])).toEqual({
      allowed: own.map(describeAccess),
      denied: [...neighbour, ...removed].map(describeAccess),
    });

    // And as real requests (RBAC answers before the body is validated): its own namespace is listed; another member's is neither read nor written.
    const body = (namespace: string) => ({
      apiVersion: 'networking.fleet.azure.com/v1alpha1',
      kind: 'InternalServiceExport',
      metadata: { name: 'shop-orders', namespace },
      spec: {},
    });
    const inNeighbour = objectPath(internalServiceExports, 'shop-orders', NEIGHBOUR_NAMESPACE);
    expect({
      listOwn: await statusOf(() => hub.get(collectionPath(internalServiceExports, HUB_NAMESPACE))),
      listNeighbour: await statusOf(() => hub.get(collectionPath(internalServiceExports, NEIGHBOUR_NAMESPACE))),
      createInNeighbour: await statusOf(() => hub.create(collectionPath(internalServiceExports, NEIGHBOUR_NAMESPACE), body(NEIGHBOUR_NAMESPACE))),
      applyInNeighbour: await statusOf(() => hub.patch(inNeighbour, body(NEIGHBOUR_NAMESPACE), 'apply', { fieldManager: 'member-discovery', force: true })),
    }).toEqual({ listOwn: 200, listNeighbour: 403, createInNeighbour: 403, applyInNeighbour: 403 });
  });

  it("the member identity may do what the member chart's ClusterRole grants and no more", async () => {
    const chart = memberIdentity.client;
    const core = (resource: string) => ({ group: '', resource });
    const exported = { group: 'networking.fleet.azure.com', resource: 'serviceexports' } as const;
    const granted: ResourceAttributes[] = [
      ...['list', 'watch'].map((verb) => ({ verb, ...core('services') })),
      { verb: 'list', ...core('nodes') },
      ...['list', 'watch', 'patch'].map((verb) => ({ verb, ...exported })),
      { verb: 'patch', ...exported, subresource: 'status' },
      ...['create', 'patch'].map((verb) => ({ verb, group: 'events.k8s.io', resource: 'events', namespace: 'shop' })),
    ];
    const removed: ResourceAttributes[] = [
      { verb: 'get', ...core('services'), namespace: 'shop' },
      ...['get', 'watch'].map((verb) => ({ verb, ...core('nodes') })),
      { verb: 'get', ...exported, namespace: 'shop' },
      { verb: 'update', ...exported, namespace: 'shop' },
    ];
    expect(await answers(chart, [...granted, ...removed])).toEqual({ allowed: granted.map(describeAccess), denied: removed.map(describeAccess) });
    expect(await statusOf(() => chart.get(collectionPath(services, 'shop')))).toBe(200);
    expect((await new ClusterRegion({ client: chart }).zone()).region).toBe('eastus2');
    expect(await statusOf(() => chart.create(collectionPath(services, 'shop'), { metadata: { name: 'x' }, spec: { ports: [{ port: 80 }] } }))).toBe(403);
    expect(await statusOf(() => chart.get('/api/v1/namespaces/fleet-system/secrets'))).toBe(403);
  });

  // Nothing refused under exactly these grants is what shows that every verb taken away is unused.
  it('with Private Link discovery: holds its Lease, publishes the internal Service’s Private Link origin on the hub, reads the hub’s answer, sets the export’s conditions, unexports it, and nothing is refused', async () => {
    agent = new AgentProcess(
      bundle,
      [
        '--member-cluster-name',
        MEMBER,
        '--hub-kubeconfig',
        hubIdentity.kubeconfigPath,
        '--enable-private-link-origin-discovery',
        '--azure-subscription-id',
        SUBSCRIPTION,
        '--node-resource-group',
        NODE_RG,
        '--arm-endpoint',
        emulator.armEndpoint,
        '--health-probe-bind-address',
        '127.0.0.1:0',
        '--metrics-bind-address',
        '127.0.0.1:0',
      ],
      { PATH: process.env.PATH, KUBECONFIG: memberIdentity.kubeconfigPath, ...azure.environment },
      AGENT_NODE_FLAGS['member-discovery'],
    );
    const started = await agent.line((l) => l.message === 'member-discovery started');
    expect(started.privateLinkOriginDiscovery).toEqual({ subscriptionId: SUBSCRIPTION, nodeResourceGroup: NODE_RG, approveConnections: false });
    // /metrics: reviewed on the member cluster with only the member chart's RBAC, served to its metrics reader.
    const metricsUrl = `${String(started.metrics)}/metrics`;
    const reader = await scraperToken(memberAdmin, 'prometheus', 'member-discovery-metrics-reader');
    const scraped = await scrapeMetrics(metricsUrl, reader);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('controller_reconcile_total{controller="service-export",outcome="done"}');
    expect((await scrapeMetrics(metricsUrl, await scraperToken(memberAdmin, 'stranger'))).status).toBe(403);
    expect((await scrapeMetrics(metricsUrl)).status).toBe(401);
    const health = String(started.health);
    const ready = await eventually(
      async () => {
        const r = await fetch(`${health}/readyz`);
        return { status: r.status, text: await r.text() };
      },
      (r) => r.status === 200,
      30_000,
    );
    expect(ready.text).toContain('[+]fleet-crds ok');
    expect(ready.text).toContain('[+]leader-lease ok');
    const lease = await eventually(
      () => memberAdmin.get<{ spec?: { holderIdentity?: string } }>(LEASE_PATH).catch(() => undefined),
      (l) => (l?.spec?.holderIdentity ?? '') !== '',
      30_000,
    );
    expect(lease?.spec?.holderIdentity).toBeTruthy();

    await memberAdmin.create(collectionPath(services, 'shop'), {
      metadata: { name: 'orders', annotations: { [SERVICE_ANNOTATIONS.internal]: 'true', [SERVICE_ANNOTATIONS.plsCreate]: 'true' } },
      spec: { type: 'LoadBalancer', selector: { app: 'orders' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
    });
    const service = await eventually(
      () => memberAdmin.get<CachedService>(objectPath(services, 'orders', 'shop')),
      (s) => (s.status?.loadBalancer?.ingress ?? []).length > 0,
      30_000,
    );
    await memberAdmin.create(collectionPath(serviceExports, 'shop'), {
      apiVersion: 'networking.fleet.azure.com/v1beta1',
      kind: 'ServiceExport',
      metadata: { name: 'orders' },
    });

    const published = await eventually(readHubExport, (e) => e?.spec?.privateLinkService !== undefined, 60_000);
    expect(published?.spec).toMatchObject({
      serviceReference: { clusterId: MEMBER, namespace: 'shop', name: 'orders' },
      isInternalLoadBalancer: true,
      internalLoadBalancerIP: service.status?.loadBalancer?.ingress?.[0]?.ip,
      privateLinkService: {
        resourceID: expect.stringMatching(
          new RegExp(`^/subscriptions/${SUBSCRIPTION}/resourceGroups/${NODE_RG}/providers/Microsoft\\.Network/privateLinkServices/[^/]+$`),
        ),
        location: expect.any(String),
        alias: expect.any(String),
      },
      azureObservedTime: expect.any(String),
    });
    expect(published?.spec?.publicAddress).toBeUndefined();
    expect(published?.spec?.azureDataStale ?? false).toBe(false);

    const exported = await eventually(
      readServiceExport,
      (s) =>
        [ORIGIN_PUBLISHED_CONDITION, AZURE_DATA_CURRENT_CONDITION].every((type) => conditionOf(s, type)?.status === 'True') &&
        conditionOf(s, 'Conflict')?.status === 'False',
      30_000,
    );
    expect(exported.metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
    for (const type of ['Valid', ORIGIN_PUBLISHED_CONDITION, AZURE_DATA_CURRENT_CONDITION]) expect(conditionOf(exported, type)?.status, type).toBe('True');
    expect(conditionOf(exported, 'Conflict')).toMatchObject({ status: 'False', reason: 'NoConflictFound' });
    const events = await eventually(
      () => memberAdmin.get<{ items: { reportingController?: string }[] }>('/apis/events.k8s.io/v1/namespaces/shop/events'),
      (list) => list.items.some((e) => e.reportingController === 'networking.fleet.azure.com/member-discovery'),
      30_000,
    );
    expect(events.items.some((e) => e.reportingController === 'networking.fleet.azure.com/member-discovery')).toBe(true);

    await memberAdmin.delete(objectPath(serviceExports, 'orders', 'shop'));
    const gone = await eventually(
      async () => ({
        serviceExport: await readServiceExport().then(
          () => true,
          (e: unknown) => !isNotFound(e),
        ),
        hubExport: (await readHubExport()) !== undefined,
      }),
      (s) => !s.serviceExport && !s.hubExport,
      30_000,
    );
    expect(gone).toEqual({ serviceExport: false, hubExport: false });

    expect(await agent.stop()).toBe(0);
    expect((await memberAdmin.get<{ spec?: { holderIdentity?: string } }>(LEASE_PATH)).spec?.holderIdentity ?? '').toBe('');
    // ARM took only the tokens the emulator's managed-identity endpoint issued.
    expect(emulator.admin.requestTotal({ status: 401 })).toBe(0);
    expect(refusals(agent)).toEqual([]);
    expect(agent.stderr).toBe('');
  }, 120_000);
});
