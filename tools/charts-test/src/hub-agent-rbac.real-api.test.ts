import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startControlPlane, type Cluster, type ControlPlane } from '@fleet-gateway/control-plane';
import { KubeApiError, KubeClient, type Condition } from '@fleet-gateway/controller';
import { AgentProcess, bundleAgent, createNamespace, eventually } from '@fleet-gateway/controller/test-support';
import { INTERNAL_SERVICE_EXPORT_FINALIZER } from '@fleet-gateway/fleet-hub';
import { exportOf } from '@fleet-gateway/fleet-hub/test-support';
import type { RunningEmulator } from '@fleet-gateway/azure-emulator';
import { AFD_DISABLED_MESSAGE, GATEWAY_FINALIZER } from '@fleet-gateway/gateway-controllers';
import {
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readExport,
  readGateway,
  routeBody,
  routePath,
} from '@fleet-gateway/gateway-controllers/test-support';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusals, startAgentEmulator } from './agent-run.js';
import { installChart } from './helm.js';
import { scrapeMetrics, scraperToken } from './metrics-scrape.js';
import { serviceAccountIdentity } from './service-account-identity.js';

const SERVICE_ACCOUNT = 'hub-gateway';
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/hub-gateway-controller-manager.networking.fleet.azure.com';
const GATEWAY_PATH = '/apis/gateway.networking.k8s.io/v1/namespaces/shop/gateways/web';
const ROUTE_PATH = '/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/web';
const EXPORT_PATH = '/apis/networking.fleet.azure.com/v1alpha1/namespaces/fleet-member-member-1/internalserviceexports/shop-web';
const IMPORT_PATH = '/apis/networking.fleet.azure.com/v1alpha1/namespaces/shop/serviceimports/web';

let dir: string;
let bundle: string;
let plane: ControlPlane;
let hub: Cluster;
let admin: KubeClient;
let agentKubeconfig: string;
let agentClient: KubeClient;
let agent: AgentProcess | undefined;
let emulator: RunningEmulator | undefined;
const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000a1';

interface Conditioned {
  metadata: { finalizers?: string[] };
  status?: { conditions?: Condition[] };
}
const condition = (object: Conditioned | undefined, type: string) => object?.status?.conditions?.find((c) => c.type === type);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'charts-test-hub-rbac-'));
  bundle = await bundleAgent('hub-gateway', path.join(dir, 'main.mjs'));
  plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
  hub = plane.cluster('hub');
  admin = new KubeClient(hub.kubeConfig());
  // The prerequisite (Gateway API CRDs, the experimental GatewayClass for supportedFeatures), then the chart as a user
  // installs it: its CRDs, ServiceAccount, roles and bindings are what the agent runs with.
  await plane.installCrds('hub', { gatewayApi: 'standard', experimentalGatewayClass: true, fleet: false });
  for (const namespace of ['fleet-system', 'shop', 'fleet-member-member-1']) await createNamespace(admin, namespace);
  await installChart('hub-gateway', hub.kubeconfigPath);
  ({ kubeconfigPath: agentKubeconfig, client: agentClient } = await serviceAccountIdentity(
    admin,
    hub,
    SERVICE_ACCOUNT,
    path.join(dir, 'agent-kubeconfig.yaml'),
  ));
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await emulator?.stop();
  await plane?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The agent's bundle with AFD off, its chart's identity and its default (secure) /metrics, on loopback ports. */
const startAgentWithoutAfd = () =>
  new AgentProcess(
    bundle,
    ['--enable-afd=false', '--health-probe-bind-address', '127.0.0.1:0', '--metrics-bind-address', '127.0.0.1:0'],
    {
      PATH: process.env.PATH,
      KUBECONFIG: agentKubeconfig,
    },
    AGENT_NODE_FLAGS['hub-gateway'],
  );

