import { registerFleetHubControllers } from '@fleet-gateway/fleet-hub';
import { NetworkManagementClient } from '@azure/arm-network';
import { CloudProviderStandIn, sdkClientOptions, start as startEmulator, stubCredential, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import {
  collectionPath,
  createLogger,
  EventRecorder,
  isNotFound,
  KubeApiError,
  KubeClient,
  Manager,
  objectPath,
  type ManagedFieldsEntry,
} from '@fleet-gateway/controller';
import { captureLogLines, createNamespace, eventually, kubeConfigAs } from '@fleet-gateway/controller/test-support';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRegion, REGION_LABEL } from './azure-region.js';
import { LAST_SEEN_TIMESTAMP_ANNOTATION, SERVICE_EXPORT_FINALIZER, WEIGHT_ANNOTATION } from './member-names.js';
import {
  internalServiceExports,
  serviceExports,
  services,
  type CachedInternalServiceExport as Export,
  type CachedService,
  type CachedServiceExport,
} from './member-resources.js';
import { MEMBER_FIELD_MANAGER, registerMemberExportControllers, type MemberExportControllers } from './register-member-export-controllers.js';

const SUBSCRIPTION = '33333333-0000-0000-0000-000000000001';
const NODE_RG = 'MC_fleet_member-1_eastus';
const members = ['member-1', 'member-2'] as const;
type Member = (typeof members)[number];
const ns = 'shop';

let plane: ControlPlane;
let emulator: RunningEmulator;
let standIn: CloudProviderStandIn;
let hub: KubeClient;
let hubManager: Manager;
const memberClients = {} as Record<Member, KubeClient>;
const agents = {} as Record<Member, MemberExportSide>;
const hubKubeconfigs = {} as Record<Member, string>;
const logs = captureLogLines();

beforeAll(async () => {
  [plane, emulator] = await Promise.all([
    startControlPlane({ clusters: ['hub', ...members], controllerManager: false }),
    startEmulator({ lroDelayMs: 0, throttling: false }),
  ]);
  for (const cluster of ['hub', ...members]) await plane.installCrds(cluster, { gatewayApi: false, fleet: true });
  hub = new KubeClient(plane.cluster('hub').kubeConfig());
  await createNamespace(hub, ns);
  for (const member of members) {
    memberClients[member] = new KubeClient(plane.cluster(member).kubeConfig());
    await createNamespace(memberClients[member], ns);
    hubKubeconfigs[member] = await plane.memberHubKubeconfig(member);
  }
  // AKS labels every node with its region; member-2 has no node, so its region cannot be known.
  await memberClients['member-1'].create(collectionPath({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false }), {
    metadata: { name: 'aks-nodepool1-0', labels: { [REGION_LABEL]: 'eastus' } },
  });
  emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: NODE_RG });
  standIn = new CloudProviderStandIn({
    kubeConfig: plane.cluster('member-1').kubeConfig(),
    emulator,
    settings: { subscriptionId: SUBSCRIPTION, resourceGroup: NODE_RG, clusterName: 'member-1' },
  });
  await standIn.start();

  // The hub side: fleet-hub decides Conflict and holds each export with its finalizer.
  const hubLogger = createLogger({ level: 'info', stream: logs.stream, fields: { component: 'hub-gateway' } });
  hubManager = new Manager({ logger: hubLogger });
  const hubEvents = hubManager.addEventRecorder(
    new EventRecorder({ client: hub, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger: hubLogger }),
  );
  registerFleetHubControllers({ manager: hubManager, client: hub, events: hubEvents, logger: hubLogger });
  await hubManager.start();
  for (const member of members) agents[member] = await startAgent(member);
}, 120_000);

afterAll(async () => {
  await Promise.all(members.map((m) => agents[m]?.stop()));
  await hubManager?.shutdown('test over');
  await standIn?.stop();
  await Promise.all([plane?.stop(), emulator?.stop()]);
});

