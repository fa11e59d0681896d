import { FAST_POLLING } from '@fleet-gateway/azure-emulator';
import { TEST_SCOPE } from '@fleet-gateway/azure-frontdoor/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivateLinkDiscovery, type DiscoveryResult, type PublishedPrivateLink } from './private-link-discovery.js';
import { SERVICE_ANNOTATIONS } from './service-facts.js';
import { defaultPlsName, provisionService, requestFromFrontDoor, startMemberBed, type MemberBed } from './testing/index.js';

const TTL = 60_000;
let bed: MemberBed;
let now: number;

beforeEach(async () => {
  bed = await startMemberBed();
  now = 1_000_000;
});
afterEach(() => bed.emulator.stop());

function discovery(): PrivateLinkDiscovery {
  return new PrivateLinkDiscovery(bed.network, { ttlMs: TTL, now: () => now, backoff: { initialMs: 1_000, maxMs: 8_000 } });
}

function uid(i: number): string {
  return `0000000${i}-aaaa-4bbb-8ccc-00000000000${i}`;
}

/** GETs the emulator answered for a resource type (its own request counters are the judge, not ours). */
function reads(resourceType: string): number {
  return bed.emulator.admin.requestTotal({ method: 'GET', resourceType });
}

function published(result: DiscoveryResult): PublishedPrivateLink {
  if (result.state !== 'found') throw new Error(`expected a Private Link Service, got ${result.reason}: ${result.message}`);
  return result;
}

