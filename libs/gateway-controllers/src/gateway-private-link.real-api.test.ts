import type { PrivateEndpointConnection } from '@azure/arm-network';
import { profileName } from '@fleet-gateway/azure-frontdoor';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyObject,
  conditionOf,
  createPrivateLinkService,
  gatewayBody,
  gatewayPath,
  publishExport,
  readExport,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  SCOPE,
  startHubUnderTest,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

let hub: HubUnderTest;
let agent: RunningAgent;
let issued = 0;
const newRequestMessage = () => `test-request-message-${String(++issued).padStart(24, '0')}`;

beforeAll(async () => {
  hub = await startHubUnderTest();
  agent = await hub.startAgent({ resyncPeriodMs: 500, newRequestMessage });
}, 120_000);

afterAll(async () => {
  await hub?.stop();
});

const PREMIUM = { 'networking.fleet.azure.com/afd-sku': 'Premium_AzureFrontDoor' };
const writes = () =>
  ['PUT', 'PATCH', 'DELETE', 'POST'].reduce((sum, method) => sum + hub.emulator.admin.requestTotal({ method, resourceType: 'Microsoft.Cdn/profiles' }), 0);

async function connectionsOf(pls: Awaited<ReturnType<typeof createPrivateLinkService>>, service: string): Promise<PrivateEndpointConnection[]> {
  const list: PrivateEndpointConnection[] = [];
  for await (const c of pls.network.privateLinkServices.listPrivateEndpointConnections(pls.resourceGroup, `pls-${service}`)) list.push(c);
  return list;
}

async function originCount(profile: string): Promise<number> {
  let count = 0;
  for await (const group of hub.clients.cdn.afdOriginGroups.listByProfile(SCOPE.resourceGroup, profile)) {
    for await (const _origin of hub.clients.cdn.afdOrigins.listByOriginGroup(SCOPE.resourceGroup, profile, group.name ?? '')) count++;
  }
  return count;
}

