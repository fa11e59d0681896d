import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateLinkTiming } from './connections.js';
import { createOrigin, createOriginGroup, createProfile } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { FAST_POLLING, RESOURCE_GROUP, SUBSCRIPTION, networkId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
const AFD_SUBSCRIPTION = 'afd00000-0000-4000-8000-00000000afd0';
let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ afdManagedSubscriptionId: AFD_SUBSCRIPTION, limits: { network: { privateEndpointConnectionsPerPrivateLinkService: 2 } } });
  await createInternalLoadBalancer(bed, 'kubernetes-internal', ['fe-1', 'fe-2', 'fe-3', 'fe-4', 'fe-5']);
  await createPrivateLinkService(bed, 'pls-1', 'kubernetes-internal', 'fe-1');
  await createPrivateLinkService(bed, 'pls-2', 'kubernetes-internal', 'fe-2');
  await createPrivateLinkService(bed, 'pls-auto', 'kubernetes-internal', 'fe-3', {
    visibility: { subscriptions: ['*'] },
    autoApproval: { subscriptions: [AFD_SUBSCRIPTION] },
  });
  await createProfile(bed, 'fd');
  await createOriginGroup(bed, 'fd', 'og');
});
afterAll(() => bed.emulator.stop());

function privateOrigin(name: string, pls: string, requestMessage: string, location = 'eastus') {
  return {
    name,
    hostName: '10.224.0.10',
    extra: { sharedPrivateLinkResource: { privateLink: { id: networkId('privateLinkServices', pls) }, privateLinkLocation: location, requestMessage } },
  };
}

async function connectionsOf(pls: string) {
  const result = [];
  for await (const connection of bed.network.privateLinkServices.listPrivateEndpointConnections(RG, pls)) result.push(connection);
  return result;
}

async function originStatus(name: string): Promise<string | undefined> {
  return (await bed.cdn.afdOrigins.get(RG, 'fd', 'og', name)).sharedPrivateLinkResource?.status;
}

