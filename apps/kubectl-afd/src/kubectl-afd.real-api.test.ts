import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { managedIdentityEnvironment } from '@fleet-gateway/azure-emulator';
import { SINK_HOST_SUFFIX } from '@fleet-gateway/azure-frontdoor';
import { isNotFound, KubeClient } from '@fleet-gateway/controller';
import { bundleAgent } from '@fleet-gateway/controller/test-support';
import {
  applyObject,
  armWrites,
  gatewayBody,
  gatewayPath,
  originNames,
  profileOf,
  publishExport,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  whenImported,
  whenProgrammed,
  type HubUnderTest,
  type RunningAgent,
} from '@fleet-gateway/gateway-controllers/test-support';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Explanation } from './explain-request.js';
import type { GatewayGraph } from './gateway-graph.js';
import type { GatewayPlanChange } from './plan-change.js';
import { loadKubeConfig } from './read-hub.js';
import type { StatusNode } from './status-tree.js';

// The plugin as it ships (the bundle, run as kubectl runs a plugin: an executable on PATH) against a hub whose Gateway
// the real hub agent programmed into the emulator.
let hub: HubUnderTest;
let agent: RunningAgent;
let dir: string;
let plugin: string;
let kubeconfig: string;

beforeAll(async () => {
  // AFD's deploymentStatus moves to Succeeded within a quarter of a second, so the states read are final ones.
  ({ hub, agent } = await startHubWithAgent({ emulator: { deployment: 'fast' }, agent: { resyncPeriodMs: 400 } }));
  dir = await mkdtemp(path.join(tmpdir(), 'kubectl-afd-'));
  plugin = await bundleAgent('kubectl-afd', path.join(dir, 'kubectl-afd'));
  await chmod(plugin, 0o755);
  kubeconfig = hub.plane.cluster('hub').kubeconfigPath;
}, 120_000);

