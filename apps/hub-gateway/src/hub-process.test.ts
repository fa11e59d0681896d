import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { defaultGatewayApiVersion } from '@fleet-gateway/control-plane';
import { CdnManagementClient } from '@azure/arm-cdn';
import { OWNERSHIP_TAGS } from '@fleet-gateway/azure-frontdoor';
import type { PrivateEndpointConnection } from '@azure/arm-network';
import { emulatorIdentityCredential, managedIdentityEnvironment, start, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { customResourceDefinitions, objectPath, type Condition, type CustomResourceDefinition, type KubeClient } from '@fleet-gateway/controller';
import { AgentProcess, bundleAgent, eventually, startHubPlane, type HubPlane, type LogLine } from '@fleet-gateway/controller/test-support';
import { checkFleetCrds, FLEET_CRDS_CHECK, INTERNAL_SERVICE_EXPORT_CRD } from '@fleet-gateway/fleet-schema';
import { withoutExtensionFields } from '@fleet-gateway/fleet-schema/test-support';
import { AFD_DISABLED_MESSAGE, GATEWAY_FINALIZER } from '@fleet-gateway/gateway-controllers';
import {
  applyObject,
  conditionOf,
  createPrivateLinkService,
  gatewayBody,
  gatewayPath,
  publishExport,
  readExport,
  readGateway,
  routeBody,
  routePath,
} from '@fleet-gateway/gateway-controllers/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_USAGE, parseHubFlags } from './flags.js';
import { LEADER_LEASE } from './hub-agent.js';

const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000a1';
/** The client id of the emulator's managed identity, which the agent names with --azure-client-id. */
const HUB_CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';
const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/${LEADER_LEASE}`;
const GATEWAY_PATH = '/apis/gateway.networking.k8s.io/v1/namespaces/shop/gateways/web';

let dir: string;
let bundle: string;
let plane: HubPlane['plane'];
let hub: HubPlane['hub'];
let client: KubeClient;
let emulator: RunningEmulator;
let caFile: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hub-gateway-process-'));
  // The agent runs as it ships: the esbuild bundle under plain node.
  bundle = await bundleAgent('hub-gateway', path.join(dir, 'main.mjs'));
  ({ plane, hub, client } = await startHubPlane({ namespaces: ['fleet-system', 'shop', 'fleet-member-member-1', 'fleet-member-member-2'] }));
  await plane.installCrds('hub', { gatewayApi: 'standard', fleet: true });
  emulator = await start({ armAuthentication: 'issued-tokens', lroDelayMs: 0, throttling: false, managedIdentity: { clientId: HUB_CLIENT_ID } });
  caFile = path.join(dir, 'emulator-ca.pem');
  await writeFile(caFile, emulator.caCertificate);
}, 120_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await emulator?.stop();
  await plane?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The agent with the environment a pod would give it: a kubeconfig and the (emulated) managed identity, and `environment`. */
function startAgent(args: string[], environment: NodeJS.ProcessEnv = {}): AgentProcess {
  const agent = new AgentProcess(
    bundle,
    args,
    {
      PATH: process.env.PATH,
      KUBECONFIG: hub.kubeconfigPath,
      NODE_EXTRA_CA_CERTS: caFile,
      ...managedIdentityEnvironment(emulator),
      ...environment,
    },
    AGENT_NODE_FLAGS['hub-gateway'],
  );
  agents.push(agent);
  return agent;
}

// Loopback only, so /metrics is asked for in plain HTTP (the secure default is tested with the chart's RBAC in tools/charts-test).
const LOCAL_SERVING = ['--health-probe-bind-address', '127.0.0.1:0', '--metrics-bind-address', '127.0.0.1:0', '--metrics-secure=false'];
const SHORT_LEASE = ['--leader-elect-lease-duration', '4s', '--leader-elect-renew-deadline', '3s', '--leader-elect-retry-period', '500ms'];

async function startedAgent(
  args: string[],
  environment: NodeJS.ProcessEnv = {},
): Promise<{ agent: AgentProcess; started: LogLine; health: string; metrics: string }> {
  const agent = startAgent(args, environment);
  const started = await agent.line((l) => l.message === 'hub-gateway started');
  return { agent, started, health: String(started.health), metrics: String(started.metrics) };
}

async function readyz(health: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${health}/readyz`);
  return { status: response.status, text: await response.text() };
}

type Lease = { spec?: { holderIdentity?: string } };