describe('discovery against the emulator (cloud-provider-azure naming, unmodified SDK)', () => {
  it('finds the frontend holding the Service address and its Private Link Service: id, location, alias, address, connections and when read', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const result = published(await discovery().discover({ service: facts }));
    const name = defaultPlsName(uid(1));
    expect(result.privateLinkService).toMatchObject({
      id: `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/mc-member-1/providers/Microsoft.Network/privateLinkServices/${name}`,
      name,
      location: 'eastus2',
      alias: expect.stringMatching(new RegExp(`^${name}\\.[0-9a-f-]+\\.eastus2\\.azure\\.privatelinkservice$`)),
      internalAddress: facts.ingressIP,
      ownership: 'this-service',
    });
    expect(result.privateLinkService.frontendIpConfigurationId).toMatch(/\/loadBalancers\/kubernetes-internal\/frontendIPConfigurations\/a0000000/);
    expect(result.connections).toEqual([]);
    expect(result.connectionsReadAt).toEqual(new Date(now));
    expect(result.stale).toBeUndefined();
  });

  it('honours azure-pls-name and azure-pls-resource-group', async () => {
    bed.emulator.admin.createResourceGroup({ subscriptionId: bed.settings.subscriptionId, name: 'rg-shop' });
    const facts = await provisionService(bed, {
      name: 'api',
      uid: uid(2),
      annotations: { [SERVICE_ANNOTATIONS.plsName]: 'shop-api', [SERVICE_ANNOTATIONS.plsResourceGroup]: 'rg-shop' },
    });
    const result = published(await discovery().discover({ service: facts }));
    expect(result.privateLinkService.id).toMatch(/\/resourceGroups\/rg-shop\/providers\/Microsoft\.Network\/privateLinkServices\/shop-api$/);
  });

  it('a Private Link Service that appears late is "not yet", and the lists that lack it are read again before the TTL: the address proves it is coming', async () => {
    const withoutPls = await provisionService(bed, { name: 'late', uid: uid(3), privateLink: false });
    const subject = discovery();
    const facts = { ...withoutPls, annotations: { ...withoutPls.annotations, [SERVICE_ANNOTATIONS.plsCreate]: 'true' } };
    bed.emulator.admin.resetCounters();
    const first = await subject.discover({ service: facts });
    // The lists were just read: they are used, and looked at again after the first backoff step.
    expect(first).toMatchObject({ state: 'unknown', reason: 'PrivateLinkServiceNotFound', requeueAfterMs: 1_000 });
    expect([reads('Microsoft.Network/loadBalancers'), reads('Microsoft.Network/privateLinkServices')]).toEqual([1, 1]);
    await provisionService(bed, { name: 'late', uid: uid(3) });
    bed.emulator.admin.resetCounters();
    now += 1_000;
    expect(published(await subject.discover({ service: facts })).privateLinkService.name).toBe(defaultPlsName(uid(3)));
    expect([reads('Microsoft.Network/loadBalancers'), reads('Microsoft.Network/privateLinkServices')]).toEqual([1, 1]);
  });

  it('early re-reads for a Private Link Service that never comes back off, doubling to the cap, and stay shared by a resource group', async () => {
    const withoutPls = await provisionService(bed, { name: 'never', uid: uid(4), privateLink: false });
    const other = await provisionService(bed, { name: 'other', uid: uid(5), privateLink: false });
    const subject = discovery();
    const asking = (service: typeof withoutPls) => ({ ...service, annotations: { ...service.annotations, [SERVICE_ANNOTATIONS.plsCreate]: 'true' } });
    bed.emulator.admin.resetCounters();
    // 40 reconciles of each, 500 ms apart: the lists are read at 0, 1, 3, 7 and 15 s, never once per reconcile.
    for (let step = 0; step < 40; step++) {
      for (const service of [withoutPls, other])
        expect(await subject.discover({ service: asking(service) })).toMatchObject({ state: 'unknown', reason: 'PrivateLinkServiceNotFound' });
      now += 500;
    }
    expect(reads('Microsoft.Network/privateLinkServices')).toBe(5);
    expect(reads('Microsoft.Network/loadBalancers')).toBe(5);
  });

  it('lists load balancers and Private Link Services once per resource group per TTL, however many Services ask', async () => {
    const services = [];
    for (let i = 1; i <= 6; i++) services.push(await provisionService(bed, { name: `svc-${i}`, uid: uid(i) }));
    bed.emulator.admin.resetCounters();
    const subject = discovery();
    const results = await Promise.all(services.map((service) => subject.discover({ service })));
    for (let round = 0; round < 3; round++) for (const service of services) await subject.discover({ service });
    expect(results.map((result) => result.state)).toEqual(Array(6).fill('found'));
    expect(reads('Microsoft.Network/loadBalancers')).toBe(1);
    expect(reads('Microsoft.Network/privateLinkServices')).toBe(1);
    expect(reads('Microsoft.Network/privateLinkServices/privateEndpointConnections')).toBe(0);
    now += TTL;
    for (const service of services) await subject.discover({ service });
    expect(reads('Microsoft.Network/loadBalancers')).toBe(2);
    expect(reads('Microsoft.Network/privateLinkServices')).toBe(2);
    expect(subject.inventory.requests.reads).toBe(4);
  });

  it('a read error keeps the last values, marked stale with the error class; the next read after the backoff clears it', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const before = published(await subject.discover({ service: facts }));
    bed.emulator.admin.injectFault({
      kind: 'status',
      status: 403,
      method: 'GET',
      pathPattern: '/privateLinkServices',
      code: 'AuthorizationFailed',
      message: 'no read',
    });
    now += TTL;
    const stale = published(await subject.discover({ service: facts }));
    expect(stale.privateLinkService).toEqual(before.privateLinkService);
    expect(stale.connectionsReadAt).toEqual(before.connectionsReadAt);
    expect(stale.stale).toMatchObject({ since: new Date(now), failure: { class: 'terminal', category: 'authorization', code: 'AuthorizationFailed' } });
    expect(stale.requeueAfterMs).toBe(1_000);
    const failedReads = reads('Microsoft.Network/privateLinkServices');
    await subject.discover({ service: facts });
    expect(reads('Microsoft.Network/privateLinkServices')).toBe(failedReads);
    bed.emulator.admin.clearFaults();
    now += 1_000;
    const fresh = published(await subject.discover({ service: facts }));
    expect(fresh.stale).toBeUndefined();
    expect(fresh.connectionsReadAt).toEqual(new Date(now));
  });

  it("a failed re-read of a service's connections keeps the listed ones, marked stale", async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const pls = published(await subject.discover({ service: facts })).privateLinkService;
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    now += TTL;
    const listed = published(await subject.discover({ service: facts }));
    expect(listed.connections).toHaveLength(1);
    bed.emulator.admin.injectFault({ kind: 'status', status: 403, method: 'GET', pathPattern: '/privateEndpointConnections' });
    const result = published(await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    expect(result.connections).toEqual(listed.connections);
    expect(result.connectionsReadAt).toEqual(listed.connectionsReadAt);
    expect(result.stale).toMatchObject({ failure: { category: 'authorization' } });
    expect(result.awaitedMessages).toEqual(['fleet-req-1']);
  });

  it('a read error before any value is AzureReadFailed (unknown, never public)', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    bed.emulator.admin.injectFault({ kind: 'status', status: 403, method: 'GET', pathPattern: '/loadBalancers' });
    const result = await discovery().discover({ service: facts });
    expect(result).toMatchObject({ state: 'unknown', reason: 'AzureReadFailed', stale: { failure: { category: 'authorization' } } });
  });
});