describe('Private Link origins as AFD makes them', () => {
  it('a Private Link origin makes a Pending connection carrying its request message; approve and reject show on the origin', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('member-1', 'pls-1', 'fleet-req-7f3a'));
    const [connection] = await connectionsOf('pls-1');
    expect(connection?.privateLinkServiceConnectionState).toEqual({ status: 'Pending', description: 'fleet-req-7f3a', actionsRequired: 'None' });
    expect(connection?.privateEndpoint?.id).toMatch(
      new RegExp(`^/subscriptions/${AFD_SUBSCRIPTION}/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/privateEndpoints/`),
    );
    expect(await originStatus('member-1')).toBe('Pending');
    expect((await bed.network.privateLinkServices.get(RG, 'pls-1')).privateEndpointConnections).toHaveLength(1);

    const name = connection?.name as string;
    const approved = await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-1', name, {
      privateLinkServiceConnectionState: { status: 'Approved', description: 'approved by fleet' },
    });
    expect(approved.privateLinkServiceConnectionState?.status).toBe('Approved');
    expect(await originStatus('member-1')).toBe('Approved');

    await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-1', name, { privateLinkServiceConnectionState: { status: 'Rejected' } });
    expect(await originStatus('member-1')).toBe('Rejected');
    expect((await bed.network.privateLinkServices.getPrivateEndpointConnection(RG, 'pls-1', name)).privateLinkServiceConnectionState?.description).toBe(
      'approved by fleet',
    );
  });

  it('origins with the same (profile, service, group, location) share one connection until the last is deleted', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('share-a', 'pls-2', 'msg-a'));
    await createOrigin(bed, 'fd', 'og', privateOrigin('share-b', 'pls-2', 'msg-b'));
    const connections = await connectionsOf('pls-2');
    expect(connections).toHaveLength(1);
    expect(connections[0]?.privateLinkServiceConnectionState?.description).toBe('msg-a');
    await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-2', connections[0]?.name as string, {
      privateLinkServiceConnectionState: { status: 'Approved' },
    });
    expect(await originStatus('share-b')).toBe('Approved');

    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'share-a', FAST_POLLING);
    expect(await connectionsOf('pls-2')).toHaveLength(1);
    expect(await originStatus('share-b')).toBe('Approved');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'share-b', FAST_POLLING);
    expect(await connectionsOf('pls-2')).toEqual([]);
  });

  it('a different location is a different connection; the per-service connection limit applies', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('east', 'pls-2', 'm'));
    await createOrigin(bed, 'fd', 'og', privateOrigin('west', 'pls-2', 'm', 'westus'));
    expect(await connectionsOf('pls-2')).toHaveLength(2);
    const third = await restErrorOf(createOrigin(bed, 'fd', 'og', privateOrigin('north', 'pls-2', 'm', 'northeurope')));
    expect(third.statusCode).toBe(400);
    expect(third.message).toContain('the maximum is 2');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'east', FAST_POLLING);
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'west', FAST_POLLING);
  });

  it('auto-approves only when the service lists AFD’s managed subscription', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('auto', 'pls-auto', 'm'));
    expect(await originStatus('auto')).toBe('Approved');
    const [connection] = await connectionsOf('pls-auto');
    expect(connection?.privateLinkServiceConnectionState?.description).toBe('Auto-Approved');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'auto', FAST_POLLING);
    // The user's own subscription in the lists does not match AFD's private endpoint: it stays Pending.
    await createPrivateLinkService(bed, 'pls-own', 'kubernetes-internal', 'fe-5', {
      visibility: { subscriptions: ['*'] },
      autoApproval: { subscriptions: [SUBSCRIPTION] },
    });
    await createOrigin(bed, 'fd', 'og', privateOrigin('own', 'pls-own', 'needs approval'));
    expect(await originStatus('own')).toBe('Pending');
    expect((await connectionsOf('pls-own'))[0]?.privateLinkServiceConnectionState).toMatchObject({ status: 'Pending', description: 'needs approval' });
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'own', FAST_POLLING);
  });

  it('deleting the connection through Microsoft.Network leaves the origin Disconnected', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('orphan', 'pls-2', 'm'));
    const [connection] = await connectionsOf('pls-2');
    await bed.network.privateLinkServices.deletePrivateEndpointConnection(RG, 'pls-2', connection?.name as string, FAST_POLLING);
    expect(await originStatus('orphan')).toBe('Disconnected');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'orphan', FAST_POLLING);
  });

  it('a new request message asks again once the connection was Rejected or removed; a Pending or Approved one keeps its message', async () => {
    const state = async () =>
      (await connectionsOf('pls-2')).map((c) => [c.privateLinkServiceConnectionState?.status, c.privateLinkServiceConnectionState?.description]);
    await createOrigin(bed, 'fd', 'og', privateOrigin('again', 'pls-2', 'first'));
    await createOrigin(bed, 'fd', 'og', privateOrigin('again', 'pls-2', 'second'));
    expect(await state()).toEqual([['Pending', 'first']]);
    const [first] = await connectionsOf('pls-2');
    await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-2', first?.name as string, {
      privateLinkServiceConnectionState: { status: 'Rejected' },
    });
    await createOrigin(bed, 'fd', 'og', privateOrigin('again', 'pls-2', 'second'));
    // The Rejected connection leaves; a new private endpoint asks with the new message.
    expect(await state()).toEqual([['Pending', 'second']]);
    const [second] = await connectionsOf('pls-2');
    expect(second?.privateEndpoint?.id).not.toBe(first?.privateEndpoint?.id);
    expect(await originStatus('again')).toBe('Pending');
    await bed.network.privateLinkServices.deletePrivateEndpointConnection(RG, 'pls-2', second?.name as string, FAST_POLLING);
    expect(await originStatus('again')).toBe('Disconnected');
    await createOrigin(bed, 'fd', 'og', privateOrigin('again', 'pls-2', 'third'));
    expect(await state()).toEqual([['Pending', 'third']]);
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'again', FAST_POLLING);
    expect(await connectionsOf('pls-2')).toEqual([]);
  });

  it('deleting the Private Link Service removes its connections and leaves the origin Disconnected', async () => {
    await createPrivateLinkService(bed, 'pls-doomed', 'kubernetes-internal', 'fe-4');
    await createOrigin(bed, 'fd', 'og', privateOrigin('doomed', 'pls-doomed', 'm'));
    expect(await connectionsOf('pls-doomed')).toHaveLength(1);
    await bed.network.privateLinkServices.delete(RG, 'pls-doomed', FAST_POLLING);
    expect(await originStatus('doomed')).toBe('Disconnected');
    expect(bed.emulator.admin.dumpState().resources.filter((resource) => resource.id.includes('/privateLinkServices/pls-doomed/'))).toEqual([]);
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'doomed', FAST_POLLING);
  });

  it('deleting the profile removes its connections', async () => {
    await createProfile(bed, 'fd-temp');
    await createOriginGroup(bed, 'fd-temp', 'og');
    await bed.cdn.afdOrigins.beginCreateAndWait(
      RG,
      'fd-temp',
      'og',
      'o',
      {
        hostName: '10.224.0.11',
        sharedPrivateLinkResource: { privateLink: { id: networkId('privateLinkServices', 'pls-2') }, privateLinkLocation: 'eastus', requestMessage: 'temp' },
      },
      FAST_POLLING,
    );
    expect((await connectionsOf('pls-2')).map((c) => c.privateLinkServiceConnectionState?.description)).toEqual(['temp']);
    await bed.cdn.profiles.beginDeleteAndWait(RG, 'fd-temp', FAST_POLLING);
    expect(await connectionsOf('pls-2')).toEqual([]);
  });

  it('refuses mixing public and Private Link origins in one origin group, either way round', async () => {
    await createOrigin(bed, 'fd', 'og', privateOrigin('mix-private', 'pls-1', 'm'));
    const publicInPrivate = await restErrorOf(createOrigin(bed, 'fd', 'og', { name: 'mix-public', hostName: 'app.example' }));
    expect([publicInPrivate.statusCode, publicInPrivate.message]).toEqual([
      400,
      "Origin group 'og' already holds Private Link origin 'member-1'; Azure Front Door does not allow public and Private Link origins in the same origin group.",
    ]);
    await createOriginGroup(bed, 'fd', 'og-public');
    await createOrigin(bed, 'fd', 'og-public', { name: 'public', hostName: 'app.example' });
    const privateInPublic = await restErrorOf(createOrigin(bed, 'fd', 'og-public', privateOrigin('private', 'pls-1', 'm')));
    expect(privateInPublic.message).toContain("already holds public origin 'public'");
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'mix-private', FAST_POLLING);
  });

  it('refuses a Private Link origin whose service does not exist, and a PUT that would create a connection', async () => {
    const error = await restErrorOf(createOrigin(bed, 'fd', 'og', privateOrigin('ghost', 'pls-ghost', 'm')));
    expect(error.message).toContain("'properties.sharedPrivateLinkResource.privateLink.id' must reference an existing private link service");
    const create = await restErrorOf(
      bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-1', 'made-up', { privateLinkServiceConnectionState: { status: 'Approved' } }),
    );
    expect(create.statusCode).toBe(404);
    const [connection] = await connectionsOf('pls-1');
    const badStatus = await restErrorOf(
      bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-1', connection?.name as string, {
        privateLinkServiceConnectionState: { status: 'Maybe' },
      }),
    );
    expect(badStatus.message).toContain("'properties.privateLinkServiceConnectionState.status' must be one of Pending, Approved, Rejected");
  });

  it("a consumer's own private endpoint (admin API) connects Pending with its message; AFD's managed subscription is AFD's alone", async () => {
    await createInternalLoadBalancer(bed, 'consumer-lb', ['fe-consumer']);
    await createPrivateLinkService(bed, 'pls-consumer', 'consumer-lb', 'fe-consumer');
    const serviceId = networkId('privateLinkServices', 'pls-consumer');
    const endpointId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe-app`;
    const id = bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: serviceId, privateEndpointId: endpointId, requestMessage: 'let me in' });
    const [connection] = await connectionsOf('pls-consumer');
    expect(connection?.id).toBe(id);
    expect(connection?.name).toMatch(/^pe-app\./);
    expect(connection?.privateEndpoint?.id).toBe(endpointId);
    expect(connection?.privateLinkServiceConnectionState).toEqual({ status: 'Pending', description: 'let me in', actionsRequired: 'None' });
    const impersonating = `/subscriptions/${AFD_SUBSCRIPTION}/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/privateEndpoints/pe-fake`;
    expect(() => bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: serviceId, privateEndpointId: impersonating })).toThrow(
      /managed subscription/,
    );
    expect(() => bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: serviceId, privateEndpointId: 'pe-app' })).toThrow(
      /'privateEndpointId' must be/,
    );
    expect(() =>
      bed.emulator.admin.connectPrivateEndpoint({ privateLinkServiceId: networkId('privateLinkServices', 'pls-none'), privateEndpointId: endpointId }),
    ).toThrow(/was not found/);
    expect(await connectionsOf('pls-consumer')).toHaveLength(1);
    await bed.network.privateLinkServices.delete(RG, 'pls-consumer', FAST_POLLING);
  });
});

describe('Private Link timing and the states Azure leaves undocumented', () => {
  async function timedBed(privateLink: Partial<PrivateLinkTiming>, clock?: () => number) {
    const timed = await startTestBed({ afdManagedSubscriptionId: AFD_SUBSCRIPTION, privateLink, ...(clock ? { clock } : {}) });
    await createInternalLoadBalancer(timed, 'kubernetes-internal', ['fe-1']);
    await createPrivateLinkService(timed, 'pls-1', 'kubernetes-internal', 'fe-1');
    await createProfile(timed, 'fd');
    await createOriginGroup(timed, 'fd', 'og');
    return timed;
  }
  const listed = async (timed: TestBed) => {
    const result = [];
    for await (const connection of timed.network.privateLinkServices.listPrivateEndpointConnections(RG, 'pls-1')) result.push(connection);
    return result;
  };

  it('the connection appears on the service some time after the origin was written, not in the same instant; the origin is Pending meanwhile', async () => {
    const timed = await timedBed({ connectionDelayMs: 300 });
    try {
      const writtenAt = Date.now();
      await createOrigin(timed, 'fd', 'og', privateOrigin('member-1', 'pls-1', 'req-1'));
      expect((await timed.cdn.afdOrigins.get(RG, 'fd', 'og', 'member-1')).sharedPrivateLinkResource?.status).toBe('Pending');
      // Polled: the connection is absent until at least 300 ms after the write (a lower bound only, for a loaded machine).
      let connections = await listed(timed);
      while (connections.length === 0 && Date.now() - writtenAt < 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        connections = await listed(timed);
      }
      expect(Date.now() - writtenAt).toBeGreaterThanOrEqual(300);
      expect(connections.map((c) => c.privateLinkServiceConnectionState?.description)).toEqual(['req-1']);
    } finally {
      await timed.emulator.stop();
    }
  });

  it("Timeout is the origin's status (afdx.json), not the connection's: a connection left Pending past pendingTimeoutMs shows Timeout on its origin", async () => {
    let now = 1_700_000_000_000;
    const timed = await timedBed({ pendingTimeoutMs: 3_600_000 }, () => now);
    try {
      await createOrigin(timed, 'fd', 'og', privateOrigin('member-1', 'pls-1', 'req-1'));
      now += 3_599_999;
      expect((await timed.cdn.afdOrigins.get(RG, 'fd', 'og', 'member-1')).sharedPrivateLinkResource?.status).toBe('Pending');
      now += 1;
      expect((await timed.cdn.afdOrigins.get(RG, 'fd', 'og', 'member-1')).sharedPrivateLinkResource?.status).toBe('Timeout');
      expect((await listed(timed))[0]?.privateLinkServiceConnectionState?.status).toBe('Pending');
    } finally {
      await timed.emulator.stop();
    }
  });

  it('re-approving a Rejected connection is refused by default and allowed with reapproveRejected (A26: Azure is silent)', async () => {
    for (const reapproveRejected of [false, true]) {
      const timed = await timedBed({ reapproveRejected });
      try {
        await createOrigin(timed, 'fd', 'og', privateOrigin('member-1', 'pls-1', 'req-1'));
        const name = (await listed(timed))[0]?.name as string;
        const set = (status: string) =>
          timed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-1', name, { privateLinkServiceConnectionState: { status } });
        await set('Approved');
        await set('Rejected');
        if (reapproveRejected) {
          expect((await set('Approved')).privateLinkServiceConnectionState?.status).toBe('Approved');
        } else {
          for (const status of ['Approved', 'Pending']) {
            const refused = await restErrorOf(set(status));
            expect([refused.statusCode, refused.code]).toEqual([400, 'PrivateEndpointConnectionRejected']);
          }
        }
      } finally {
        await timed.emulator.stop();
      }
    }
  });
});