/** One member's export controllers (this library's only) on their own Manager; the whole agent is apps/member-discovery's. */
interface MemberExportSide {
  readonly controllers: MemberExportControllers;
  /** The hub client of the controllers: the kubeconfig the harness issues for `fleet-member-<member>` (a Role in it). */
  readonly hubClient: KubeClient;
  stop(): Promise<void>;
}

async function startAgent(member: Member): Promise<MemberExportSide> {
  const hubKubeConfig = new KubeConfig();
  hubKubeConfig.loadFromFile(hubKubeconfigs[member]);
  const hubClient = new KubeClient(hubKubeConfig);
  const memberClient = new KubeClient(plane.cluster(member).kubeConfig());
  const logger = createLogger({ level: 'debug', stream: logs.stream, fields: { component: 'member-discovery', member } });
  const manager = new Manager({ logger });
  const events = manager.addEventRecorder(
    new EventRecorder({ client: memberClient, reportingController: 'networking.fleet.azure.com/member-discovery', reportingInstance: member, logger }),
  );
  // Several resyncs of every object within seconds: the restart test waits for them to show that nothing is rewritten.
  const controllers = registerMemberExportControllers({ manager, memberClient, hubClient, memberCluster: member, events, logger, resyncPeriodMs: 500 });
  await manager.start();
  return { controllers, hubClient, stop: async () => void (await manager.shutdown('test over')) };
}

const hubExportPath = (member: Member, service: string) => objectPath(internalServiceExports, `${ns}-${service}`, `fleet-member-${member}`);
const readHubExport = (member: Member, service: string) =>
  hub.get<Export>(hubExportPath(member, service)).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
const readServiceExport = (member: Member, name: string) => memberClients[member].get<CachedServiceExport>(objectPath(serviceExports, name, ns));
const readService = (member: Member, name: string) => memberClients[member].get<CachedService>(objectPath(services, name, ns));
const condition = (se: CachedServiceExport | undefined, type: string) => se?.status?.conditions?.find((c) => c.type === type);
const hubConflict = (ise: Export | undefined) => ise?.status?.conditions?.find((c) => c.type === 'Conflict');
/** What the member wrote of an export: which object, its spec, and the member's apply (time included). */
const memberView = (e: Export) => [
  e.metadata.name,
  e.metadata.uid,
  JSON.stringify(e.spec),
  JSON.stringify(((e.metadata.managedFields ?? []) as ManagedFieldsEntry[]).find((f) => f.manager === MEMBER_FIELD_MANAGER)),
];
const httpPorts = [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }];

async function createService(
  member: Member,
  name: string,
  spec: Record<string, unknown> = {},
  annotations: Record<string, string> = {},
): Promise<CachedService> {
  return memberClients[member].create(collectionPath(services, ns), {
    metadata: { name, annotations },
    spec: { selector: { app: name }, ports: httpPorts, ...spec },
  });
}
async function createServiceExport(member: Member, name: string, annotations: Record<string, string> = {}): Promise<void> {
  await memberClients[member].create(collectionPath(serviceExports, ns), {
    apiVersion: 'networking.fleet.azure.com/v1beta1',
    kind: 'ServiceExport',
    metadata: { name, annotations },
  });
}
const annotate = (member: Member, name: string, annotations: Record<string, string | null>) =>
  memberClients[member].patch(objectPath(serviceExports, name, ns), { metadata: { annotations } }, 'merge');
async function gone(read: () => Promise<unknown>): Promise<boolean> {
  return read().then(
    (value) => value === undefined,
    (error: unknown) => isNotFound(error),
  );
}
async function eventsAbout(member: Member, name: string): Promise<{ reason: string; note: string; type: string }[]> {
  const list = await memberClients[member].get<{ items: { reason: string; note: string; type: string; regarding: { name: string; kind: string } }[] }>(
    collectionPath({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true }, ns),
  );
  return list.items.filter((e) => e.regarding.name === name && e.regarding.kind === 'ServiceExport');
}
const reasons = async (member: Member, name: string) => (await eventsAbout(member, name)).map((e) => e.reason);

