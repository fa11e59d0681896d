import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import {
  CloudProviderStandIn,
  emulatorIdentityCredential,
  managedIdentityEnvironment,
  start as startEmulator,
  type RunningEmulator,
} from '@fleet-gateway/azure-emulator';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import {
  collectionPath,
  createLogger,
  customResourceDefinitions,
  EventRecorder,
  isNotFound,
  KubeClient,
  Manager,
  objectPath,
  tokenFileKubeConfig,
  type Condition,
  type CustomResourceDefinition,
  type KubeObject,
} from '@fleet-gateway/controller';
import { AgentProcess, bundleAgent, createNamespace, eventually, type LogLine } from '@fleet-gateway/controller/test-support';
import { registerFleetHubControllers } from '@fleet-gateway/fleet-hub';
import { checkFleetCrds, FLEET_CRDS_CHECK, INTERNAL_SERVICE_EXPORT_CRD } from '@fleet-gateway/fleet-schema';
import { withoutExtensionFields } from '@fleet-gateway/fleet-schema/test-support';
import { internalServiceExports, serviceExports, services, type CachedInternalServiceExport, type CachedServiceExport } from '@fleet-gateway/member-export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_USAGE, parseMemberFlags } from './flags.js';
import { LEADER_LEASE } from './member-agent.js';
import { discoveryArgs, LOCAL_SERVING } from './test-support/agent-args.js';

const MEMBER = 'member-1';
const HUB_NAMESPACE = `fleet-member-${MEMBER}`;
const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000b1';
const NODE_RG = 'MC_fleet_member-1_eastus';
const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/${LEADER_LEASE}`;
const SHORT_LEASE = ['--leader-elect-lease-duration', '4s', '--leader-elect-renew-deadline', '3s', '--leader-elect-retry-period', '500ms'];

let dir: string;
let bundle: string;
let plane: ControlPlane;
let emulator: RunningEmulator;
let hub: KubeClient;
let member: KubeClient;
let hubManager: Manager;
let hubKubeconfig: string;
let caFile: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'member-discovery-process-'));
  // The agent runs as it ships: the esbuild bundle under plain node.
  bundle = await bundleAgent('member-discovery', path.join(dir, 'main.mjs'));
  [plane, emulator] = await Promise.all([
    startControlPlane({ clusters: ['hub', MEMBER], controllerManager: false }),
    startEmulator({ armAuthentication: 'issued-tokens', lroDelayMs: 0, throttling: false }),
  ]);
  for (const cluster of ['hub', MEMBER]) await plane.installCrds(cluster, { gatewayApi: false, fleet: true });
  hub = new KubeClient(plane.cluster('hub').kubeConfig());
  member = new KubeClient(plane.cluster(MEMBER).kubeConfig());
  for (const namespace of ['fleet-system', 'shop']) await createNamespace(member, namespace);
  await createNamespace(hub, 'shop');
  // The member's identity on the hub: a Role in fleet-member-member-1 only.
  hubKubeconfig = await plane.memberHubKubeconfig(MEMBER);
  caFile = path.join(dir, 'emulator-ca.pem');
  await writeFile(caFile, emulator.caCertificate);
  // The hub side decides Conflict, as the hub agent does.
  const logger = createLogger({ level: 'error', fields: { component: 'hub-gateway' } });
  hubManager = new Manager({ logger });
  const events = hubManager.addEventRecorder(
    new EventRecorder({ client: hub, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger }),
  );
  registerFleetHubControllers({ manager: hubManager, client: hub, events, logger });
  await hubManager.start();
}, 180_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await hubManager?.shutdown('test over');
  await Promise.all([plane?.stop(), emulator?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The agent with what a pod gives it: the member's kubeconfig, the (emulated) managed identity, and `environment`. */
function startAgent(args: string[], environment: NodeJS.ProcessEnv = {}): AgentProcess {
  const agent = new AgentProcess(
    bundle,
    args,
    {
      PATH: process.env.PATH,
      KUBECONFIG: plane.cluster(MEMBER).kubeconfigPath,
      NODE_EXTRA_CA_CERTS: caFile,
      ...managedIdentityEnvironment(emulator),
      ...environment,
    },
    AGENT_NODE_FLAGS['member-discovery'],
  );
  agents.push(agent);
  return agent;
}

async function startedAgent(
  args: string[],
  environment: NodeJS.ProcessEnv = {},
): Promise<{ agent: AgentProcess; started: LogLine; health: string; metrics: string }> {
  const agent = startAgent(args, environment);
  const started = await agent.line((l) => l.message === 'member-discovery started');
  return { agent, started, health: String(started.health), metrics: String(started.metrics) };
}

async function readyz(health: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${health}/readyz`);
  return { status: response.status, text: await response.text() };
}

