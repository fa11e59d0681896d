import { setTimeout } from 'node:timers/promises';
import { CloudProviderStandIn, FAST_POLLING, planLoadBalancer } from '@fleet-gateway/azure-emulator';
import type { PrivateLinkRequest } from '@fleet-gateway/api-types';
import { TEST_SCOPE } from '@fleet-gateway/azure-frontdoor/test-support';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import { collectionPath, KubeClient, objectPath, type Condition } from '@fleet-gateway/controller';
import { captureLogLines, createNamespace, eventually } from '@fleet-gateway/controller/test-support';
import {
  PRIVATE_LINK_EVENT_REASONS,
  PRIVATE_LINK_REASONS,
  PrivateLinkDiscovery,
  PrivateLinkOriginDiscovery,
  SERVICE_ANNOTATIONS,
} from '@fleet-gateway/member-azure';
import { requestFromFrontDoor, startMemberBed, type MemberBed } from '@fleet-gateway/member-azure/test-support';
import {
  AZURE_DATA_CURRENT_CONDITION,
  CONNECTIONS_APPROVED_CONDITION,
  internalServiceExports,
  ORIGIN_PUBLISHED_CONDITION,
  serviceExports,
  services,
  type CachedInternalServiceExport,
  type CachedService,
  type CachedServiceExport,
} from '@fleet-gateway/member-export';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMemberFlags } from './flags.js';
import { startMemberAgent, type MemberAgent } from './member-agent.js';
import { discoveryArgs, LOCAL_SERVING } from './test-support/agent-args.js';

// The member agent with Private Link discovery, against a real hub and member kube-apiserver and the Azure emulator
// (the cloud-provider stand-in builds each Service's load balancer and Private Link Service as AKS does).
const ns = 'shop';
const hubNamespace = 'fleet-member-member-1';
const CUSTOMER_ENDPOINT = (name: string) =>
  `/subscriptions/${'44444444-0000-0000-0000-000000000004'}/resourceGroups/apps/providers/Microsoft.Network/privateEndpoints/${name}`;

let plane: ControlPlane;
let bed: MemberBed;
let standIn: CloudProviderStandIn;
let hub: KubeClient;
let member: KubeClient;
let hubKubeconfig: string;
let agent: MemberAgent | undefined;
const logs = captureLogLines();

beforeAll(async () => {
  [plane, bed] = await Promise.all([
    startControlPlane({ clusters: ['hub', 'member-1'], controllerManager: false }),
    startMemberBed({ emulator: { privateLink: { connectionDelayMs: 1_500 } } }),
  ]);
  for (const cluster of ['hub', 'member-1']) await plane.installCrds(cluster, { gatewayApi: false, fleet: true });
  hub = new KubeClient(plane.cluster('hub').kubeConfig());
  member = new KubeClient(plane.cluster('member-1').kubeConfig());
  await createNamespace(member, ns);
  hubKubeconfig = await plane.memberHubKubeconfig('member-1');
  standIn = new CloudProviderStandIn({ kubeConfig: plane.cluster('member-1').kubeConfig(), emulator: bed.emulator, settings: bed.settings });
  await standIn.start();
}, 120_000);

afterAll(async () => {
  await agent?.stop('test over');
  await standIn?.stop();
  await Promise.all([plane?.stop(), bed?.emulator.stop()]);
});

/**
 * (Re)starts the member agent as main.ts does, from its flags (Private Link discovery on, approving or not), with the
 * discovery on the emulator's network with short TTL and backoff and informers resyncing every 500 ms.
 */