describe("the hub agent under only its chart's RBAC (bundle under node, real kube-apiserver)", () => {
  it("the token carries the chart's permissions and no more (reading Secrets is forbidden)", async () => {
    await expect(agentClient.get('/apis/gateway.networking.k8s.io/v1/gateways')).resolves.toBeDefined();
    const error = await agentClient.get('/api/v1/namespaces/fleet-system/secrets').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).statusCode).toBe(403);
  });

  it("serves /metrics over HTTPS only to a ServiceAccount bound to the chart's metrics-reader role, reviewing tokens with only the chart's RBAC", async () => {
    agent = startAgentWithoutAfd();
    const started = await agent.line((l) => l.message === 'hub-gateway started');
    const metricsUrl = `${String(started.metrics)}/metrics`;
    expect(metricsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const reader = await scraperToken(admin, 'prometheus', 'hub-gateway-metrics-reader');
    const stranger = await scraperToken(admin, 'stranger');
    const scraped = await scrapeMetrics(metricsUrl, reader);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('controller_reconcile_total{controller="gateway",outcome="done"}');
    expect(await scrapeMetrics(metricsUrl, stranger)).toEqual({
      status: 403,
      body: 'Forbidden: user "system:serviceaccount:fleet-system:stranger" may not get /metrics\n',
    });
    expect((await scrapeMetrics(metricsUrl)).status).toBe(401);
    expect((await scrapeMetrics(metricsUrl, 'not-a-token')).status).toBe(401);
    expect(await agent.stop()).toBe(0);
    expect(refusals(agent)).toEqual([]);
  }, 120_000);

  it('turns ready, holds the Lease, accepts the GatewayClass, holds the Gateway, makes the ServiceImport and cleans up, with no error', async () => {
    agent = startAgentWithoutAfd();
    const started = await agent.line((l) => l.message === 'hub-gateway started');
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
      () => admin.get<{ spec?: { holderIdentity?: string } }>(LEASE_PATH).catch(() => undefined),
      (l) => (l?.spec?.holderIdentity ?? '') !== '',
      30_000,
    );
    expect(lease?.spec?.holderIdentity).toBeTruthy();

    await admin.create('/apis/gateway.networking.k8s.io/v1/gatewayclasses', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'azure-fleet-afd' },
      spec: { controllerName: CONTROLLER_NAME },
    });
    await admin.create('/apis/gateway.networking.k8s.io/v1/namespaces/shop/gateways', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'web' },
      spec: { gatewayClassName: 'azure-fleet-afd', listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }] },
    });
    await admin.create('/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'web' },
      spec: {
        parentRefs: [{ name: 'web' }],
        rules: [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', port: 80 }] }],
      },
    });
    await admin.create('/apis/networking.fleet.azure.com/v1alpha1/namespaces/fleet-member-member-1/internalserviceexports', exportOf({ cluster: 'member-1' }));

    const gatewayClass = await eventually(
      () => admin.get<Conditioned>('/apis/gateway.networking.k8s.io/v1/gatewayclasses/azure-fleet-afd'),
      (c) => condition(c, 'Accepted')?.status === 'True',
      30_000,
    );
    expect(condition(gatewayClass, 'Accepted')?.status).toBe('True');

    const gateway = await eventually(
      () => admin.get<Conditioned>(GATEWAY_PATH),
      (g) => condition(g, 'Programmed')?.status === 'False',
      30_000,
    );
    expect(condition(gateway, 'Accepted')?.status).toBe('True');
    expect(condition(gateway, 'Programmed')).toMatchObject({ status: 'False', message: expect.stringContaining(AFD_DISABLED_MESSAGE) });
    // Nothing programmed in Azure, so nothing to clean up: the finalizer comes before the first Azure write only.
    expect(gateway.metadata.finalizers ?? []).not.toContain(GATEWAY_FINALIZER);

    const serviceImport = await eventually(
      () => admin.get<{ status?: { clusters?: { cluster: string }[] } }>(IMPORT_PATH).catch(() => undefined),
      (s) => (s?.status?.clusters?.length ?? 0) > 0,
      30_000,
    );
    expect(serviceImport?.status?.clusters).toEqual([{ cluster: 'member-1' }]);
    const exported = await eventually(
      () => admin.get<Conditioned>(EXPORT_PATH),
      (e) => condition(e, 'Conflict') !== undefined,
      30_000,
    );
    expect(exported.metadata.finalizers).toContain(INTERNAL_SERVICE_EXPORT_FINALIZER);
    expect(condition(exported, 'Conflict')?.status).toBe('False');

    const route = await eventually(
      () => admin.get<{ status?: { parents?: { controllerName: string }[] } }>(ROUTE_PATH),
      (r) => (r.status?.parents ?? []).some((p) => p.controllerName === CONTROLLER_NAME),
      30_000,
    );
    expect(route.status?.parents?.filter((p) => p.controllerName === CONTROLLER_NAME)).toHaveLength(1);
    const events = await eventually(
      () => admin.get<{ items: { reportingController?: string }[] }>('/apis/events.k8s.io/v1/namespaces/shop/events'),
      (list) => list.items.some((e) => e.reportingController === 'networking.fleet.azure.com/hub-gateway'),
      30_000,
    );
    expect(events.items.some((e) => e.reportingController === 'networking.fleet.azure.com/hub-gateway')).toBe(true);

    // The export's withdrawal: the agent releases its finalizer and deletes the ServiceImport.
    await admin.delete(EXPORT_PATH);
    const gone = await eventually(
      async () => ({
        exported: await admin.get(EXPORT_PATH).then(
          () => true,
          () => false,
        ),
        imported: await admin.get(IMPORT_PATH).then(
          () => true,
          () => false,
        ),
      }),
      (s) => !s.exported && !s.imported,
      30_000,
    );
    expect(gone).toEqual({ exported: false, imported: false });

    expect(await agent.stop()).toBe(0);
    expect((await admin.get<{ spec?: { holderIdentity?: string } }>(LEASE_PATH)).spec?.holderIdentity ?? '').toBe('');
    expect(refusals(agent)).toEqual([]);
    expect(agent.stderr).toBe('');
  }, 120_000);

  it('with --enable-afd (Azure emulator): adds the Gateway finalizer, programs it, writes the export status, and releases the finalizer on deletion', async () => {
    const azure = await startAgentEmulator(dir);
    emulator = azure.emulator;
    emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: 'rg-fleet-afd' });
    agent = new AgentProcess(
      bundle,
      [
        '--enable-afd',
        '--afd-resource-group',
        'rg-fleet-afd',
        '--hub-name',
        'hub-test',
        '--azure-subscription-id',
        SUBSCRIPTION,
        '--arm-endpoint',
        emulator.armEndpoint,
        '--health-probe-bind-address',
        '127.0.0.1:0',
        '--metrics-bind-address',
        '127.0.0.1:0',
      ],
      { PATH: process.env.PATH, KUBECONFIG: agentKubeconfig, ...azure.environment },
      AGENT_NODE_FLAGS['hub-gateway'],
    );
    await agent.line((l) => l.message === 'hub-gateway started');
    await publishExport(admin, { cluster: 'member-1', service: 'catalog', publicAddress: '10.1.0.30' });
    await applyObject(admin, gatewayPath('afd'), gatewayBody('afd'));
    await applyObject(admin, routePath('afd'), routeBody('afd', 'afd', [{ path: '/', backends: [{ name: 'catalog' }] }]));

    const programmed = await eventually(
      () => readGateway(admin, 'afd'),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
      60_000,
    );
    expect(conditionOf(programmed, 'Programmed')?.status).toBe('True');
    expect(programmed.metadata.finalizers).toContain(GATEWAY_FINALIZER);
    const exported = await eventually(
      () => readExport(admin, 'member-1', 'catalog'),
      (e) => (e.status?.frontDoors ?? []).length > 0,
      30_000,
    );
    expect(exported.status?.frontDoors?.map((f) => f.gateway)).toEqual(['shop/afd']);

    await admin.delete(gatewayPath('afd'));
    const gone = await eventually(
      () =>
        admin.get(gatewayPath('afd')).then(
          () => false,
          () => true,
        ),
      (g) => g,
      60_000,
    );
    expect(gone).toBe(true);
    expect(await agent.stop()).toBe(0);
    expect(refusals(agent)).toEqual([]);
  }, 120_000);
});