const errorLines = (lines: LogLine[]) => lines.filter((l) => l.level === 'error').map((l) => l.message);
type Lease = { spec?: { holderIdentity?: string } };

async function createService(name: string, spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): Promise<void> {
  await member.create(collectionPath(services, 'shop'), {
    metadata: { name, annotations },
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
  });
}

async function exportService(name: string, spec: Record<string, unknown> = {}): Promise<void> {
  await createService(name, spec);
  await createServiceExport(name);
}

async function createServiceExport(name: string): Promise<void> {
  await member.create(collectionPath(serviceExports, 'shop'), { apiVersion: 'networking.fleet.azure.com/v1beta1', kind: 'ServiceExport', metadata: { name } });
}

const readHubExport = (name: string) =>
  hub.get<CachedInternalServiceExport>(objectPath(internalServiceExports, `shop-${name}`, HUB_NAMESPACE)).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
const readServiceExport = (name: string) => member.get<CachedServiceExport>(objectPath(serviceExports, name, 'shop'));
const conditionOf = (se: CachedServiceExport, type: string): Condition | undefined =>
  se.status?.conditions?.find((c) => c.type === type) as Condition | undefined;

/** A hub token of the member's ServiceAccount bound to a Secret of its own: deleting the Secret revokes it. */
async function boundHubToken(name: string): Promise<string> {
  const secret = await hub.create<KubeObject>(`/api/v1/namespaces/${HUB_NAMESPACE}/secrets`, { metadata: { name } });
  const request = await hub.create<{ status: { token: string } }>(`/api/v1/namespaces/${HUB_NAMESPACE}/serviceaccounts/member-agent/token`, {
    spec: { audiences: [], expirationSeconds: 3600, boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name, uid: secret.metadata.uid } },
  });
  return request.status.token;
}

/** The hub's answer to a request made with `token`. */
async function hubStatusWith(token: string): Promise<number> {
  const file = path.join(dir, `probe-${Date.now()}`);
  await writeFile(file, token);
  const probe = new KubeClient(tokenFileKubeConfig({ server: plane.cluster('hub').server, tokenFile: file, caPem: plane.cluster('hub').caCert }));
  return probe.get(collectionPath(internalServiceExports, HUB_NAMESPACE)).then(
    () => 200,
    (error: { statusCode?: number }) => error.statusCode ?? 0,
  );
}