describe('connections and approval against the emulator (Front Door makes the connection through an arm-cdn origin)', () => {
  it('re-reads connections when the hub issues a message and with backoff while it is awaited; foreign Pending connections cause none', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const pls = published(await subject.discover({ service: facts })).privateLinkService;
    bed.emulator.admin.connectPrivateEndpoint({
      privateLinkServiceId: pls.id,
      privateEndpointId: `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe-app`,
      requestMessage: 'let me in',
    });
    const connectionReads = () => reads('Microsoft.Network/privateLinkServices/privateEndpointConnections');
    for (let i = 0; i < 3; i++) {
      now += 10_000;
      expect(await subject.discover({ service: facts })).not.toHaveProperty('requeueAfterMs');
    }
    expect(connectionReads()).toBe(0);

    const waiting = await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] });
    expect(connectionReads()).toBe(1);
    expect(waiting).toMatchObject({ awaitedMessages: ['fleet-req-1'], requeueAfterMs: 1_000 });
    await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] });
    expect(connectionReads()).toBe(1);
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    now += 1_000;
    const arrived = published(await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    expect(connectionReads()).toBe(2);
    expect(arrived.connections.find((c) => c.description === 'fleet-req-1')).toMatchObject({
      status: 'Pending',
      privateEndpointId: expect.stringMatching(/\/resourceGroups\/eafd-Prod-eastus2\//),
    });
    expect(arrived).toMatchObject({ awaitedMessages: ['fleet-req-1'], requeueAfterMs: 2_000 });
  });

  it('approves only the Pending Front Door connection carrying the hub message, keeping it; a foreign one and a copied message on another endpoint stay Pending', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const pls = published(await subject.discover({ service: facts })).privateLinkService;
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    const endpoint = (name: string) =>
      `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/${name}`;
    bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: pls.id, privateEndpointId: endpoint('pe-foreign'), requestMessage: 'let me in' });
    bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: pls.id, privateEndpointId: endpoint('pe-copycat'), requestMessage: 'fleet-req-1' });
    const current = published(await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    expect(current.connections).toHaveLength(3);
    const writesBefore = bed.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' });

    const result = await subject.approve(current, [{ gateway: 'shop/gw', message: 'fleet-req-1' }]);
    const afd = current.connections.find((c) => c.privateEndpointId.includes('/eafd-Prod-'));
    expect(result.approved).toEqual([afd?.name]);
    expect(result.failures).toEqual([]);
    expect(result.refused).toEqual([
      {
        connection: expect.objectContaining({ name: expect.stringMatching(/^pe-copycat\./) }),
        kind: 'not-front-door',
        why: expect.stringContaining('left Pending'),
      },
    ]);
    expect(
      bed.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' }) - writesBefore,
    ).toBe(1);

    const states = [];
    for await (const c of bed.network.privateLinkServices.listPrivateEndpointConnections(bed.settings.resourceGroup, pls.name)) {
      states.push([c.name?.split('.')[0], c.privateLinkServiceConnectionState?.status, c.privateLinkServiceConnectionState?.description]);
    }
    expect(states.sort()).toEqual(
      [
        [afd?.name.split('.')[0], 'Approved', 'fleet-req-1'],
        ['pe-copycat', 'Pending', 'fleet-req-1'],
        ['pe-foreign', 'Pending', 'let me in'],
      ].sort(),
    );
    // The approval's answer is remembered: the next reconcile sees it Approved and waits for nothing.
    const after = published(await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    expect(after.awaitedMessages).toEqual([]);
    // Nothing is awaited, but the hub relies on the connection: it is looked at again with the lists, after the TTL.
    expect(after.requeueAfterMs).toBe(TTL);
    expect((await subject.approve(after, [{ gateway: 'shop/gw', message: 'fleet-req-1' }])).approved).toEqual([]);
  });

  it('a new askedTime (the hub re-created its origin) re-reads the connections before the TTL: the deleted one is dropped, the new one seen', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const pls = published(await subject.discover({ service: facts })).privateLinkService;
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    const requests = [{ gateway: 'shop/gw', message: 'fleet-req-1', askedTime: '2026-12-01T10:00:00Z' }];
    const [approved] = (await subject.approve(published(await subject.discover({ service: facts, requests })), requests)).approved;
    await bed.harness.clients.cdn.afdOrigins.beginDeleteAndWait(TEST_SCOPE.resourceGroup, 'fd-1', 'og', 'member-1', FAST_POLLING);
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    now += 1_000;
    // Within the TTL, nothing says Azure moved: the approved connection is what the export still knows.
    const unchanged = published(await subject.discover({ service: facts, requests }));
    expect(unchanged.connections.map((c) => [c.name, c.status])).toEqual([[approved, 'Approved']]);
    const asked = published(await subject.discover({ service: facts, requests: [{ ...requests[0]!, askedTime: '2026-12-01T10:05:00Z' }] }));
    expect(asked.connections).toEqual([expect.objectContaining({ status: 'Pending', description: 'fleet-req-1' })]);
    expect(asked.connections[0]?.name).not.toBe(approved);
    expect(asked.awaitedMessages).toEqual(['fleet-req-1']);
  });

  it('a fence with a reason (the leader Lease no longer valid) approves nothing: the connection stays Pending with that reason', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1) });
    const subject = discovery();
    const pls = published(await subject.discover({ service: facts })).privateLinkService;
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    const current = published(await subject.discover({ service: facts, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    const writes = () => bed.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' });
    const writesBefore = writes();

    const why = "this replica's leader Lease is not valid";
    const result = await subject.approve(current, [{ gateway: 'shop/gw', message: 'fleet-req-1' }], {}, () => why);
    expect(result.approved).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(result.refused).toEqual([{ connection: expect.objectContaining({ status: 'Pending', description: 'fleet-req-1' }), kind: 'fenced', why }]);
    expect(writes() - writesBefore).toBe(0);
    // A valid Lease lets the same approval through.
    expect((await subject.approve(current, [{ gateway: 'shop/gw', message: 'fleet-req-1' }], {}, () => undefined)).approved).toHaveLength(1);
    expect(writes() - writesBefore).toBe(1);
  });

  it('never approves on a Private Link Service without cloud-provider-azure tags (made by hand on the frontend): reported instead', async () => {
    const facts = await provisionService(bed, { name: 'web', uid: uid(1), privateLink: false });
    const frontend = `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/mc-member-1/providers/Microsoft.Network/loadBalancers/kubernetes-internal/frontendIPConfigurations/a${uid(1).replace(/-/g, '').slice(0, 31)}`;
    await bed.network.privateLinkServices.createOrUpdate(
      bed.settings.resourceGroup,
      'hand-made',
      {
        location: 'eastus2',
        loadBalancerFrontendIpConfigurations: [{ id: frontend }],
        ipConfigurations: [
          {
            name: 'nat',
            primary: true,
            privateIPAllocationMethod: 'Dynamic',
            subnet: {
              id: `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/mc-member-1/providers/Microsoft.Network/virtualNetworks/aks-vnet/subnets/aks-subnet`,
            },
          },
        ],
      },
      { updateIntervalInMs: 5 },
    );
    const subject = discovery();
    const service = { ...facts, annotations: { ...facts.annotations, [SERVICE_ANNOTATIONS.plsCreate]: 'true' } };
    const pls = published(await subject.discover({ service })).privateLinkService;
    expect(pls).toMatchObject({ name: 'hand-made', ownership: 'unmanaged' });
    await requestFromFrontDoor(bed, 'fd-1', pls.id, 'fleet-req-1');
    const current = published(await subject.discover({ service, requests: [{ gateway: 'shop/gw', message: 'fleet-req-1' }] }));
    const result = await subject.approve(current, [{ gateway: 'shop/gw', message: 'fleet-req-1' }]);
    expect(result.approved).toEqual([]);
    expect(result.refused).toEqual([
      {
        connection: expect.objectContaining({ status: 'Pending', description: 'fleet-req-1' }),
        kind: 'not-honoured',
        why: expect.stringContaining('no cloud-provider-azure tags'),
      },
    ]);
    expect(bed.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' })).toBe(0);
  });
});