const errorLines = (lines: LogLine[]) => lines.filter((l) => l.level === 'error').map((l) => l.message);

/** Front Door on, with what it needs: the AFD resource group, the hub's name and the subscription. */
const afdArgs = (resourceGroup: string): string[] => [
  '--enable-afd',
  '--afd-resource-group',
  resourceGroup,
  '--hub-name',
  'hub-test',
  '--azure-subscription-id',
  SUBSCRIPTION,
];

describe('the hub agent process (bundle under node, real kube-apiserver, Azure emulator)', () => {
  it('refuses invalid flags with every problem on its own line, exit code 2 and no stack trace', async () => {
    const args = ['--enable-afd', '--arm-rate-limit-share', '7', '--log-level', 'loud', '--metrics-bind-address', 'nowhere'];
    const agent = startAgent(args);
    expect(await agent.exited).toBe(2);
    const expected = parseHubFlags(args);
    if (expected.ok) throw new Error('these flags must be invalid');
    expect(agent.stderr.split('\n').filter((l) => l !== '')).toEqual(expected.errors);
    for (const flag of ['--afd-resource-group', '--azure-subscription-id', '--hub-name', '--arm-rate-limit-share', '--log-level', '--metrics-bind-address']) {
      expect(agent.stderr).toMatch(new RegExp(`^${flag} `, 'm'));
    }
    expect(agent.stderr).not.toMatch(/^\s+at /m);
  });

  it('with --azure-credential=workload-identity and no AZURE_FEDERATED_TOKEN_FILE: refuses to start with the one line naming the flag, its value and what is missing', async () => {
    const args = [...afdArgs('rg-fleet-afd'), '--azure-credential=workload-identity', '--azure-client-id', HUB_CLIENT_ID, '--azure-tenant-id', SUBSCRIPTION];
    const tokenRequests = emulator.admin.requestTotal({ resourceType: 'managedIdentity/token' });
    const agent = startAgent(args);
    expect(await agent.exited).toBe(2);
    expect(agent.stderr).toBe(
      '--azure-credential=workload-identity is missing AZURE_FEDERATED_TOKEN_FILE, the service account token the workload identity webhook projects (pod label azure.workload.identity/use: "true")\n',
    );
    expect(emulator.admin.requestTotal({ resourceType: 'managedIdentity/token' })).toBe(tokenRequests);
  });

  it('fails to start on an address in use with one line and exit code 1', async () => {
    const taken = new URL(emulator.admin.url).host;
    const agent = startAgent(['--leader-elect=false', '--health-probe-bind-address', taken, '--metrics-bind-address', '127.0.0.1:0']);
    expect(await agent.exited).toBe(1);
    expect(agent.stderr).toBe(`hub-gateway: listen EADDRINUSE: address already in use ${taken}\n`);
  });

  it('fails to start with one line naming the file and exit code 1 when --metrics-cert-dir holds no certificate', async () => {
    const certDir = path.join(tmpdir(), `no-metrics-certs-${process.pid}`);
    const agent = startAgent([
      '--leader-elect=false',
      '--health-probe-bind-address',
      '127.0.0.1:0',
      '--metrics-bind-address',
      '127.0.0.1:0',
      '--metrics-cert-dir',
      certDir,
    ]);
    expect(await agent.exited).toBe(1);
    expect(agent.stderr).toBe(`hub-gateway: ${path.join(certDir, 'tls.crt')} cannot be read (ENOENT); expected a PEM file\n`);
  });

  it('prints its help and exits 0', async () => {
    const agent = startAgent(['--help']);
    expect(await agent.exited).toBe(0);
    expect(agent.stdout).toBe(HUB_USAGE);
  });

  it('with --enable-afd=false and NODE_ENV=production (as its image sets it): no cache deep-frozen; turns ready, holds the Lease, reconciles a Gateway without any Azure request, and stops on SIGTERM', async () => {
    const { agent, started, health, metrics } = await startedAgent(
      ['--enable-afd=false', '--azure-subscription-id', SUBSCRIPTION, '--arm-endpoint', emulator.armEndpoint, ...LOCAL_SERVING, ...SHORT_LEASE],
      { NODE_ENV: 'production' },
    );
    expect(started.frozenCaches).toEqual([]);
    // Before its informers start, it says which Gateway API release the hub serves (the one the harness installed).
    const release = defaultGatewayApiVersion();
    expect(agent.lines.find((l) => l.message === 'the hub serves Gateway API')).toMatchObject({ release, bundleVersion: release, channel: 'standard' });
    const ready = await eventually(
      () => readyz(health),
      (r) => r.status === 200,
      30_000,
    );
    expect(ready.text).toContain(`[+]${FLEET_CRDS_CHECK} ok`);
    expect(ready.text).toContain('[+]leader-lease ok');
    const lease = await eventually(
      () => client.get<Lease>(LEASE_PATH).catch((): Lease => ({})),
      (l) => l.spec?.holderIdentity !== undefined && l.spec.holderIdentity !== '',
      30_000,
    );
    expect(lease.spec?.holderIdentity).toMatch(new RegExp(`^${hostname()}_[0-9a-f]{8}$`));

    await client.create('/apis/gateway.networking.k8s.io/v1/gatewayclasses', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'azure-fleet-afd' },
      spec: { controllerName: 'networking.fleet.azure.com/afd' },
    });
    await client.create('/apis/gateway.networking.k8s.io/v1/namespaces/shop/gateways', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'web' },
      spec: { gatewayClassName: 'azure-fleet-afd', listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }] },
    });
    const gateway = await eventually(
      () => client.get<{ status?: { conditions?: Condition[] } }>(GATEWAY_PATH),
      // The API server's default is Unknown "Waiting for controller"; the controller's answer is False.
      (g) => g.status?.conditions?.some((c) => c.type === 'Programmed' && c.status === 'False') ?? false,
      30_000,
    );
    const programmed = gateway.status?.conditions?.find((c) => c.type === 'Programmed');
    expect(programmed).toMatchObject({ status: 'False', reason: 'Pending', message: expect.stringContaining(AFD_DISABLED_MESSAGE) });
    // The agent knew the emulator's ARM endpoint and had a managed identity: it asked for neither token nor resource.
    expect(emulator.admin.requestTotal()).toBe(0);

    const exposition = await (await fetch(`${metrics}/metrics`)).text();
    expect(exposition).toContain('controller_reconcile_total{controller="gateway",outcome="done"}');
    // The hub client's throttling retries are reported, from zero (none happened here).
    expect(exposition).toContain('kube_client_request_retries_total{client="hub",reason="throttled"} 0');
    expect(exposition).not.toContain('fleet_gateway_arm_');
    expect((await fetch(`${health}/metrics`)).status).toBe(404);

    expect(await agent.stop()).toBe(0);
    const released = await client.get<Lease>(LEASE_PATH);
    expect(released.spec?.holderIdentity ?? '').toBe('');
    expect(errorLines(agent.lines)).toEqual([]);
  }, 60_000);

  it('exits 1 when another replica takes the Lease and this one cannot renew within the renew deadline', async () => {
    const { agent } = await startedAgent(['--enable-afd=false', ...LOCAL_SERVING, ...SHORT_LEASE]);
    const held = await eventually(
      () => client.get<Lease & { metadata: Record<string, unknown> }>(LEASE_PATH).catch(() => undefined),
      (l) => (l?.spec?.holderIdentity ?? '') !== '',
      30_000,
    );
    const now = new Date().toISOString().replace('Z', '000Z');
    await client.replace(LEASE_PATH, {
      ...held,
      spec: { ...held?.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60, renewTime: now, acquireTime: now },
    });
    expect(await agent.exited).toBe(1);
    expect(errorLines(agent.lines)).toEqual(['lost leadership; stopping all work']);
    expect((await client.get<Lease>(LEASE_PATH)).spec?.holderIdentity).toBe('intruder');
    await client.delete(LEASE_PATH);
  }, 60_000);

  it('with --enable-afd and --azure-credential=managed-identity: takes tokens for its client id from the managed-identity endpoint, programs the Gateway and reports its ARM requests (outside production, its caches deep-frozen)', async () => {
    emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: 'rg-fleet-afd' });
    emulator.admin.resetCounters();
    const { agent, started, metrics } = await startedAgent([
      ...afdArgs('rg-fleet-afd'),
      '--arm-endpoint',
      emulator.armEndpoint,
      '--azure-credential=managed-identity',
      '--azure-client-id',
      HUB_CLIENT_ID,
      '--leader-elect=false',
      ...LOCAL_SERVING,
    ]);
    expect(started.frozenCaches).toEqual(
      expect.arrayContaining(['gateways.v1.gateway.networking.k8s.io', 'serviceimports.v1alpha1.networking.fleet.azure.com']),
    );
    const gateway = await eventually(
      () => client.get<{ status?: { conditions?: Condition[] } }>(GATEWAY_PATH),
      (g) => g.status?.conditions?.some((c) => c.type === 'Programmed' && c.status === 'True') ?? false,
      30_000,
    );
    expect(gateway.status?.conditions?.find((c) => c.type === 'Accepted')).toMatchObject({ status: 'True' });
    // ARM took only tokens the emulator's managed-identity endpoint issued (armAuthentication: 'issued-tokens').
    // The endpoint answers 400 for a client id that is not its identity's: every request named HUB_CLIENT_ID.
    expect(emulator.admin.requestTotal({ resourceType: 'managedIdentity/token', status: 200 })).toBeGreaterThanOrEqual(1);
    expect(emulator.admin.requestTotal({ resourceType: 'managedIdentity/token', status: 400 })).toBe(0);
    expect(emulator.admin.requestTotal({ status: 401 })).toBe(0);
    const profilesPut = emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles', status: 201 });
    expect(profilesPut).toBe(1);
    const exposition = await (await fetch(`${metrics}/metrics`)).text();
    expect(exposition).toContain(`fleet_gateway_arm_requests_total{operation="profiles",method="PUT",code="201"} ${profilesPut}`);
    expect(exposition).toContain('fleet_gateway_arm_rate_limiter_wait_seconds_count{class="writes"}');
    expect(await agent.stop()).toBe(0);
    expect(errorLines(agent.lines)).toEqual([]);
  }, 60_000);

  it("with upstream's CRDs (no extension fields): stays not ready with the one-line message, and turns ready once ours are back", async () => {
    const crdPath = objectPath(customResourceDefinitions, INTERNAL_SERVICE_EXPORT_CRD);
    const ours = await client.get<CustomResourceDefinition>(crdPath);
    const upstream = withoutExtensionFields(ours);
    const { metadata } = upstream as unknown as { metadata: Record<string, unknown> };
    for (const field of ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields']) delete metadata[field];
    const expected = checkFleetCrds(upstream).message ?? '';
    await client.patch(crdPath, upstream, 'apply', { fieldManager: 'upstream-installer', force: true });

    const { agent, health } = await startedAgent(['--leader-elect=false', ...LOCAL_SERVING]);
    // Before the CRD is read the check says "not read yet"; the answer about upstream's schema follows.
    const notReady = await eventually(
      () => readyz(health),
      (r) => r.text.includes(`[-]${FLEET_CRDS_CHECK} failed: ${expected}`),
      30_000,
    );
    expect(notReady.status).toBe(503);
    expect(notReady.text).toContain(`[-]${FLEET_CRDS_CHECK} failed: ${expected}`);
    await agent.line((l) => l.level === 'error');
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await readyz(health)).status).toBe(503);
    expect(errorLines(agent.lines)).toEqual([expected]);

    await plane.installCrds('hub', { gatewayApi: false, fleet: true });
    expect(
      (
        await eventually(
          () => readyz(health),
          (r) => r.status === 200,
          30_000,
        )
      ).status,
    ).toBe(200);
    expect(await agent.stop()).toBe(0);
  }, 60_000);

  it('SIGKILLed mid-provisioning and restarted: converges with no duplicate or orphan Azure resource and reuses its request message', async () => {
    const resourceGroup = 'rg-killed';
    emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: resourceGroup });
    const args = [...afdArgs(resourceGroup), '--arm-endpoint', emulator.armEndpoint, '--leader-elect=false', ...LOCAL_SERVING];
    await applyObject(client, '/apis/gateway.networking.k8s.io/v1/gatewayclasses/azure-fleet-afd', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'azure-fleet-afd' },
      spec: { controllerName: 'networking.fleet.azure.com/afd' },
    });
    // A Premium Gateway: one Private Link backend (member-1) and one public one (member-2).
    const credential = emulatorIdentityCredential(emulator);
    const pls = await createPrivateLinkService(emulator, 'member-1', 'orders', credential);
    await publishExport(client, { cluster: 'member-1', service: 'orders', privateLink: pls });
    await publishExport(client, { cluster: 'member-2', service: 'catalog', publicAddress: '10.2.0.30' });
    await applyObject(client, gatewayPath('killed'), gatewayBody('killed', { 'networking.fleet.azure.com/afd-sku': 'Premium_AzureFrontDoor' }));
    await applyObject(
      client,
      routePath('killed'),
      routeBody('killed', 'killed', [
        { path: '/orders', backends: [{ name: 'orders' }] },
        { path: '/', backends: [{ name: 'catalog' }] },
      ]),
    );

    // Origin writes hang for a while: the agent is killed while it provisions.
    emulator.admin.injectFault({ kind: 'latency', method: 'PUT', pathPattern: '/origins/', latencyMs: 3_000, count: 4 });
    const first = startAgent(args);
    await eventually(
      () => emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles/originGroups' }),
      (n) => n >= 1,
      30_000,
    );
    const message = (
      await eventually(
        () => readExport(client, 'member-1', 'orders'),
        (e) => (e.status?.privateLinkRequests ?? []).length === 1,
      )
    ).status?.privateLinkRequests?.[0]?.requestMessage;
    expect(message).toMatch(/^fleet-afd-[A-Za-z0-9_-]{40}$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Killed while origin writes hang in the emulator: at least one of the delayed PUTs had started.
    const delayed = emulator.admin.listFaults();
    first.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(delayed.length === 0 || (delayed[0]?.remaining ?? 4) < 4).toBe(true);
    emulator.admin.clearFaults();

    const second = startAgent(args);
    await eventually(
      () => readGateway(client, 'killed'),
      (g) => /awaiting approval/.test(conditionOf(g, 'Programmed')?.message ?? ''),
      30_000,
    );
    expect((await readExport(client, 'member-1', 'orders')).status?.privateLinkRequests?.[0]?.requestMessage).toBe(message);
    // The member approves the one connection AFD asked for, and reports it.
    const listConnections = async () => {
      const list: PrivateEndpointConnection[] = [];
      for await (const c of pls.network.privateLinkServices.listPrivateEndpointConnections(pls.resourceGroup, 'pls-orders')) list.push(c);
      return list;
    };
    // AFD's connection appears on the PLS after a while (the emulator's Private Link timing, as on Azure).
    const connections = await eventually(listConnections, (list) => list.length > 0, 30_000);
    expect(connections.map((c) => c.privateLinkServiceConnectionState?.description)).toEqual([message]);
    const [connection] = connections;
    await pls.network.privateLinkServices.updatePrivateEndpointConnection(pls.resourceGroup, 'pls-orders', connection?.name ?? '', {
      ...connection,
      privateLinkServiceConnectionState: { status: 'Approved', description: message },
    });
    await publishExport(client, {
      cluster: 'member-1',
      service: 'orders',
      privateLink: pls,
      connections: [{ name: connection?.name ?? '', status: 'Approved', description: message }],
    });
    const programmed = await eventually(
      () => readGateway(client, 'killed'),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
      30_000,
    );
    expect(conditionOf(programmed, 'Programmed')?.reason).toBe('Programmed');
    expect(programmed.metadata.finalizers).toEqual([GATEWAY_FINALIZER]);

    // Exactly one profile for this Gateway (the file's other Gateway has its own), and in it exactly the planned
    // resources: two origin groups with one origin each, two routes.
    const cdn = new CdnManagementClient(credential, SUBSCRIPTION, { endpoint: emulator.armEndpoint, tlsOptions: { ca: emulator.caCertificate } });
    const profiles = [];
    for await (const p of cdn.profiles.listByResourceGroup(resourceGroup)) if (p.tags?.[OWNERSHIP_TAGS.gatewayName] === 'killed') profiles.push(p.name ?? '');
    expect(profiles).toHaveLength(1);
    const profile = profiles[0] ?? '';
    const groups: Record<string, number> = {};
    for await (const group of cdn.afdOriginGroups.listByProfile(resourceGroup, profile)) {
      let count = 0;
      for await (const _origin of cdn.afdOrigins.listByOriginGroup(resourceGroup, profile, group.name ?? '')) count++;
      groups[group.name ?? ''] = count;
    }
    expect(Object.values(groups)).toEqual([1, 1]);
    const routes = [];
    for await (const endpoint of cdn.afdEndpoints.listByProfile(resourceGroup, profile)) {
      for await (const route of cdn.routes.listByEndpoint(resourceGroup, profile, endpoint.name ?? '')) routes.push(route.name);
    }
    expect(routes).toHaveLength(2);
    expect(errorLines(second.lines)).toEqual([]);
    expect(await second.stop()).toBe(0);
  }, 120_000);
});