describe('the member agent process (bundle under node, real hub and member kube-apiservers, Azure emulator)', () => {
  it('refuses invalid flags and environment with every problem on its own line, exit code 2 and no stack trace', async () => {
    const args = ['--enable-private-link-origin-discovery', '--arm-rate-limit-share', '7', '--log-level', 'loud'];
    const environment = { MEMBER_CLUSTER_NAME: 'Member_1', HUB_SERVER_URL: 'http://hub', CONFIG_PATH: path.join(dir, 'no-token') };
    const agent = startAgent(args, environment);
    expect(await agent.exited).toBe(2);
    const expected = parseMemberFlags(args, environment);
    if (expected.ok) throw new Error('these flags must be invalid');
    expect(agent.stderr.split('\n').filter((l) => l !== '')).toEqual(expected.errors);
    for (const source of [
      'MEMBER_CLUSTER_NAME',
      'HUB_SERVER_URL',
      'CONFIG_PATH',
      '--azure-subscription-id',
      '--node-resource-group',
      '--arm-rate-limit-share',
      '--log-level',
    ]) {
      expect(agent.stderr).toMatch(new RegExp(`^${source} `, 'm'));
    }
    expect(agent.stderr).not.toMatch(/^\s+at /m);
  });

  it('prints its help and exits 0; fails to start on an unreadable hub kubeconfig with one line and exit code 1', async () => {
    const help = startAgent(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout).toBe(MEMBER_USAGE);
    const missing = path.join(dir, 'no-such-kubeconfig');
    const agent = startAgent(['--member-cluster-name', MEMBER, '--hub-kubeconfig', missing, ...LOCAL_SERVING]);
    expect(await agent.exited).toBe(1);
    expect(agent.stderr).toBe(`member-discovery: ENOENT: no such file or directory, open '${missing}'\n`);
  });

  it('with the scoped hub kubeconfig and NODE_ENV=production (as its image sets it): no cache deep-frozen; turns ready, holds the Lease on the member, exports a Service with the hub’s Conflict answer, and stops on SIGTERM', async () => {
    const { agent, health, metrics, started } = await startedAgent(
      ['--member-cluster-name', MEMBER, '--hub-kubeconfig', hubKubeconfig, ...LOCAL_SERVING, ...SHORT_LEASE],
      { NODE_ENV: 'production' },
    );
    expect(started).toMatchObject({
      privateLinkOriginDiscovery: 'disabled',
      hub: { server: plane.cluster('hub').server, namespace: HUB_NAMESPACE },
      frozenCaches: [],
    });
    const ready = await eventually(
      () => readyz(health),
      (r) => r.status === 200,
      30_000,
    );
    expect(ready.text).toContain(`[+]${FLEET_CRDS_CHECK} ok`);
    expect(ready.text).toContain('[+]leader-lease ok');
    const lease = await eventually(
      () => member.get<Lease>(LEASE_PATH).catch((): Lease => ({})),
      (l) => (l.spec?.holderIdentity ?? '') !== '',
      30_000,
    );
    expect(lease.spec?.holderIdentity).toMatch(new RegExp(`^${hostname()}_[0-9a-f]{8}$`));
    // The hub holds no Lease of the member's.
    expect(await hub.get(LEASE_PATH).catch((error: unknown) => (isNotFound(error) ? 'none' : error))).toBe('none');

    await exportService('web');
    const ise = await eventually(
      () => readHubExport('web'),
      (e) => e !== undefined,
      30_000,
    );
    expect(ise?.spec?.serviceReference).toMatchObject({ clusterId: MEMBER, namespace: 'shop', name: 'web' });
    const se = await eventually(
      () => readServiceExport('web'),
      (s) => conditionOf(s, 'Conflict')?.reason === 'NoConflictFound',
      30_000,
    );
    expect(conditionOf(se, 'Valid')).toMatchObject({ status: 'True', reason: 'ServiceIsValid' });

    const exposition = await (await fetch(`${metrics}/metrics`)).text();
    expect(exposition).toContain('controller_reconcile_total{controller="service-export",outcome="done"}');
    // Each cluster's client reports its throttling retries under its own name, from zero.
    for (const client of ['member', 'hub']) expect(exposition).toContain(`kube_client_request_retries_total{client="${client}",reason="throttled"} 0`);
    expect((await fetch(`${health}/metrics`)).status).toBe(404);
    expect(await agent.stop()).toBe(0);
    expect((await member.get<Lease>(LEASE_PATH)).spec?.holderIdentity ?? '').toBe('');
    expect(errorLines(agent.lines)).toEqual([]);
  }, 90_000);

  it("through upstream's environment (HUB_SERVER_URL, CONFIG_PATH, HUB_CERTIFICATE_AUTHORITY): keeps working after the token file rotates and the old token is revoked (outside production, its caches deep-frozen)", async () => {
    const tokenFile = path.join(dir, 'hub-token');
    const first = await boundHubToken('token-1');
    await writeFile(tokenFile, `${first}\n`);
    const environment = {
      MEMBER_CLUSTER_NAME: MEMBER,
      HUB_SERVER_URL: plane.cluster('hub').server,
      CONFIG_PATH: tokenFile,
      HUB_CERTIFICATE_AUTHORITY: Buffer.from(plane.cluster('hub').caCert).toString('base64'),
    };
    const { agent, health, started } = await startedAgent(['--leader-elect=false', ...LOCAL_SERVING], environment);
    expect(started.frozenCaches).toEqual([
      'serviceexports.v1beta1.networking.fleet.azure.com',
      'services.v1',
      'internalserviceexports.v1alpha1.networking.fleet.azure.com',
    ]);
    await eventually(
      () => readyz(health),
      (r) => r.status === 200,
      30_000,
    );
    await exportService('before-rotation');
    expect(
      (
        await eventually(
          () => readHubExport('before-rotation'),
          (e) => e !== undefined,
          30_000,
        )
      )?.spec?.serviceReference.clusterId,
    ).toBe(MEMBER);

    // The sidecar writes a new token; the old one is revoked (its Secret deleted) and the hub refuses it.
    await writeFile(tokenFile, `${await boundHubToken('token-2')}\n`);
    await hub.delete(`/api/v1/namespaces/${HUB_NAMESPACE}/secrets/token-1`);
    expect(
      await eventually(
        () => hubStatusWith(first),
        (status) => status === 401,
        30_000,
      ),
    ).toBe(401);
    await exportService('after-rotation');
    expect(
      (
        await eventually(
          () => readHubExport('after-rotation'),
          (e) => e !== undefined,
          30_000,
        )
      )?.spec?.serviceReference.clusterId,
    ).toBe(MEMBER);
    expect(agent.stdout).not.toContain(first);
    expect(await agent.stop()).toBe(0);
    expect(errorLines(agent.lines)).toEqual([]);
  }, 90_000);

  it('with --enable-private-link-origin-discovery: takes its token from the managed identity and publishes an internal load balancer Service’s Private Link Service', async () => {
    emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: NODE_RG });
    // AKS's cloud provider, as the emulator stands in for it: the internal load balancer and the PLS of each Service.
    const standIn = new CloudProviderStandIn({
      kubeConfig: plane.cluster(MEMBER).kubeConfig(),
      emulator,
      credential: emulatorIdentityCredential(emulator),
      settings: { subscriptionId: SUBSCRIPTION, resourceGroup: NODE_RG },
    });
    await standIn.start();
    try {
      const { agent, health, started } = await startedAgent([
        ...discoveryArgs(MEMBER, hubKubeconfig, { subscriptionId: SUBSCRIPTION, nodeResourceGroup: NODE_RG, armEndpoint: emulator.armEndpoint }),
        ...LOCAL_SERVING,
      ]);
      expect(started.privateLinkOriginDiscovery).toEqual({ subscriptionId: SUBSCRIPTION, nodeResourceGroup: NODE_RG, approveConnections: false });
      await eventually(
        () => readyz(health),
        (r) => r.status === 200,
        30_000,
      );
      await createService(
        'orders',
        { type: 'LoadBalancer' },
        { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true', 'service.beta.kubernetes.io/azure-pls-create': 'true' },
      );
      // Exported once the cloud provider has built its load balancer (a miss is believed for the inventory's minute).
      await eventually(
        () => member.get<{ status?: { loadBalancer?: { ingress?: unknown[] } } }>(objectPath(services, 'orders', 'shop')),
        (svc) => (svc.status?.loadBalancer?.ingress ?? []).length > 0,
        30_000,
      );
      await createServiceExport('orders');
      const ise = await eventually(
        () => readHubExport('orders'),
        (e) => e?.spec?.privateLinkService !== undefined,
        60_000,
      );
      expect(ise?.spec).toMatchObject({
        isInternalLoadBalancer: true,
        privateLinkService: { resourceID: expect.stringContaining(`/resourceGroups/${NODE_RG}/providers/Microsoft.Network/privateLinkServices/`) },
      });
      expect('publicAddress' in (ise?.spec ?? {})).toBe(false);
      // ARM took only tokens the emulator's managed-identity endpoint issued (armAuthentication: 'issued-tokens').
      expect(emulator.admin.requestTotal({ status: 401 })).toBe(0);
      expect(await agent.stop()).toBe(0);
      expect(errorLines(agent.lines)).toEqual([]);
    } finally {
      await standIn.stop();
    }
  }, 90_000);

  it("against a hub with upstream's InternalServiceExport CRD (no extension fields): stays not ready with the one-line message, and turns ready once ours is back", async () => {
    const crdPath = objectPath(customResourceDefinitions, INTERNAL_SERVICE_EXPORT_CRD);
    const upstream = withoutExtensionFields(await hub.get<CustomResourceDefinition>(crdPath));
    const { metadata } = upstream as unknown as { metadata: Record<string, unknown> };
    for (const field of ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields']) delete metadata[field];
    expect(checkFleetCrds(upstream).ok).toBe(false);
    await hub.patch(crdPath, upstream, 'apply', { fieldManager: 'upstream-installer', force: true });
    // The API server publishes the new schema on /openapi/v3 shortly after the CRD changes.
    const admin = new KubeClient(plane.cluster('hub').kubeConfig());
    await eventually(
      () => admin.get<string>('/openapi/v3/apis/networking.fleet.azure.com/v1alpha1').then((doc) => JSON.stringify(doc)),
      (text) => !text.includes('privateLinkRequests'),
      30_000,
    );

    const { agent, health } = await startedAgent([
      '--member-cluster-name',
      MEMBER,
      '--hub-kubeconfig',
      hubKubeconfig,
      '--leader-elect=false',
      ...LOCAL_SERVING,
    ]);
    const notReady = await eventually(
      () => readyz(health),
      (r) => r.text.includes(`[-]${FLEET_CRDS_CHECK} failed: the hub's InternalServiceExport`),
      30_000,
    );
    expect(notReady.status).toBe(503);
    const [message] = errorLines(agent.lines);
    expect(message).toMatch(
      /^the hub's InternalServiceExport \(networking\.fleet\.azure\.com\/v1alpha1\) does not serve spec\.internalLoadBalancerIP, spec\.publicAddress, .*status\.frontDoors \(upstream fleet-networking's schema\): the hub would drop what this member publishes; .*fix: install or upgrade the hub chart/,
    );
    expect(notReady.text).toContain(`[-]${FLEET_CRDS_CHECK} failed: ${message}`);
    expect(errorLines(agent.lines)).toEqual([message]);
    // Nothing is written meanwhile: an export made now waits for the schema (the hub would drop its extension fields).
    await exportService('held-back');
    await agent.line((l) => l.message === 'requeued' && l.name === 'held-back' && String(l.reason).includes('lacks the extension fields'));
    expect(await readHubExport('held-back')).toBeUndefined();
    expect(await readServiceExport('held-back').then((se) => se.status?.conditions ?? [])).toEqual([]);

    await plane.installCrds('hub', { gatewayApi: false, fleet: true });
    // Re-checked every 10 s while it fails.
    expect(
      (
        await eventually(
          () => readyz(health),
          (r) => r.status === 200,
          40_000,
        )
      ).status,
    ).toBe(200);
    await agent.line((l) => l.message === "the hub's InternalServiceExport serves the Fleet extension fields");
    expect(
      (
        await eventually(
          () => readHubExport('held-back'),
          (e) => e !== undefined,
          30_000,
        )
      )?.spec?.serviceReference.name,
    ).toBe('held-back');
    expect(await agent.stop()).toBe(0);
  }, 120_000);
});