async function startAgent(approveConnections: boolean, approvalHubs?: readonly string[]): Promise<void> {
  await agent?.stop('restart');
  const flags = parseMemberFlags([
    ...discoveryArgs('member-1', hubKubeconfig, { subscriptionId: bed.settings.subscriptionId, nodeResourceGroup: bed.settings.resourceGroup }),
    `--approve-private-link-connections=${approveConnections}`,
    ...(approvalHubs ? [`--private-link-approval-hubs=${approvalHubs.join(',')}`] : []),
    ...LOCAL_SERVING,
    '--log-level=debug',
  ]);
  if (!flags.ok || flags.help) throw new Error(`the member agent's flags: ${flags.ok ? 'help' : flags.errors.join('; ')}`);
  const hubKubeConfig = new KubeConfig();
  hubKubeConfig.loadFromFile(hubKubeconfig);
  agent = await startMemberAgent(flags.value, {
    memberKubeConfig: plane.cluster('member-1').kubeConfig(),
    hubKubeConfig,
    freezeCachedObjects: true,
    logStream: logs.stream,
    // Never called: it runs without --leader-elect.
    onLeadershipLost: () => undefined,
    privateLinkDiscovery: new PrivateLinkOriginDiscovery({
      discovery: new PrivateLinkDiscovery(bed.network, { ttlMs: 1_000, backoff: { initialMs: 300, maxMs: 1_000 } }),
      nodeResourceGroup: bed.settings.resourceGroup,
      approveConnections: flags.value.approvePrivateLinkConnections,
      ...(flags.value.privateLinkApprovalHubs ? { approvalHubs: flags.value.privateLinkApprovalHubs } : {}),
    }),
    resyncPeriodMs: 500,
  });
}

async function exportInternalService(name: string): Promise<CachedService> {
  const service = await member.create<CachedService>(collectionPath(services, ns), {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, annotations: { [SERVICE_ANNOTATIONS.internal]: 'true', [SERVICE_ANNOTATIONS.plsCreate]: 'true' } },
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
  });
  await member.create(collectionPath(serviceExports, ns), { apiVersion: 'networking.fleet.azure.com/v1beta1', kind: 'ServiceExport', metadata: { name } });
  return service;
}

const readExport = (name: string) =>
  hub.get<CachedInternalServiceExport>(objectPath(internalServiceExports, `${ns}-${name}`, hubNamespace)).catch(() => undefined);
const readServiceExport = (name: string) => member.get<CachedServiceExport>(objectPath(serviceExports, name, ns));
const conditionOf = (se: CachedServiceExport | undefined, type: string): Condition | undefined => se?.status?.conditions?.find((c) => c.type === type);
const plsName = (ise: CachedInternalServiceExport | undefined) => ise?.spec?.privateLinkService?.resourceID.split('/').at(-1) ?? '';
const connectionsOf = async (name: string) => {
  const list = [];
  for await (const c of bed.network.privateLinkServices.listPrivateEndpointConnections(bed.settings.resourceGroup, name)) list.push(c);
  return list;
};

/** What the hub's Gateway controller writes when a Gateway starts using the export: its request message (and its binding). */
async function issueRequest(name: string, gateway: string, requestMessage: string, binding: Partial<PrivateLinkRequest> = {}): Promise<void> {
  await hub.patch(
    `${objectPath(internalServiceExports, `${ns}-${name}`, hubNamespace)}/status`,
    { status: { privateLinkRequests: [{ gateway, requestMessage, ...binding }] } },
    'merge',
  );
}

const OUTSIDER_GROUP = 'rg-outsider';
const stateOf = async (pls: string, name: string | undefined) => (await connectionsOf(pls)).find((c) => c.name === name)?.privateLinkServiceConnectionState;
const warningsAbout = async (connection: string | undefined) =>
  (await member.get<{ items: { type?: string; reason?: string; note?: string }[] }>(`/apis/events.k8s.io/v1/namespaces/${ns}/events`)).items.filter(
    (e) => e.reason === PRIVATE_LINK_EVENT_REASONS.possibleImpersonation && e.note?.includes(`connection ${connection} `),
  );

/** An exported internal Service whose Private Link Service is published; its id and name. */
async function exportedPrivateLink(name: string): Promise<{ id: string; name: string }> {
  await exportInternalService(name);
  const ise = await eventually(
    () => readExport(name),
    (e) => e?.spec?.privateLinkService !== undefined,
    30_000,
  );
  return { id: ise!.spec!.privateLinkService!.resourceID, name: plsName(ise) };
}