afterAll(async () => {
  await hub?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function kubectlAfd(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    // The emulator's managed identity is there for DefaultAzureCredential to find; only the Azure flags make it read ARM.
    const env = { ...process.env, PATH: `${dir}:${process.env['PATH']}`, KUBECONFIG: '', ...managedIdentityEnvironment(hub.emulator) };
    const { stdout, stderr } = await promisify(execFile)(plugin, args, { env });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

const walk = (node: StatusNode): StatusNode[] => [node, ...node.children.flatMap(walk)];

/** The weights of the enabled origins AFD holds for the profile (a withdrawn rule's sink aside), sorted. */
async function afdOriginWeights(profile: string): Promise<number[]> {
  const weights: number[] = [];
  for await (const group of hub.clients.cdn.afdOriginGroups.listByProfile(SCOPE.resourceGroup, profile)) {
    for await (const origin of hub.clients.cdn.afdOrigins.listByOriginGroup(SCOPE.resourceGroup, profile, group.name ?? '')) {
      if (origin.enabledState !== 'Disabled' && !origin.hostName?.endsWith(SINK_HOST_SUFFIX)) weights.push(origin.weight ?? 0);
    }
  }
  return weights.sort((a, b) => a - b);
}

/** The AFD routes of the profile's endpoints. */
async function afdRoutes(profile: string) {
  const routes: { name?: string; patternsToMatch?: string[]; originGroup?: { id?: string } }[] = [];
  for await (const endpoint of hub.clients.cdn.afdEndpoints.listByProfile(SCOPE.resourceGroup, profile)) {
    for await (const route of hub.clients.cdn.routes.listByEndpoint(SCOPE.resourceGroup, profile, endpoint.name ?? '')) routes.push(route);
  }
  return routes;
}

/** A kubeconfig for a ServiceAccount that may only get and list what the plugin reads. */
async function readOnlyKubeconfig(): Promise<string> {
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  await hub.client.create('/api/v1/namespaces/shop/serviceaccounts', { metadata: { name: 'afd-reader' } });
  await hub.client.create(`${rbac}/clusterroles`, {
    metadata: { name: 'afd-reader' },
    rules: [
      {
        apiGroups: ['gateway.networking.k8s.io'],
        resources: ['gatewayclasses', 'gateways', 'httproutes', 'referencegrants', 'listenersets'],
        verbs: ['get', 'list'],
      },
      { apiGroups: ['networking.fleet.azure.com'], resources: ['serviceimports', 'internalserviceexports'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] },
    ],
  });
  await hub.client.create(`${rbac}/clusterrolebindings`, {
    metadata: { name: 'afd-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'afd-reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'afd-reader', namespace: 'shop' }],
  });
  const token = await hub.client.create<{ status: { token: string } }>('/api/v1/namespaces/shop/serviceaccounts/afd-reader/token', {
    spec: { expirationSeconds: 3600 },
  });
  const admin = loadKubeConfig({ kubeconfig });
  const reader = new KubeConfig();
  reader.loadFromOptions({
    clusters: admin.clusters,
    users: [{ name: 'afd-reader', token: token.status.token }],
    contexts: [{ name: 'afd-reader', cluster: admin.getCurrentCluster()!.name, user: 'afd-reader' }],
    currentContext: 'afd-reader',
  });
  const file = path.join(dir, 'reader.kubeconfig');
  await writeFile(file, reader.exportConfig());
  return file;
}

describe('kubectl afd against a hub programmed by the hub agent', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'web', publicAddress: '10.1.0.1', weight: 1 });
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.2.0.1', weight: 3 });
    await whenImported(hub, 'web', ['member-1', 'member-2']);
    await applyObject(hub.client, gatewayPath('edge'), gatewayBody('edge'));
    await applyObject(hub.client, routePath('web'), routeBody('web', 'edge', [{ path: '/', backends: [{ name: 'web' }] }]));
    await applyObject(hub.client, routePath('ghost'), routeBody('ghost', 'edge', [{ path: '/ghost', backends: [{ name: 'nobody' }] }]));
    await whenProgrammed(hub, 'edge', ['web']);
  }, 120_000);

  it('status -o json: the tree of the Gateway with the states the hub wrote and the weights AFD holds', async () => {
    const { stdout, code } = await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, '-o', 'json');
    expect(code).toBe(0);
    const tree = JSON.parse(stdout) as StatusNode;
    const gateway = await readGateway(hub.client, 'edge');
    expect(tree).toMatchObject({ kind: 'Gateway', name: 'shop/edge', state: 'ok' });
    expect(tree.summary).toContain(`address ${gateway.status?.addresses?.[0]?.value}`);
    expect(tree.conditions).toEqual(gateway.status?.conditions);
    const nodes = walk(tree);
    expect(nodes.find((n) => n.kind === 'Listener')).toMatchObject({ name: 'http-0', state: 'ok' });
    expect(nodes.find((n) => n.kind === 'HTTPRoute' && n.name === 'shop/web')).toMatchObject({ state: 'ok' });
    const ghost = nodes.find((n) => n.kind === 'HTTPRoute' && n.name === 'shop/ghost')!;
    expect(ghost.state).toBe('refused');
    expect(ghost.reasons.join()).toContain('ResolvedRefs=False BackendNotFound');
    const origins = nodes.filter((n) => n.kind === 'Origin' && n.state === 'ok');
    expect(origins.map((o) => o.name).sort()).toEqual(['member-1', 'member-2']);
    const weightOf = (o: StatusNode) => Number(/^AFD weight (\d+)/.exec(o.summary)?.[1]);
    expect(origins.map(weightOf).sort((a, b) => a - b)).toEqual(await afdOriginWeights(await profileOf(hub, 'edge')));
    expect(origins.find((o) => o.name === 'member-2')!.summary).toMatch(/\(75%\), public 10\.2\.0\.1$/);
  });

  it('status for people: one aligned line per object', async () => {
    const { stdout, code } = await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Gateway shop\/edge +ok +class azure-fleet-afd/);
    expect(lines.some((l) => /└─ Origin member-2 +ok +AFD weight \d+ \(75%\)/.test(l))).toBe(true);
    expect(stdout).toContain('ResolvedRefs=False BackendNotFound');
  });

  it('explain -o json: the route and rule the request meets, and the AFD route, origin group and weights AFD holds', async () => {
    const host = (await readGateway(hub.client, 'edge')).status?.addresses?.[0]?.value ?? '';
    const { stdout, code } = await kubectlAfd('explain', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, '--host', host, '--path', '/cart', '-o', 'json');
    expect(code).toBe(0);
    const explanation = JSON.parse(stdout) as Explanation;
    expect(explanation).toMatchObject({ listener: { name: 'http-0' }, pathKey: 'Subtree /', match: { route: 'shop/web', rule: 0, match: 0 } });
    const profile = await profileOf(hub, 'edge');
    const routes = await afdRoutes(profile);
    const programmed = routes.find((r) => r.name === explanation.afd?.route);
    expect(programmed).toBeDefined();
    expect(programmed?.patternsToMatch).toContain(explanation.afd?.pattern);
    expect(programmed?.originGroup?.id?.endsWith(`/originGroups/${explanation.afd?.originGroup}`)).toBe(true);
    const weights: (number | undefined)[] = [];
    for await (const origin of hub.clients.cdn.afdOrigins.listByOriginGroup(SCOPE.resourceGroup, profile, explanation.afd!.originGroup!))
      weights.push(origin.weight);
    expect(explanation.origins.map((o) => o.weight).sort()).toEqual(weights.sort());
    expect(explanation.origins.map((o) => o.percent).sort()).toEqual([25, 75]);
  });

  it('graph -o svg: Graphviz draws one box per object and AFD resource of the graph', async () => {
    const json = await kubectlAfd('graph', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, '-o', 'json');
    expect(json.code).toBe(0);
    const graph = JSON.parse(json.stdout) as GatewayGraph;
    expect(
      graph.nodes
        .filter((n) => n.kind === 'HTTPRoute')
        .map((n) => n.name)
        .sort(),
    ).toEqual(['shop/ghost', 'shop/web']);
    expect(graph.nodes.filter((n) => n.kind === 'route')).toHaveLength((await afdRoutes(await profileOf(hub, 'edge'))).length);
    const svg = await kubectlAfd('graph', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, '-o', 'svg');
    expect(svg.code).toBe(0);
    expect(svg.stdout.match(/<g id="node\d+" class="node">/g)).toHaveLength(graph.nodes.length);
    expect(svg.stdout.match(/<g id="edge\d+" class="edge">/g)).toHaveLength(graph.edges.length);
  });

  it('plan -f: verdicts and Azure writes of a change, read with an identity that may only get and list, and nothing written', async () => {
    const reader = await readOnlyKubeconfig();
    const before = await readRoute(hub.client, 'web');
    const writesBefore = armWrites(hub);
    const change = [
      routeBody('web', 'edge', [{ path: '/shop', backends: [{ name: 'web' }] }]),
      routeBody('broken', 'edge', [{ path: '/broken', backends: [{ name: 'missing' }] }]),
    ];
    const file = path.join(dir, 'change.yaml');
    await writeFile(file, change.map((object) => stringify(object)).join('---\n'));
    const { stdout, stderr, code } = await kubectlAfd('plan', '-f', file, '-n', 'shop', '--kubeconfig', reader, '-o', 'json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [planned, ...others] = JSON.parse(stdout) as GatewayPlanChange[];
    expect(others).toEqual([]);
    expect(planned!.gateway).toBe('shop/edge');
    const broken = planned!.verdicts.find((v) => v.object === 'HTTPRoute shop/broken');
    expect(broken?.state).toBe('refused');
    expect(broken?.reasons.join()).toContain('ServiceImport shop/missing not found');
    const routeWrites = planned!.writes.filter((w) => w.resource.startsWith('route '));
    // The web route's AFD route takes its new patterns; the broken route's withdrawn rule gets one of its own.
    expect(routeWrites.map((w) => `${w.action} ${w.resource.replace(/-[0-9a-f]{12}$/, '')}`).sort()).toEqual([
      'create route rt-broken-0',
      'update route rt-web-0',
    ]);
    // Nothing changed: the route as it was, no route `broken`, no ARM write.
    expect((await readRoute(hub.client, 'web')).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(await hub.client.get(routePath('broken')).catch((error: unknown) => isNotFound(error))).toBe(true);
    expect(armWrites(hub)).toBe(writesBefore);
    // The same identity cannot write: had the plugin tried, it would have failed.
    await expect(applyObject(new KubeClient(loadKubeConfig({ kubeconfig: reader })), routePath('broken'), change[1]!)).rejects.toThrow(/forbidden/i);
    // The other commands run with it too.
    for (const command of [
      ['status', 'edge'],
      ['graph', 'edge', '-o', 'mermaid'],
    ])
      expect((await kubectlAfd(...command, '-n', 'shop', '--kubeconfig', reader)).code).toBe(0);
  });

  it('says what is wrong with bad input in one line, never a stack trace', async () => {
    const missing = await kubectlAfd('status', 'nope', '-n', 'shop', '--kubeconfig', kubeconfig);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('kubectl-afd: Gateway shop/nope not found; Gateways in namespace shop: edge\n');
    const badOutput = await kubectlAfd('status', 'edge', '-o', 'xml', '--kubeconfig', kubeconfig);
    expect(badOutput.code).toBe(2);
    expect(badOutput.stderr).toContain('--output is "xml"; expected one of text, json, yaml');
    const noFile = await kubectlAfd('plan', '-f', path.join(dir, 'absent.yaml'), '--kubeconfig', kubeconfig);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/^kubectl-afd: -f is ".*absent\.yaml", which cannot be read \(ENOENT/);
    const badChange = path.join(dir, 'bad-change.yaml');
    await writeFile(badChange, 'kind: Pod\nmetadata: {name: p}\n');
    expect((await kubectlAfd('plan', '-f', badChange, '--kubeconfig', kubeconfig)).stderr).toBe(
      'kubectl-afd: the change file cannot be read: document 1: kind is "Pod"; expected one of GatewayClass, Gateway, HTTPRoute, ReferenceGrant, ServiceImport, InternalServiceExport, Namespace\n',
    );
    const badContext = await kubectlAfd('status', 'edge', '--context', 'elsewhere', '--kubeconfig', kubeconfig);
    expect(badContext.code).toBe(1);
    expect(badContext.stderr).toMatch(/^kubectl-afd: --context is "elsewhere"; expected one of the kubeconfig's contexts: /);
  });
});

/** The read actions of the hub's shipped Front Door role: all an operator's identity needs for the plugin. */
const FRONT_DOOR_READS = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../deploy/azure-roles/hub-gateway-front-door.json'), 'utf8')) as { Actions: string[] }
).Actions.filter((action) => action.endsWith('/read'));