describe('the member agent’s export side, against a real hub and member', () => {
  it('runs on the hub with only its namespace: the scoped token may not list exports cluster-wide', async () => {
    const error = await agents['member-1'].hubClient.get(collectionPath(internalServiceExports)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).statusCode).toBe(403);
    // The hub informer lists and watches within that namespace: it syncs.
    expect(await eventually(() => agents['member-1'].controllers.internalServiceExports.hasSynced, Boolean)).toBe(true);
  });

  it('reads the region from a node label, and says why it is unknown without a labelled node or the right to list nodes', async () => {
    expect(await new ClusterRegion({ client: memberClients['member-1'] }).zone()).toEqual({ region: 'eastus', dnsZoneSuffix: 'cloudapp.azure.com' });
    expect(await new ClusterRegion({ client: memberClients['member-2'] }).zone()).toEqual({
      region: undefined,
      unknownBecause: 'no region was configured and no node carries the label topology.kubernetes.io/region',
      dnsZoneSuffix: 'cloudapp.azure.com',
    });
    const forbidden = new KubeClient(kubeConfigAs(plane.cluster('member-1').kubeConfig(), 'no-rbac-user'));
    const unknown = await new ClusterRegion({ client: forbidden }).zone();
    expect(unknown.region).toBeUndefined();
    expect(unknown.unknownBecause).toContain("the nodes' topology.kubernetes.io/region label could not be read:");
    expect(unknown.unknownBecause).toContain('cannot list resource "nodes"');
  });

  it('exports a Service: finalizer first, Valid, the hub’s Conflict copied back, the export spec under the member’s field manager', async () => {
    const service = await createService('member-1', 'web');
    await createServiceExport('member-1', 'web');
    const ise = await eventually(
      () => readHubExport('member-1', 'web'),
      (e) => hubConflict(e) !== undefined,
    );
    expect(ise?.spec).toEqual({
      ports: httpPorts,
      serviceReference: {
        clusterId: 'member-1',
        apiVersion: 'v1',
        kind: 'Service',
        namespace: ns,
        name: 'web',
        namespacedName: `${ns}/web`,
        uid: service.metadata.uid,
        resourceVersion: service.metadata.resourceVersion,
        generation: service.metadata.generation ?? 0,
        exportedSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
      type: 'ClusterIP',
      weight: 1,
    });
    const owners = ((ise?.metadata.managedFields ?? []) as ManagedFieldsEntry[]).map((f) => `${f.manager}:${f.operation}:${f.subresource ?? ''}`);
    expect(owners).toContain(`${MEMBER_FIELD_MANAGER}:Apply:`);
    expect(owners).toContain('hub-gateway-service-import:Apply:status');

    const se = await eventually(
      () => readServiceExport('member-1', 'web'),
      (s) => condition(s, 'Conflict')?.reason === 'NoConflictFound',
    );
    expect(se.metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
    expect(condition(se, 'Valid')).toMatchObject({
      status: 'True',
      reason: 'ServiceIsValid',
      message: `service ${ns}/web is valid for export`,
      observedGeneration: se.metadata.generation,
    });
    expect(condition(se, 'Conflict')).toMatchObject({
      status: 'False',
      message: `service ${ns}/web is exported without conflict`,
      observedGeneration: se.metadata.generation,
    });
    expect(se.metadata.annotations?.[LAST_SEEN_TIMESTAMP_ANNOTATION]).toBe(ise?.spec?.serviceReference.exportedSince);
    // A ClusterIP Service gets no origin conditions: it is no Front Door origin.
    expect(se.status?.conditions?.map((c) => c.type).sort()).toEqual(['Conflict', 'Valid']);
    const recorded = await eventually(
      () => reasons('member-1', 'web'),
      (r) => r.includes('NoServiceExportConflictFound'),
    );
    expect(recorded).toEqual(expect.arrayContaining(['ValidServiceExport', 'PendingExportConflictResolution', 'NoServiceExportConflictFound']));
  });

  it('follows weight changes; an invalid weight keeps the export as it is; 0 unexports and stays Valid', async () => {
    await annotate('member-1', 'web', { [WEIGHT_ANNOTATION]: '5' });
    const weighted = await eventually(
      () => readHubExport('member-1', 'web'),
      (e) => e?.spec?.weight === 5,
    );
    expect(weighted?.spec?.weight).toBe(5);

    await annotate('member-1', 'web', { [WEIGHT_ANNOTATION]: 'heavy' });
    const invalid = await eventually(
      () => readServiceExport('member-1', 'web'),
      (s) => condition(s, 'Valid')?.status === 'False',
    );
    expect(condition(invalid, 'Valid')).toMatchObject({
      reason: 'ServiceExportInvalidWeightAnnotation',
      message: `serviceExport ${ns}/web has an invalid weight annotation, err = the weight annotation is not a valid integer: heavy`,
    });
    expect(invalid.metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
    // Kept as it was (the hub may still write its status): the same spec, the member's apply untouched.
    expect(memberView((await readHubExport('member-1', 'web'))!)).toEqual(memberView(weighted!));
    expect(
      await eventually(
        () => reasons('member-1', 'web'),
        (r) => r.includes('ServiceExportInvalidWeightAnnotation'),
      ),
    ).toContain('ServiceExportInvalidWeightAnnotation');

    await annotate('member-1', 'web', { [WEIGHT_ANNOTATION]: '0' });
    await eventually(() => gone(() => readHubExport('member-1', 'web')), Boolean);
    // The finalizer comes off last, after the hub delete and the status.
    const zero = await eventually(
      () => readServiceExport('member-1', 'web'),
      (s) => condition(s, 'Valid')?.message === `exported service ${ns}/web with 0 weight` && (s.metadata.finalizers ?? []).length === 0,
    );
    expect(condition(zero, 'Valid')?.status).toBe('True');
    expect(zero.metadata.finalizers ?? []).toEqual([]);

    await annotate('member-1', 'web', { [WEIGHT_ANNOTATION]: '2' });
    const back = await eventually(
      () => readHubExport('member-1', 'web'),
      (e) => e?.spec?.weight === 2,
    );
    expect(back?.spec?.serviceReference.clusterId).toBe('member-1');
    expect((await readServiceExport('member-1', 'web')).metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
  });

  it('decides ineligible Services (headless, ExternalName) and exports nothing for them', async () => {
    await createService('member-1', 'headless', { clusterIP: 'None' });
    await createService('member-1', 'external', { type: 'ExternalName', externalName: 'example.com', selector: undefined, ports: undefined });
    for (const name of ['headless', 'external']) {
      await createServiceExport('member-1', name);
      const se = await eventually(
        () => readServiceExport('member-1', name),
        (s) => condition(s, 'Valid') !== undefined,
      );
      expect(condition(se, 'Valid')).toMatchObject({
        status: 'False',
        reason: 'ServiceIneligible',
        message: `service ${ns}/${name} is not eligible for export`,
      });
      expect(se.metadata.finalizers ?? []).toEqual([]);
      expect(await readHubExport('member-1', name)).toBeUndefined();
      expect(
        await eventually(
          () => reasons('member-1', name),
          (r) => r.includes('ServiceNotEligible'),
        ),
      ).toContain('ServiceNotEligible');
    }
  });

  it('marks the hub’s Conflict between two members on the later one, with upstream’s event', async () => {
    await createService('member-2', 'web', { ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'UDP' }] });
    await createServiceExport('member-2', 'web');
    const se = await eventually(
      () => readServiceExport('member-2', 'web'),
      (s) => condition(s, 'Conflict')?.reason === 'ConflictFound',
    );
    expect(condition(se, 'Conflict')).toMatchObject({
      status: 'True',
      message: `service ${ns}/web is in conflict with other exported services`,
      observedGeneration: se.metadata.generation,
    });
    expect(condition(se, 'Valid')?.status).toBe('True');
    const events = await eventually(
      () => eventsAbout('member-2', 'web'),
      (list) => list.some((e) => e.reason === 'ServiceExportConflictFound'),
    );
    expect(events.find((e) => e.reason === 'ServiceExportConflictFound')).toMatchObject({
      type: 'Warning',
      note: 'Service web is in conflict with other exported services',
    });
    // Still exported (the hub keeps it out of the ServiceImport), in member-2's own namespace.
    expect((await readHubExport('member-2', 'web'))?.spec?.serviceReference.clusterId).toBe('member-2');
  });

  it('says why a LoadBalancer Service without an address is not published yet, and keeps looking', async () => {
    // No cloud provider on member-2: the Service never gets an address.
    await createService('member-2', 'pending-lb', { type: 'LoadBalancer' });
    await createServiceExport('member-2', 'pending-lb');
    const se = await eventually(
      () => readServiceExport('member-2', 'pending-lb'),
      (s) => condition(s, 'networking.fleet.azure.com/OriginPublished') !== undefined,
    );
    expect(condition(se, 'networking.fleet.azure.com/OriginPublished')).toMatchObject({ status: 'False', reason: 'LoadBalancerAddressPending' });
    const ise = await eventually(
      () => readHubExport('member-2', 'pending-lb'),
      (e) => e !== undefined,
    );
    expect(ise?.spec?.publicAddress).toBeUndefined();
    expect(ise?.spec?.isInternalLoadBalancer).toBe(false);
    const requeued = await eventually(
      () => logs.lines.filter((l) => l.message === 'requeued' && l.name === 'pending-lb'),
      (l) => l.length > 0,
    );
    expect(requeued[0]).toMatchObject({ level: 'info', reason: `Service ${ns}/pending-lb has no load balancer address yet` });
    expect(logs.lines.filter((l) => l.level === 'error' && l.name === 'pending-lb')).toEqual([]);

    // Once the Service has its address (as a cloud provider would write it), it is published.
    const current = await readService('member-2', 'pending-lb');
    await memberClients['member-2'].replace(`${objectPath(services, 'pending-lb', ns)}/status`, {
      ...current,
      status: { loadBalancer: { ingress: [{ ip: '20.0.0.9' }] } },
    });
    const published = await eventually(
      () => readHubExport('member-2', 'pending-lb'),
      (e) => e?.spec?.publicAddress === '20.0.0.9',
    );
    expect(published?.spec?.azureObservedTime).toMatch(/Z$/);
  });

  it('publishes a public LoadBalancer Service with the FQDN of its DNS label, warns that it is open, and names the hub’s frontDoorId', async () => {
    await createService('member-1', 'store', { type: 'LoadBalancer' }, { 'service.beta.kubernetes.io/azure-dns-label-name': 'shop-store' });
    await createServiceExport('member-1', 'store');
    const ise = await eventually(
      () => readHubExport('member-1', 'store'),
      (e) => e?.spec?.publicAddress !== undefined,
      30_000,
    );
    const service = await readService('member-1', 'store');
    expect(service.status?.loadBalancer?.ingress?.[0]?.ip).toBeDefined();
    expect(ise?.spec).toMatchObject({ type: 'LoadBalancer', isInternalLoadBalancer: false, publicAddress: 'shop-store.eastus.cloudapp.azure.com' });
    expect(Date.parse(ise!.spec!.azureObservedTime!)).toBeGreaterThan(Date.now() - 120_000);
    // Derived without an Azure call, it is the FQDN Azure (here the emulator, ledger: public IPs) gave the Service's public IP.
    const network = new NetworkManagementClient(stubCredential, SUBSCRIPTION, sdkClientOptions(emulator));
    const publicIps = [];
    for await (const pip of network.publicIPAddresses.list(NODE_RG)) publicIps.push(pip);
    const pip = publicIps.find((p) => p.ipAddress === service.status?.loadBalancer?.ingress?.[0]?.ip);
    expect(pip?.dnsSettings?.fqdn).toBe(ise?.spec?.publicAddress);
    const se = await eventually(
      () => readServiceExport('member-1', 'store'),
      (s) => condition(s, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor') !== undefined,
    );
    expect(condition(se, 'networking.fleet.azure.com/OriginPublished')).toMatchObject({ status: 'True', reason: 'PublicAddressPublished' });
    const open = condition(se, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor');
    expect(open).toMatchObject({ status: 'False', reason: 'NotRestrictedToFrontDoor' });
    expect(open?.message).toContain('set the annotation service.beta.kubernetes.io/azure-allowed-service-tags: AzureFrontDoor.Backend');
    expect(
      await eventually(
        () => reasons('member-1', 'store'),
        (r) => r.includes('OriginNotRestrictedToFrontDoor'),
      ),
    ).toContain('PublicAddressPublished');

    // The hub's Gateway side publishes the profile's frontDoorId on the export's status (its own field manager).
    await hub.patch(
      `${hubExportPath('member-1', 'store')}/status`,
      {
        apiVersion: 'networking.fleet.azure.com/v1alpha1',
        kind: 'InternalServiceExport',
        metadata: { name: `${ns}-store`, namespace: 'fleet-member-member-1' },
        status: { frontDoors: [{ gateway: 'shop/gw', profile: 'afd-gw', frontDoorID: '7c3e0d5e-0000-4000-8000-00000000fd01' }] },
      },
      'apply',
      { fieldManager: 'hub-gateway', force: true },
    );
    const named = await eventually(
      () => readServiceExport('member-1', 'store'),
      (s) => condition(s, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')?.message.includes('7c3e0d5e') ?? false,
    );
    expect(condition(named, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')?.message).toContain(
      'X-Azure-FDID header is not 7c3e0d5e-0000-4000-8000-00000000fd01',
    );

    const lockdown = { 'service.beta.kubernetes.io/azure-allowed-service-tags': 'AzureFrontDoor.Backend' };
    await memberClients['member-1'].patch(objectPath(services, 'store', ns), { metadata: { annotations: lockdown } }, 'merge');
    const locked = await eventually(
      () => readServiceExport('member-1', 'store'),
      (s) => condition(s, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')?.status === 'True',
    );
    expect(condition(locked, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')?.reason).toBe('RestrictedToFrontDoor');
  });

  it('replaces an export left by an earlier Service of the same name (UID mismatch)', async () => {
    const earlier = await hub.create<Export>(collectionPath(internalServiceExports, 'fleet-member-member-1'), {
      apiVersion: 'networking.fleet.azure.com/v1alpha1',
      kind: 'InternalServiceExport',
      metadata: { name: `${ns}-cart` },
      spec: {
        ports: httpPorts,
        serviceReference: {
          clusterId: 'member-1',
          kind: 'Service',
          namespace: ns,
          name: 'cart',
          namespacedName: `${ns}/cart`,
          resourceVersion: '0',
          generation: 0,
          uid: '0',
        },
      },
    });
    const service = await createService('member-1', 'cart');
    await createServiceExport('member-1', 'cart');
    const replaced = await eventually(
      () => readHubExport('member-1', 'cart'),
      (e) => e?.spec?.serviceReference.uid === service.metadata.uid,
      30_000,
    );
    // Deleted (after the hub released it) and created anew, not overwritten in place.
    expect(replaced?.metadata.uid).not.toBe(earlier.metadata.uid);
    expect(replaced?.spec?.serviceReference.uid).toBe(service.metadata.uid);
    expect((await readServiceExport('member-1', 'cart')).metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
  });

  it('rides out a hub API server outage: the change made meanwhile is published once the hub is back, no error logged', async () => {
    // Until now nothing failed: a cache behind the agent's own writes is looked at again, not reported.
    expect(logs.lines.filter((l) => l.level === 'warn' && l.component === 'member-discovery')).toEqual([]);
    const memberErrors = () => logs.lines.filter((l) => l.level === 'error' && l.component === 'member-discovery');
    const errorsBefore = memberErrors().length;
    const hubCluster = plane.cluster('hub');
    await hubCluster.stopApiServer();
    await annotate('member-1', 'web', { [WEIGHT_ANNOTATION]: '7' });
    const failed = await eventually(
      () => logs.lines.filter((l) => l.member === 'member-1' && l.message === 'reconcile failed; retrying' && l.name === 'web'),
      (l) => l.length > 0,
    );
    expect(failed[0]?.level).toBe('warn');
    await hubCluster.startApiServer();
    const published = await eventually(
      () => readHubExport('member-1', 'web'),
      (e) => e?.spec?.weight === 7,
      45_000,
    );
    expect(published?.spec?.weight).toBe(7);
    expect(memberErrors().slice(errorsBefore)).toEqual([]);
  }, 90_000);

  it('restarts without duplicating or rewriting anything', async () => {
    const list = async () => (await hub.get<{ items: Export[] }>(collectionPath(internalServiceExports, 'fleet-member-member-1'))).items;
    // A steady state first: the hub may still be settling the previous test's change, and a write copying it would be
    // right. Steady = the running agent wrote nothing across several resyncs of every object.
    const reconciles = () => logs.lines.filter((l) => l.member === 'member-1' && l.message === 'reconciled' && l.name === 'web').length;
    const writesOf = () => agents['member-1'].controllers.statusWriter.writes + agents['member-1'].controllers.hubWriter.writes;
    let window = { from: reconciles(), writes: writesOf() };
    await eventually(
      () => {
        if (writesOf() !== window.writes) window = { from: reconciles(), writes: writesOf() };
        return reconciles() - window.from;
      },
      (quiet) => quiet >= 4,
    );
    expect(reconciles() - window.from).toBeGreaterThanOrEqual(4);
    const before = await list();
    await agents['member-1'].stop();
    agents['member-1'] = await startAgent('member-1');
    const { controllers } = agents['member-1'];
    // Several resyncs (500 ms) of every object: a write that would repeat has had its chance.
    const seen = reconciles();
    expect(await eventually(reconciles, (n) => n >= seen + 4)).toBeGreaterThanOrEqual(seen + 4);
    expect(controllers.hubWriter.writes).toBe(0);
    expect(controllers.statusWriter.writes).toBe(0);
    // The same exports (the hub may still write their status): same objects, same spec, the member's apply untouched.
    expect((await list()).map(memberView)).toEqual(before.map(memberView));
  });

  it('unexports when the Service is deleted, and lets a deleted ServiceExport go once unexported', async () => {
    await memberClients['member-1'].delete(objectPath(services, 'web', ns));
    await eventually(() => gone(() => readHubExport('member-1', 'web')), Boolean);
    const se = await eventually(
      () => readServiceExport('member-1', 'web'),
      (s) => condition(s, 'Valid')?.reason === 'ServiceNotFound' && (s.metadata.finalizers ?? []).length === 0,
    );
    expect(condition(se, 'Valid')).toMatchObject({ status: 'False', message: `service ${ns}/web is not found` });
    expect(se.metadata.finalizers ?? []).toEqual([]);
    expect(
      await eventually(
        () => reasons('member-1', 'web'),
        (r) => r.includes('ServiceNotFound'),
      ),
    ).toContain('ServiceNotFound');

    await memberClients['member-1'].delete(objectPath(serviceExports, 'cart', ns));
    await eventually(() => gone(() => readServiceExport('member-1', 'cart')), Boolean);
    expect(await eventually(() => gone(() => readHubExport('member-1', 'cart')), Boolean)).toBe(true);
    expect(logs.lines.filter((l) => l.level === 'error' && l.component === 'member-discovery')).toEqual([]);
  });
});