describe('the member agent with Private Link origin discovery', () => {
  it('publishes an internal load balancer Service’s Private Link Service: id, location, alias and address, read fresh', async () => {
    await startAgent(false);
    await exportInternalService('web');
    const ise = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.privateLinkService !== undefined,
      30_000,
    );
    const pls = await bed.network.privateLinkServices.get(bed.settings.resourceGroup, plsName(ise));
    expect(ise?.spec).toMatchObject({
      type: 'LoadBalancer',
      isInternalLoadBalancer: true,
      privateLinkService: { resourceID: pls.id, location: pls.location, alias: pls.alias },
      privateEndpointConnections: [],
    });
    const service = await member.get<CachedService>(objectPath(services, 'web', ns));
    expect(ise?.spec?.internalLoadBalancerIP).toBe(service.status?.loadBalancer?.ingress?.[0]?.ip);
    expect(ise?.spec?.azureDataStale).toBeUndefined();
    expect(ise?.spec?.azureObservedTime).toMatch(/^\d{4}-/);
    expect('publicAddress' in (ise?.spec ?? {})).toBe(false);
    const se = await eventually(
      () => readServiceExport('web'),
      (s) => conditionOf(s, AZURE_DATA_CURRENT_CONDITION) !== undefined,
    );
    expect(conditionOf(se, ORIGIN_PUBLISHED_CONDITION)).toMatchObject({ status: 'True', reason: PRIVATE_LINK_REASONS.published });
    expect(conditionOf(se, AZURE_DATA_CURRENT_CONDITION)?.status).toBe('True');
  });

  it('a Private Link Service that appears late: the reason on the ServiceExport, requeued, then published without a Service event', async () => {
    const service = await eventually(
      () => member.get<CachedService>(objectPath(services, 'web', ns)),
      (s) => s.status?.loadBalancer?.ingress !== undefined,
    );
    const ise = await readExport('web');
    const name = plsName(ise);
    // The Private Link Service goes (as when cloud-provider-azure re-creates it): the origin is unknown, never public.
    await bed.network.privateLinkServices.delete(bed.settings.resourceGroup, name, FAST_POLLING);
    const missing = await eventually(
      () => readServiceExport('web'),
      (s) => conditionOf(s, ORIGIN_PUBLISHED_CONDITION)?.reason === 'PrivateLinkServiceNotFound',
      30_000,
    );
    expect(conditionOf(missing, ORIGIN_PUBLISHED_CONDITION)?.status).toBe('Unknown');
    const withdrawn = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.privateLinkService === undefined,
    );
    expect(withdrawn?.spec?.privateLinkService).toBeUndefined();
    expect(withdrawn?.spec?.publicAddress).toBeUndefined();
    // It comes back; nothing about the Service changes, so only the requeue can find it.
    await bed.cloudProvider.ensure(
      planLoadBalancer(
        {
          metadata: { namespace: ns, name: 'web', uid: service.metadata.uid ?? '', annotations: service.metadata.annotations ?? {} },
          spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] },
        },
        bed.settings,
      ),
    );
    const back = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.privateLinkService !== undefined,
      30_000,
    );
    expect(plsName(back)).toBe(name);
    expect((await member.get<CachedService>(objectPath(services, 'web', ns))).metadata.resourceVersion).toBe(service.metadata.resourceVersion);
  });

  it('an Azure read error keeps the published values, marked stale, across an agent restart; fresh again once Azure answers', async () => {
    const before = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.privateLinkService !== undefined && e.spec.azureDataStale === undefined,
    );
    bed.emulator.admin.injectFault({
      kind: 'status',
      status: 503,
      method: 'GET',
      pathPattern: '/privateLinkServices',
      code: 'ServiceUnavailable',
      message: 'try later',
      count: 100_000,
    });
    try {
      const stale = await eventually(
        () => readExport('web'),
        (e) => e?.spec?.azureDataStale === true,
        30_000,
      );
      expect(stale?.spec?.privateLinkService).toEqual(before?.spec?.privateLinkService);
      expect(stale?.spec?.azureObservedTime).toBe(before?.spec?.azureObservedTime);
      const se = await eventually(
        () => readServiceExport('web'),
        (s) => conditionOf(s, AZURE_DATA_CURRENT_CONDITION)?.status === 'False',
      );
      expect(conditionOf(se, AZURE_DATA_CURRENT_CONDITION)?.message).toContain('ServiceUnavailable');
      // A restarted agent has never read Azure: it still keeps what the hub export carries.
      await startAgent(false);
      await eventually(
        () => logs.lines.filter((l) => l.message === 'reconciled' && l.name === 'web').length,
        (n) => n > 0,
      );
      await setTimeout(2_000);
      const kept = await readExport('web');
      expect(kept?.spec?.privateLinkService).toEqual(before?.spec?.privateLinkService);
      expect(kept?.spec?.azureDataStale).toBe(true);
      expect(logs.lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      bed.emulator.admin.clearFaults();
    }
    const fresh = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.azureDataStale === undefined && e?.spec?.privateLinkService !== undefined,
      30_000,
    );
    expect(fresh?.spec?.privateLinkService).toEqual(before?.spec?.privateLinkService);
    expect(
      conditionOf(
        await eventually(
          () => readServiceExport('web'),
          (s) => conditionOf(s, AZURE_DATA_CURRENT_CONDITION)?.status === 'True',
        ),
        AZURE_DATA_CURRENT_CONDITION,
      )?.status,
    ).toBe('True');
  });

  it('manual mode: the exact approval command, nothing approved; once an operator approves, it reads Approved', async () => {
    const ise = await readExport('web');
    const pls = ise!.spec!.privateLinkService!.resourceID;
    await requestFromFrontDoor(bed, 'fd-manual', pls, 'fleet-manual-1');
    await issueRequest('web', 'shop/gw', 'fleet-manual-1');
    const se = await eventually(
      () => readServiceExport('web'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.reason === PRIVATE_LINK_REASONS.manualApproval,
      30_000,
    );
    const [frontDoor] = (await connectionsOf(plsName(ise))).filter((c) => c.privateLinkServiceConnectionState?.description === 'fleet-manual-1');
    expect(frontDoor?.privateLinkServiceConnectionState?.status).toBe('Pending');
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)?.message).toBe(
      `Gateway shop/gw: connection ${frontDoor?.name} is Pending; approve it with: az network private-endpoint-connection approve --id '${pls}/privateEndpointConnections/${frontDoor?.name}' --description 'fleet-manual-1'`,
    );
    const published = await eventually(
      () => readExport('web'),
      (e) => (e?.spec?.privateEndpointConnections ?? []).length > 0,
    );
    expect(published?.spec?.privateEndpointConnections).toEqual([
      { name: frontDoor?.name, status: 'Pending', description: 'fleet-manual-1', privateEndpointID: frontDoor?.privateEndpoint?.id },
    ]);
    // The operator runs the command: the agent's re-reads (with backoff while the hub's connection is Pending) see it.
    await bed.network.privateLinkServices.updatePrivateEndpointConnection(bed.settings.resourceGroup, plsName(ise), frontDoor!.name!, {
      name: frontDoor!.name!,
      privateLinkServiceConnectionState: { status: 'Approved', description: 'fleet-manual-1' },
    });
    const approved = await eventually(
      () => readServiceExport('web'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.status === 'True',
      30_000,
    );
    expect(conditionOf(approved, CONNECTIONS_APPROVED_CONDITION)?.message).toBe(`Gateway shop/gw: connection ${frontDoor?.name} Approved`);
    // The ServiceExport's status is written before the hub export in each reconcile.
    const onHub = await eventually(
      () => readExport('web'),
      (e) => e?.spec?.privateEndpointConnections?.[0]?.status === 'Approved',
    );
    expect(onHub?.spec?.privateEndpointConnections?.[0]?.status).toBe('Approved');
  });

  it('auto-approval approves exactly Front Door’s connection carrying the hub’s message; foreign Pending ones, even with the message, are left alone', async () => {
    await startAgent(true);
    const service = await exportInternalService('cart');
    const ise = await eventually(
      () => readExport('cart'),
      (e) => e?.spec?.privateLinkService !== undefined,
      30_000,
    );
    const pls = ise!.spec!.privateLinkService!.resourceID;
    const foreign = bed.emulator.admin.connectPrivateEndpoint({
      privateLinkServiceId: pls,
      privateEndpointId: CUSTOMER_ENDPOINT('reports'),
      requestMessage: 'let me in',
    });
    const copy = bed.emulator.admin.connectPrivateEndpoint({
      privateLinkServiceId: pls,
      privateEndpointId: CUSTOMER_ENDPOINT('copycat'),
      requestMessage: 'fleet-auto-1',
    });
    await issueRequest('cart', 'shop/gw', 'fleet-auto-1');
    await requestFromFrontDoor(bed, 'fd-auto', pls, 'fleet-auto-1');
    const se = await eventually(
      () => readServiceExport('cart'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.message.includes('Approved') ?? false,
      30_000,
    );
    const connections = await connectionsOf(plsName(ise));
    const state = (id: string) => connections.find((c) => c.id === id)?.privateLinkServiceConnectionState;
    const frontDoor = connections.find((c) => c.privateEndpoint?.id?.includes('/eafd-Prod-'));
    expect(frontDoor?.privateLinkServiceConnectionState).toMatchObject({ status: 'Approved', description: 'fleet-auto-1' });
    expect(state(foreign)).toMatchObject({ status: 'Pending', description: 'let me in' });
    expect(state(copy)).toMatchObject({ status: 'Pending', description: 'fleet-auto-1' });
    // The copy is reported: someone else holds the hub's message.
    const condition = conditionOf(se, CONNECTIONS_APPROVED_CONDITION);
    expect(condition).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.refused });
    expect(condition?.message).toContain(`Gateway shop/gw: connection ${frontDoor?.name} Approved`);
    expect(condition?.message).toContain(`connection ${copy.split('/').at(-1)} carries a hub request message but private endpoint is in resource group apps`);
    // Only Front Door's connection reaches the hub, Approved; the approval is an Event naming it.
    const published = await eventually(
      () => readExport('cart'),
      (e) => e?.spec?.privateEndpointConnections?.[0]?.status === 'Approved',
    );
    expect(published?.spec?.privateEndpointConnections?.map((c) => [c.name, c.status])).toEqual([[frontDoor?.name, 'Approved']]);
    const events = await eventually(
      async () =>
        (await member.get<{ items: { reason?: string; note?: string; regarding?: { uid?: string } }[] }>(`/apis/events.k8s.io/v1/namespaces/${ns}/events`))
          .items,
      (items) => items.some((e) => e.reason === PRIVATE_LINK_EVENT_REASONS.approved),
    );
    expect(events.filter((e) => e.reason === PRIVATE_LINK_EVENT_REASONS.approved).map((e) => e.note)).toEqual([
      `Approved private endpoint connection ${frontDoor?.name} on Private Link Service ${plsName(ise)}: it carries a request message the hub issued`,
    ]);
    expect(service.metadata.uid).toBe(published?.spec?.serviceReference.uid);
  });

  // An outsider can read the hub's message (from the connection, with Reader on the service) and ask the same service
  // with it from a Premium profile of its own: AFD makes that connection with the same kind of private endpoint.
  it('a copied message: a second Premium profile in another resource group asking with it is never approved, and is reported', async () => {
    const pls = await exportedPrivateLink('imp');
    await issueRequest('imp', 'shop/gw', 'fleet-imp-1', { privateLinkServiceID: pls.id });
    await requestFromFrontDoor(bed, 'fd-imp', pls.id, 'fleet-imp-1');
    const approved = await eventually(
      () => connectionsOf(pls.name),
      (list) => list.some((c) => c.privateLinkServiceConnectionState?.status === 'Approved'),
      30_000,
    );
    const hubs = approved.find((c) => c.privateLinkServiceConnectionState?.status === 'Approved');
    bed.emulator.admin.createResourceGroup({ subscriptionId: bed.settings.subscriptionId, name: OUTSIDER_GROUP });
    await requestFromFrontDoor(bed, 'fd-outsider', pls.id, 'fleet-imp-1', OUTSIDER_GROUP);
    const se = await eventually(
      () => readServiceExport('imp'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.reason === PRIVATE_LINK_REASONS.possibleImpersonation,
      30_000,
    );
    const copy = (await connectionsOf(pls.name)).find((c) => c.name !== hubs?.name);
    // By its shape the copy is Front Door's as much as the hub's own.
    expect(copy?.privateEndpoint?.id).toMatch(/\/resourceGroups\/eafd-Prod-[^/]+\/providers\/Microsoft\.Network\/privateEndpoints\//);
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)).toMatchObject({ status: 'False' });
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)?.message).toContain(
      `connection ${copy?.name} carries a hub request message but possible impersonation: its message is already Approved on connection ${hubs?.name}`,
    );
    await eventually(
      () => warningsAbout(copy?.name),
      (events) => events.length > 0,
    );
    // Reconciles go on (the lists' TTL is 1 s): the copy stays Pending.
    await setTimeout(3_000);
    expect(await stateOf(pls.name, copy?.name)).toMatchObject({ status: 'Pending', description: 'fleet-imp-1' });
    expect(await stateOf(pls.name, hubs?.name)).toMatchObject({ status: 'Approved' });
  });

  it('two Pending connections with one message: neither is approved, both are reported', async () => {
    const pls = await exportedPrivateLink('twin');
    await requestFromFrontDoor(bed, 'fd-twin', pls.id, 'fleet-twin-1');
    await requestFromFrontDoor(bed, 'fd-twin-outsider', pls.id, 'fleet-twin-1', OUTSIDER_GROUP);
    const both = await eventually(
      () => connectionsOf(pls.name),
      (list) => list.length === 2,
      30_000,
    );
    await issueRequest('twin', 'shop/gw', 'fleet-twin-1', { privateLinkServiceID: pls.id });
    const se = await eventually(
      () => readServiceExport('twin'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.reason === PRIVATE_LINK_REASONS.possibleImpersonation,
      30_000,
    );
    const names = both.map((c) => c.name ?? '').sort((a, b) => a.localeCompare(b));
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)?.message).toContain(
      `possible impersonation: connections ${names.join(', ')} carry the same message`,
    );
    for (const name of names)
      await eventually(
        () => warningsAbout(name),
        (events) => events.length > 0,
      );
    await setTimeout(3_000);
    for (const name of names) expect(await stateOf(pls.name, name)).toMatchObject({ status: 'Pending' });
  });

  it('after the hub’s connection is Rejected its message approves nothing, not even a copy; the new message is approved on the connection the origin asks again for', async () => {
    const pls = await exportedPrivateLink('rot');
    await requestFromFrontDoor(bed, 'fd-rot', pls.id, 'fleet-rot-1');
    const [first] = await eventually(
      () => connectionsOf(pls.name),
      (list) => list.length === 1,
      30_000,
    );
    await bed.network.privateLinkServices.updatePrivateEndpointConnection(bed.settings.resourceGroup, pls.name, first!.name!, {
      name: first!.name!,
      privateLinkServiceConnectionState: { status: 'Rejected' },
    });
    await issueRequest('rot', 'shop/gw', 'fleet-rot-1', { privateLinkServiceID: pls.id });
    await eventually(
      () => readServiceExport('rot'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.reason === PRIVATE_LINK_REASONS.rejected,
      30_000,
    );
    await requestFromFrontDoor(bed, 'fd-rot-outsider', pls.id, 'fleet-rot-1', OUTSIDER_GROUP);
    const withCopy = await eventually(
      () => connectionsOf(pls.name),
      (list) => list.length === 2,
      30_000,
    );
    const copy = withCopy.find((c) => c.name !== first?.name);
    const refused = await eventually(
      () => readServiceExport('rot'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.message.includes(copy?.name ?? '-') ?? false,
      30_000,
    );
    expect(conditionOf(refused, CONNECTIONS_APPROVED_CONDITION)?.message).toContain(`its message was on connection ${first?.name}, now Rejected`);
    // The hub issues a new message and writes it on its origin: AFD asks again with it (A82).
    await issueRequest('rot', 'shop/gw', 'fleet-rot-2', { privateLinkServiceID: pls.id });
    await requestFromFrontDoor(bed, 'fd-rot', pls.id, 'fleet-rot-2');
    const se = await eventually(
      () => readServiceExport('rot'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.status === 'True',
      30_000,
    );
    const fresh = (await connectionsOf(pls.name)).find((c) => c.privateLinkServiceConnectionState?.description === 'fleet-rot-2');
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)?.message).toBe(`Gateway shop/gw: connection ${fresh?.name} Approved`);
    expect(fresh?.privateLinkServiceConnectionState?.status).toBe('Approved');
    expect(await stateOf(pls.name, copy?.name)).toMatchObject({ status: 'Pending', description: 'fleet-rot-1' });
  });

  it('a re-created origin is approved without any Kubernetes change; the export drops connections that are gone, also once the Gateway is gone', async () => {
    const pls = await exportedPrivateLink('again');
    await issueRequest('again', 'shop/gw', 'fleet-again-1', { privateLinkServiceID: pls.id });
    await requestFromFrontDoor(bed, 'fd-again', pls.id, 'fleet-again-1');
    const first = await eventually(
      () => readExport('again'),
      (e) => e?.spec?.privateEndpointConnections?.[0]?.status === 'Approved',
      30_000,
    );
    const firstName = first?.spec?.privateEndpointConnections?.[0]?.name;
    // The origin is deleted out of band: AFD removes its connection, and the export stops listing it.
    await bed.harness.clients.cdn.afdOrigins.beginDeleteAndWait(TEST_SCOPE.resourceGroup, 'fd-again', 'og', 'member-1', FAST_POLLING);
    await eventually(
      () => readExport('again'),
      (e) => (e?.spec?.privateEndpointConnections ?? []).length === 0,
      30_000,
    );
    // The hub re-creates it: a new connection with the same message, approved and published.
    await requestFromFrontDoor(bed, 'fd-again', pls.id, 'fleet-again-1');
    const second = await eventually(
      () => readExport('again'),
      (e) => e?.spec?.privateEndpointConnections?.[0]?.status === 'Approved',
      30_000,
    );
    expect(second?.spec?.privateEndpointConnections?.map((c) => c.name)).toEqual([expect.not.stringMatching(firstName ?? '-')]);
    // The Gateway is deleted: the hub withdraws its request and its origin goes; the connection leaves the export.
    await hub.patch(`${objectPath(internalServiceExports, `${ns}-again`, hubNamespace)}/status`, { status: { privateLinkRequests: null } }, 'merge');
    await bed.harness.clients.cdn.afdOrigins.beginDeleteAndWait(TEST_SCOPE.resourceGroup, 'fd-again', 'og', 'member-1', FAST_POLLING);
    const gone = await eventually(
      () => readExport('again'),
      (e) => (e?.spec?.privateEndpointConnections ?? []).length === 0,
      30_000,
    );
    expect(gone?.spec?.privateEndpointConnections).toEqual([]);
  });

  it('with --private-link-approval-hubs, only the messages of the listed hubs are honoured', async () => {
    const listed = `subscription/${bed.settings.subscriptionId}/cluster/hub`;
    await startAgent(true, [listed]);
    const pls = await exportedPrivateLink('listed');
    await requestFromFrontDoor(bed, 'fd-listed', pls.id, 'fleet-listed-1');
    await issueRequest('listed', 'shop/gw', 'fleet-listed-1', {
      privateLinkServiceID: pls.id,
      hubIdentity: `subscription/${bed.settings.subscriptionId}/cluster/other`,
    });
    const se = await eventually(
      () => readServiceExport('listed'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.reason === PRIVATE_LINK_REASONS.refused,
      30_000,
    );
    expect(conditionOf(se, CONNECTIONS_APPROVED_CONDITION)?.message).toContain(
      `its message was issued by hub subscription/${bed.settings.subscriptionId}/cluster/other, which --private-link-approval-hubs does not list`,
    );
    const [connection] = await connectionsOf(pls.name);
    expect(connection?.privateLinkServiceConnectionState?.status).toBe('Pending');
    await issueRequest('listed', 'shop/gw', 'fleet-listed-1', { privateLinkServiceID: pls.id, hubIdentity: listed });
    await eventually(
      () => readServiceExport('listed'),
      (s) => conditionOf(s, CONNECTIONS_APPROVED_CONDITION)?.status === 'True',
      30_000,
    );
    expect(await stateOf(pls.name, connection?.name)).toMatchObject({ status: 'Approved', description: 'fleet-listed-1' });
  });
});