describe('kubectl afd with Azure read through ARM (the emulator), as an identity that may only read', { timeout: 120_000 }, () => {
  let azureFlags: string[];
  let principal: string;
  const afdNodes = (tree: StatusNode) => walk(tree).filter((n) => n.kind === 'AFD');

  beforeAll(async () => {
    const caFile = path.join(dir, 'emulator-ca.pem');
    await writeFile(caFile, hub.emulator.caCertificate);
    azureFlags = [
      ...['--azure-subscription-id', SCOPE.subscriptionId, '--afd-resource-group', SCOPE.resourceGroup, '--hub-name', 'test-hub'],
      ...['--arm-endpoint', hub.emulator.armEndpoint, '--arm-ca-file', caFile],
    ];
    // The plugin's identity (the emulator's managed identity) may only read the AFD resource group: a write would be
    // refused with 403. The hub agent's identity is another one, not checked.
    principal = hub.emulator.managedIdentity.principalId;
    hub.emulator.admin.assignRole({
      principalId: principal,
      scope: `/subscriptions/${SCOPE.subscriptionId}/resourceGroups/${SCOPE.resourceGroup}`,
      role: { name: 'afd-reader', actions: FRONT_DOOR_READS, notActions: [] },
    });
  });

  it('status -o json: each AFD resource of the Gateway with the provisioningState and deploymentStatus ARM reports', async () => {
    const profile = await profileOf(hub, 'edge');
    // Once Front Door has deployed what the agent wrote, every resource reads Succeeded twice over.
    const read = async () =>
      JSON.parse((await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags, '-o', 'json')).stdout) as StatusNode;
    await expect.poll(async () => afdNodes(await read()).every((n) => n.state === 'ok'), { timeout: 30_000, interval: 500 }).toBe(true);
    const { stdout, stderr, code } = await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags, '-o', 'json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const tree = JSON.parse(stdout) as StatusNode;
    const afd = tree.children.at(-1)!;
    expect(afd).toMatchObject({ kind: 'AFD', name: `profile ${profile}`, state: 'ok', azure: { presence: 'present', provisioningState: 'Succeeded' } });
    const nodes = afdNodes(tree);
    const routes = await afdRoutes(profile);
    expect(
      nodes
        .filter((n) => n.name.startsWith('route '))
        .map((n) => n.name.slice('route '.length))
        .sort(),
    ).toEqual(routes.map((r) => r.name).sort());
    for (const node of nodes.filter((n) => n.name !== `profile ${profile}`))
      expect(node.azure).toEqual({ presence: 'present', provisioningState: 'Succeeded', deploymentStatus: 'Succeeded' });
    const origins = nodes.filter((n) => n.name.startsWith('origin ') && !n.name.startsWith('origin group'));
    expect(origins.length).toBeGreaterThanOrEqual(2);
    // The hub's status tree is still there, unchanged.
    expect(walk(tree).find((n) => n.kind === 'HTTPRoute' && n.name === 'shop/web')).toMatchObject({ state: 'ok' });
  });

  it('when ARM refuses (403 on a resource group the identity may not read): one line saying so, and the hub’s status alone', async () => {
    hub.emulator.admin.createResourceGroup({ subscriptionId: SCOPE.subscriptionId, name: 'elsewhere' });
    const flags = azureFlags.map((flag) => (flag === SCOPE.resourceGroup ? 'elsewhere' : flag));
    const { stdout, stderr, code } = await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...flags);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^kubectl-afd: Azure not read for Gateway shop\/edge \(reading profile fgw-\S+ in resource group elsewhere failed: AuthorizationFailed \(HTTP 403\): .*\); answering from the hub alone\n$/,
    );
    expect(stdout).toMatch(/^Gateway shop\/edge +ok/);
    expect(stdout).not.toContain('AFD profile');
  });

  it('a resource deleted through ARM shows as missing in status and graph, and plan -f counts its create; the plugin only ever read', async () => {
    // The agent stops so that nothing puts the origin back; everything ARM is asked from here on is the plugin's.
    await agent.stop();
    const profile = await profileOf(hub, 'edge');
    // One of web's two origins: AFD refuses to delete the last enabled origin of a group a route uses.
    const names = await originNames(hub, profile);
    const origin = names.find((n) => names.filter((m) => m.split('/')[0] === n.split('/')[0]).length > 1)!;
    const [group, name] = origin.split('/') as [string, string];
    await hub.clients.cdn.afdOrigins.beginDeleteAndWait(SCOPE.resourceGroup, profile, group, name, { updateIntervalInMs: 5 });
    const writesBefore = armWrites(hub);

    const status = await kubectlAfd('status', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`AFD profile ${profile} +ok +provisioningState Succeeded\\n`));
    expect(status.stdout).toMatch(new RegExp(`AFD origin ${origin} +missing +planned, not in Azure, the hub would create it\\n`));
    expect(status.stdout).toMatch(/AFD route rt-web-0-\S+ +ok +provisioningState Succeeded, deploymentStatus Succeeded\n/);

    const json = await kubectlAfd('graph', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags, '-o', 'json');
    const graph = JSON.parse(json.stdout) as GatewayGraph;
    expect(graph.nodes.find((n) => n.id === `afd:origin ${origin}`)).toMatchObject({ state: 'missing' });
    expect(graph.nodes.find((n) => n.id === `afd:origin group ${group}`)).toMatchObject({
      state: 'ok',
      provisioningState: 'Succeeded',
      deploymentStatus: 'Succeeded',
    });
    const svg = await kubectlAfd('graph', 'edge', '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags, '-o', 'svg');
    expect(svg.code).toBe(0);
    expect(svg.stdout.match(/<g id="node\d+" class="node">/g)).toHaveLength(graph.nodes.length);
    expect(svg.stdout).toContain('#ff8a80'); // the missing origin's box

    // The change moves the web route; the hub would also put the deleted origin back, which only Azure can tell.
    const file = path.join(dir, 'azure-change.yaml');
    await writeFile(file, stringify(routeBody('web', 'edge', [{ path: '/azure', backends: [{ name: 'web' }] }])));
    const withAzure = await kubectlAfd('plan', '-f', file, '-n', 'shop', '--kubeconfig', kubeconfig, ...azureFlags, '-o', 'json');
    expect(withAzure.stderr).toBe('');
    const [planned] = JSON.parse(withAzure.stdout) as GatewayPlanChange[];
    expect(planned!.writesFrom).toBe('azure');
    expect(planned!.writes).toContainEqual({ action: 'create', resource: `origin ${origin}` });
    expect(planned!.writes.map((w) => `${w.action} ${w.resource.replace(/-[0-9a-f]{12}$/, '')}`)).toContain('update route rt-web-0');
    const withoutAzure = JSON.parse(
      (await kubectlAfd('plan', '-f', file, '-n', 'shop', '--kubeconfig', kubeconfig, '-o', 'json')).stdout,
    ) as GatewayPlanChange[];
    expect(withoutAzure[0]).toMatchObject({ writesFrom: 'hub' });
    expect(withoutAzure[0]!.writes).not.toContainEqual({ action: 'create', resource: `origin ${origin}` });

    // Nothing was written, and the plugin's identity asked ARM for read actions only.
    expect(armWrites(hub)).toBe(writesBefore);
    const asked = hub.emulator.admin.exercisedActions(principal);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((action) => !action.endsWith('/read'))).toEqual([]);
  });
});