describe('Private Link origins through the hub agent', { timeout: 120_000 }, () => {
  it('issues one request message per Gateway and PLS, waits for the member’s approval, and reuses the message across a restart', async () => {
    // Two exported Services of member-1 behind one Private Link Service: AFD shares one connection, so one message.
    const pls = await createPrivateLinkService(hub.emulator, 'member-1', 'pay');
    await publishExport(hub.client, { cluster: 'member-1', service: 'pay', privateLink: pls });
    await publishExport(hub.client, { cluster: 'member-1', service: 'refund', privateLink: pls });
    await applyObject(hub.client, gatewayPath('pl'), gatewayBody('pl', PREMIUM));
    await applyObject(
      hub.client,
      routePath('pay'),
      routeBody('pay', 'pl', [
        { path: '/pay', backends: [{ name: 'pay' }] },
        { path: '/refund', backends: [{ name: 'refund' }] },
      ]),
    );

    const requests = await Promise.all(
      ['pay', 'refund'].map((service) =>
        eventually(
          () => readExport(hub.client, 'member-1', service),
          (e) => (e.status?.privateLinkRequests ?? []).length === 1,
          30_000,
        ),
      ),
    );
    const gateway = await readGateway(hub.client, 'pl');
    const [payRequest, refundRequest] = requests.map((e) => e.status?.privateLinkRequests?.[0]);
    expect(payRequest).toMatchObject({ gateway: 'shop/pl', gatewayUID: gateway.metadata.uid });
    expect(payRequest?.requestMessage).toMatch(/^test-request-message-\d{24}$/);
    expect(refundRequest?.requestMessage).toBe(payRequest?.requestMessage);
    const message = payRequest?.requestMessage ?? '';

    // AFD asks the PLS for one connection carrying that message; until the member reports it approved, Pending.
    const [connection] = await eventually(
      () => connectionsOf(pls, 'pay'),
      (list) => list.length > 0,
      30_000,
    );
    expect(connection?.privateLinkServiceConnectionState).toMatchObject({ status: 'Pending', description: message });
    for (const service of ['pay', 'refund']) {
      await publishExport(hub.client, {
        cluster: 'member-1',
        service,
        privateLink: pls,
        connections: [{ name: connection?.name ?? '', status: 'Pending', description: message }],
      });
    }
    const pending = await eventually(
      () => readGateway(hub.client, 'pl'),
      (g) => /awaiting approval \(member-1 Pending/.test(conditionOf(g, 'Programmed')?.message ?? ''),
      30_000,
    );
    expect(conditionOf(pending, 'Programmed')).toMatchObject({ status: 'False', reason: 'Pending' });
    expect(conditionOf(pending, 'Programmed')?.message).toContain(
      `Private Link: 1 of 1 connections awaiting approval (member-1 Pending, PLS ${pls.id}); approve with: az network private-endpoint-connection list --id ${pls.id} (the connection whose description is the request message)`,
    );
    expect(conditionOf(pending, 'Programmed')?.message).toMatch(/^\d+ of \d+ resources provisioned; /);

    // The agent is stopped mid-provisioning and a new one starts: same message, no new origin, no duplicate.
    const profile = profileName({ namespace: 'shop', name: 'pl', uid: gateway.metadata.uid ?? '', generation: 0 });
    const origins = await originCount(profile);
    expect(origins).toBe(2);
    await agent.stop();
    const issuedBefore = issued;
    agent = await hub.startAgent({ resyncPeriodMs: 500, newRequestMessage });
    await eventually(
      () => readGateway(hub.client, 'pl'),
      (g) => conditionOf(g, 'Programmed')?.reason === 'Pending',
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(issued).toBe(issuedBefore);
    expect((await readExport(hub.client, 'member-1', 'pay')).status?.privateLinkRequests?.[0]?.requestMessage).toBe(message);
    expect(await originCount(profile)).toBe(origins);
    expect(await connectionsOf(pls, 'pay')).toHaveLength(1);

    // The member approves exactly that connection and reports it: Programmed.
    await pls.network.privateLinkServices.updatePrivateEndpointConnection(pls.resourceGroup, 'pls-pay', connection?.name ?? '', {
      ...connection,
      privateLinkServiceConnectionState: { status: 'Approved', description: message },
    });
    for (const service of ['pay', 'refund']) {
      await publishExport(hub.client, {
        cluster: 'member-1',
        service,
        privateLink: pls,
        connections: [{ name: connection?.name ?? '', status: 'Approved', description: message }],
      });
    }
    const programmed = await eventually(
      () => readGateway(hub.client, 'pl'),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
      30_000,
    );
    expect(conditionOf(programmed, 'Programmed')?.reason).toBe('Programmed');
    const writesAfter = writes();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(writes()).toBe(writesAfter);

    // Back to the Standard SKU: Private Link needs Premium, so the new model withdraws both rules, but the profile
    // cannot change SKU and nothing is written. The route's status says the rules keep serving, not that they went.
    await applyObject(hub.client, gatewayPath('pl'), gatewayBody('pl'));
    await eventually(
      () => readGateway(hub.client, 'pl'),
      (g) => conditionOf(g, 'Programmed')?.reason === 'SkuImmutable',
      30_000,
    );
    const refs = await eventually(
      () => readRoute(hub.client, 'pay'),
      (r) => /PrivateLinkRequiresPremium/.test(conditionOf(r.status?.parents?.[0], 'ResolvedRefs')?.reason ?? ''),
      30_000,
    );
    const note = conditionOf(refs.status?.parents?.[0], 'ResolvedRefs')?.message ?? '';
    expect(note).toContain(
      "rule 0 would be withdrawn (NoValidBackends), but the Gateway's model was not programmed (SkuImmutable, see its Programmed), so nothing was changed in Azure: it keeps serving as last programmed",
    );
    expect(note).not.toContain('is withdrawn');
    expect(writes()).toBe(writesAfter);
  });

  it('a Rejected or deleted connection: the hub issues a new message bound to the PLS and this hub, its origin asks again with it, and the Gateway waits for its approval', async () => {
    const pls = await createPrivateLinkService(hub.emulator, 'member-2', 'ledger');
    await publishExport(hub.client, { cluster: 'member-2', service: 'ledger', privateLink: pls });
    await applyObject(hub.client, gatewayPath('rot'), gatewayBody('rot', PREMIUM));
    await applyObject(hub.client, routePath('ledger'), routeBody('ledger', 'rot', [{ path: '/ledger', backends: [{ name: 'ledger' }] }]));
    const issuedFirst = await eventually(
      () => readExport(hub.client, 'member-2', 'ledger'),
      (e) => (e.status?.privateLinkRequests ?? []).length === 1,
      30_000,
    );
    const first = issuedFirst.status?.privateLinkRequests?.[0];
    expect(first).toMatchObject({ gateway: 'shop/rot', privateLinkServiceID: pls.id, hubIdentity: expect.stringMatching(/^subscription\/[^/]+\/cluster\/.+/) });
    const [connection] = await eventually(
      () => connectionsOf(pls, 'ledger'),
      (list) => list.length > 0,
      30_000,
    );
    // The service's owner rejects it; the member reports so.
    await pls.network.privateLinkServices.updatePrivateEndpointConnection(pls.resourceGroup, 'pls-ledger', connection?.name ?? '', {
      ...connection,
      privateLinkServiceConnectionState: { status: 'Rejected' },
    });
    await publishExport(hub.client, {
      cluster: 'member-2',
      service: 'ledger',
      privateLink: pls,
      connections: [{ name: connection?.name ?? '', status: 'Rejected', description: first?.requestMessage ?? '' }],
    });
    const rotated = await eventually(
      () => readExport(hub.client, 'member-2', 'ledger'),
      (e) => e.status?.privateLinkRequests?.[0]?.requestMessage !== first?.requestMessage,
      30_000,
    );
    const second = rotated.status?.privateLinkRequests?.[0];
    expect(second).toMatchObject({ gateway: 'shop/rot', privateLinkServiceID: pls.id, hubIdentity: first?.hubIdentity });
    // AFD asks again with the new message; the rejected connection leaves the service (A82).
    const asked = await eventually(
      () => connectionsOf(pls, 'ledger'),
      (list) => list.some((c) => c.privateLinkServiceConnectionState?.description === second?.requestMessage),
      30_000,
    );
    expect(asked.map((c) => [c.privateLinkServiceConnectionState?.status, c.privateLinkServiceConnectionState?.description])).toEqual([
      ['Pending', second?.requestMessage],
    ]);
    // The member reads a new message at once; until it reports the connection approved, the Gateway is Pending.
    const gateway = await eventually(
      () => readGateway(hub.client, 'rot'),
      (g) => conditionOf(g, 'Programmed')?.reason === 'Pending',
      30_000,
    );
    expect(conditionOf(gateway, 'Programmed')?.status).toBe('False');

    // The service's owner deletes the new connection: the member lists nothing, AFD reports the origin Disconnected.
    const [again] = asked;
    await pls.network.privateLinkServices.deletePrivateEndpointConnection(pls.resourceGroup, 'pls-ledger', again?.name ?? '', { updateIntervalInMs: 5 });
    await publishExport(hub.client, { cluster: 'member-2', service: 'ledger', privateLink: pls, connections: [] });
    const third = await eventually(
      () => readExport(hub.client, 'member-2', 'ledger'),
      (e) => ![first?.requestMessage, second?.requestMessage].includes(e.status?.privateLinkRequests?.[0]?.requestMessage),
      30_000,
    );
    const message = third.status?.privateLinkRequests?.[0]?.requestMessage;
    const askedThird = await eventually(
      () => connectionsOf(pls, 'ledger'),
      (list) => list.some((c) => c.privateLinkServiceConnectionState?.description === message),
      30_000,
    );
    expect(askedThird.map((c) => c.privateLinkServiceConnectionState?.status)).toEqual(['Pending']);
  });

  it('with AFD disabled, a programmed Gateway keeps its status with a warning and a new one is Pending; nothing in Azure is touched', async () => {
    await publishExport(hub.client, { cluster: 'member-2', service: 'docs', publicAddress: '10.2.0.7' });
    await applyObject(hub.client, gatewayPath('before'), gatewayBody('before'));
    await applyObject(hub.client, routePath('docs'), routeBody('docs', 'before', [{ path: '/', backends: [{ name: 'docs' }] }]));
    await eventually(
      () => readGateway(hub.client, 'before'),
      (g) => conditionOf(g, 'Programmed')?.status === 'True' && g.status?.listeners?.[0]?.attachedRoutes === 1,
      30_000,
    );
    await agent.stop();
    const programmed = await readGateway(hub.client, 'before');

    const requestsBefore = hub.emulator.admin.requestTotal();
    agent = await hub.startAgent({ resyncPeriodMs: 500, azure: false });
    await applyObject(hub.client, gatewayPath('after'), gatewayBody('after'));
    const fresh = await eventually(
      () => readGateway(hub.client, 'after'),
      (g) => /disabled/.test(conditionOf(g, 'Programmed')?.message ?? ''),
      30_000,
    );
    expect(conditionOf(fresh, 'Accepted')).toMatchObject({ status: 'True' });
    expect(conditionOf(fresh, 'Programmed')).toMatchObject({ status: 'False', reason: 'Pending' });
    expect(conditionOf(fresh, 'Programmed')?.message).toContain('Azure Front Door reconciliation is disabled on this hub (--enable-afd=false)');
    expect(fresh.metadata.finalizers ?? []).toEqual([]);

    const kept = await eventually(
      () => readGateway(hub.client, 'before'),
      (g) => conditionOf(g, 'networking.fleet.azure.com/AzureFrontDoorReconciliation') !== undefined,
      30_000,
    );
    expect(conditionOf(kept, 'networking.fleet.azure.com/AzureFrontDoorReconciliation')).toMatchObject({ status: 'False', reason: 'Disabled' });
    expect(conditionOf(kept, 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed', message: conditionOf(programmed, 'Programmed')?.message });
    expect(kept.status?.addresses).toEqual(programmed.status?.addresses);

    // Deleting the programmed Gateway cannot remove its profile: the finalizer stays until Orphan is asked for.
    await hub.client.delete(gatewayPath('before'));
    const deleting = await eventually(
      () => readGateway(hub.client, 'before'),
      (g) => conditionOf(g, 'Programmed')?.reason === 'AzureFrontDoorDisabled',
      30_000,
    );
    expect(conditionOf(deleting, 'Programmed')?.message).toContain('networking.fleet.azure.com/afd-deletion-policy: Orphan');
    await applyObject(hub.client, gatewayPath('before'), { ...gatewayBody('before', { 'networking.fleet.azure.com/afd-deletion-policy': 'Orphan' }) });
    await eventually(
      () =>
        readGateway(hub.client, 'before').then(
          () => false,
          () => true,
        ),
      (goneNow) => goneNow,
      30_000,
    );
    expect(hub.emulator.admin.requestTotal()).toBe(requestsBefore);
    const profile = profileName({ namespace: 'shop', name: 'before', uid: programmed.metadata.uid ?? '', generation: 0 });
    expect((await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).name).toBe(profile);
  });
});
