import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from './azure-views.js';
import { checkFrontDoorEndpoint } from './front-door-endpoint.js';
import { connectionIdOf, manualApprovalCommand, planApprovals, type HubRequest } from './plan-approvals.js';

const MEMBER_SUB = '00000000-0000-4000-8000-000000000001';
const PLS_ID = `/subscriptions/${MEMBER_SUB}/resourceGroups/mc-1/providers/Microsoft.Network/privateLinkServices/pls-a1`;
const AFD_ENDPOINT =
  '/subscriptions/9f8e7d6c-0000-4000-8000-00000000afd0/resourceGroups/eafd-Prod-eastus2/providers/Microsoft.Network/privateEndpoints/2d2eb87d';

function connection(name: string, status: ConnectionView['status'], description: string, privateEndpointId = AFD_ENDPOINT): ConnectionView {
  return { id: connectionIdOf(PLS_ID, name), name, status, description, privateEndpointId };
}

describe('checkFrontDoorEndpoint', () => {
  it("accepts Front Door's managed endpoint shape, in any case spelling", () => {
    expect(checkFrontDoorEndpoint(AFD_ENDPOINT, MEMBER_SUB)).toEqual({ frontDoor: true });
    expect(checkFrontDoorEndpoint(AFD_ENDPOINT.toLowerCase(), MEMBER_SUB)).toEqual({ frontDoor: true });
  });

  it('refuses other resource groups, the service’s own subscription and ids that are not private endpoints, saying why', () => {
    expect(
      checkFrontDoorEndpoint(`/subscriptions/${MEMBER_SUB}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe`, MEMBER_SUB),
    ).toMatchObject({
      frontDoor: false,
      why: expect.stringContaining('resource group rg-app'),
    });
    expect(
      checkFrontDoorEndpoint(`/subscriptions/${MEMBER_SUB}/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/privateEndpoints/pe`, MEMBER_SUB),
    ).toMatchObject({
      frontDoor: false,
      why: expect.stringContaining("service's own subscription"),
    });
    expect(
      checkFrontDoorEndpoint('/subscriptions/x/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/networkInterfaces/nic', MEMBER_SUB),
    ).toMatchObject({ frontDoor: false });
    expect(checkFrontDoorEndpoint('', MEMBER_SUB)).toMatchObject({ frontDoor: false });
    // A child of a private endpoint, and an id wrapped in another path, are not private endpoint ids.
    for (const notAnEndpoint of [`${AFD_ENDPOINT}/privateDnsZoneGroups/default`, `/tenants/t${AFD_ENDPOINT}`, `${AFD_ENDPOINT}/`]) {
      expect(checkFrontDoorEndpoint(notAnEndpoint, MEMBER_SUB), notAnEndpoint).toMatchObject({ frontDoor: false, why: expect.stringContaining('is not a') });
    }
  });
});

const request = (message: string, extra: Partial<HubRequest> = {}): HubRequest => ({ gateway: 'shop/gw', message, ...extra });

describe('planApprovals', () => {
  it('approves only Pending Front Door connections whose description is a hub message, keeping the message', () => {
    const plan = planApprovals(
      PLS_ID,
      [
        connection('afd-1', 'Pending', 'fleet-req-1'),
        connection('afd-2', 'Pending', 'fleet-req-2'),
        connection('foreign', 'Pending', 'please'),
        connection('empty', 'Pending', ''),
      ],
      [request('fleet-req-1'), request('')],
    );
    expect(plan.approve.map(({ connection: c, message }) => [c.name, message])).toEqual([['afd-1', 'fleet-req-1']]);
    expect(plan.refused).toEqual([]);
  });

  it('a matching message on a private endpoint that is not Front Door’s is left Pending and reported', () => {
    const impostor = connection(
      'impostor',
      'Pending',
      'fleet-req-1',
      `/subscriptions/${MEMBER_SUB}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe`,
    );
    const plan = planApprovals(PLS_ID, [impostor], [request('fleet-req-1')]);
    expect(plan.approve).toEqual([]);
    expect(plan.refused).toEqual([{ connection: impostor, kind: 'not-front-door', why: expect.stringMatching(/not Front Door's.*left Pending$/) }]);
  });

  it('a second Front Door connection with a message already Approved is never approved: a possible impersonation', () => {
    const copy = connection('afd-copy', 'Pending', 'fleet-req-1', AFD_ENDPOINT.replace('2d2eb87d', 'other'));
    const plan = planApprovals(PLS_ID, [connection('done', 'Approved', 'fleet-req-1'), copy], [request('fleet-req-1')]);
    expect(plan.approve).toEqual([]);
    expect(plan.refused).toEqual([{ connection: copy, kind: 'impersonation', why: expect.stringContaining('already Approved on connection done') }]);
  });

  it('two Pending Front Door connections with one message: neither is approved, both reported', () => {
    const a = connection('afd-a', 'Pending', 'fleet-req-1');
    const b = connection('afd-b', 'Pending', 'fleet-req-1');
    const plan = planApprovals(PLS_ID, [a, b], [request('fleet-req-1')]);
    expect(plan.approve).toEqual([]);
    expect(plan.refused.map((r) => [r.connection.name, r.kind])).toEqual([
      ['afd-a', 'impersonation'],
      ['afd-b', 'impersonation'],
    ]);
    expect(plan.refused[0]?.why).toContain('connections afd-a, afd-b carry the same message');
  });

  it('a message once Rejected or Disconnected approves nothing after that', () => {
    for (const status of ['Rejected', 'Disconnected'] as const) {
      const plan = planApprovals(PLS_ID, [connection('old', status, 'fleet-req-1'), connection('again', 'Pending', 'fleet-req-1')], [request('fleet-req-1')]);
      expect(plan.approve).toEqual([]);
      expect(plan.refused).toEqual([
        { connection: expect.objectContaining({ name: 'again' }), kind: 'retired', why: expect.stringContaining(`connection old, now ${status}`) },
      ]);
    }
  });

  it('honours only messages issued for this Private Link Service, and with an allowlist only those of the listed hubs', () => {
    const pending = connection('afd-1', 'Pending', 'fleet-req-1');
    const otherPls = planApprovals(PLS_ID, [pending], [request('fleet-req-1', { privateLinkServiceId: `${PLS_ID}-other` })]);
    expect(otherPls.refused).toEqual([
      { connection: pending, kind: 'not-honoured', why: expect.stringContaining(`for Private Link Service ${PLS_ID}-other, not this one`) },
    ]);
    expect(planApprovals(PLS_ID, [pending], [request('fleet-req-1', { privateLinkServiceId: PLS_ID.toUpperCase() })]).approve).toHaveLength(1);
    const allowedHubs = ['hub-a'];
    expect(planApprovals(PLS_ID, [pending], [request('fleet-req-1', { hubIdentity: 'HUB-A' })], { allowedHubs }).approve).toHaveLength(1);
    expect(planApprovals(PLS_ID, [pending], [request('fleet-req-1', { hubIdentity: 'hub-b' })], { allowedHubs }).refused).toEqual([
      { connection: pending, kind: 'not-honoured', why: expect.stringContaining('issued by hub hub-b, which --private-link-approval-hubs does not list') },
    ]);
    expect(planApprovals(PLS_ID, [pending], [request('fleet-req-1')], { allowedHubs }).refused[0]?.why).toContain('names no issuing hub');
  });
});

describe('planApprovals properties', () => {
  const messages = ['m1', 'm2', 'm3', 'other'];
  const endpoints = [
    AFD_ENDPOINT,
    AFD_ENDPOINT.replace('2d2eb87d', 'second'),
    `/subscriptions/${MEMBER_SUB}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe`,
  ];
  const connections = fc
    .array(
      fc.record({
        status: fc.constantFrom<ConnectionView['status']>('Pending', 'Approved', 'Rejected', 'Disconnected'),
        description: fc.constantFrom(...messages),
        endpoint: fc.constantFrom(...endpoints),
      }),
      { maxLength: 8 },
    )
    .map((list) => list.map((c, i) => connection(`c${i}`, c.status, c.description, c.endpoint)));
  const requests = fc.uniqueArray(fc.constantFrom('m1', 'm2', 'm3'), { maxLength: 3 }).map((list) => list.map((m) => request(m)));

  it('each message approves at most one connection, only a Pending one carrying it, and a message seen on two Front Door connections approves none', () => {
    fc.assert(
      fc.property(connections, requests, (all, asked) => {
        const plan = planApprovals(PLS_ID, all, asked);
        const approvedMessages = plan.approve.map((a) => a.message);
        expect(new Set(approvedMessages).size).toBe(approvedMessages.length);
        for (const { connection: c, message } of plan.approve) {
          expect(c.status).toBe('Pending');
          expect(c.description).toBe(message);
          expect(asked.map((r) => r.message)).toContain(message);
          const holders = all.filter((other) => other.description === message && checkFrontDoorEndpoint(other.privateEndpointId, MEMBER_SUB).frontDoor);
          expect(holders).toEqual([c]);
        }
      }),
    );
  });

  it('a rotated-out message approves nothing, whatever carries it', () => {
    fc.assert(
      fc.property(connections, requests, (all, asked) => {
        const current = new Set(asked.map((r) => r.message));
        const plan = planApprovals(PLS_ID, all, asked);
        expect(plan.approve.every((a) => current.has(a.message))).toBe(true);
        // Retiring a message (the hub replaced it) removes exactly its approvals and leaves the others as they were.
        for (const retired of asked) {
          const after = planApprovals(
            PLS_ID,
            all,
            asked.filter((r) => r !== retired),
          );
          expect(after.approve.some((a) => a.message === retired.message)).toBe(false);
          expect(after.approve).toEqual(plan.approve.filter((a) => a.message !== retired.message));
        }
      }),
    );
  });

  it('every Pending Front Door connection carrying a requested message is either approved or reported', () => {
    fc.assert(
      fc.property(connections, requests, (all, asked) => {
        const plan = planApprovals(PLS_ID, all, asked);
        const requested = new Set(asked.map((r) => r.message));
        const decided = new Set([...plan.approve.map((a) => a.connection.name), ...plan.refused.map((r) => r.connection.name)]);
        for (const c of all) if (c.status === 'Pending' && requested.has(c.description)) expect(decided.has(c.name)).toBe(true);
        expect(plan.approve.filter((a) => plan.refused.some((r) => r.connection.name === a.connection.name))).toEqual([]);
      }),
    );
  });
});

describe('manualApprovalCommand', () => {
  it('is the az command with the connection id and the hub message, quoted for a POSIX shell', () => {
    const id = connectionIdOf(PLS_ID, 'eafd-pe-1.abc');
    expect(manualApprovalCommand(id, 'fleet-req-1')).toBe(
      `az network private-endpoint-connection approve --id '${PLS_ID}/privateEndpointConnections/eafd-pe-1.abc' --description 'fleet-req-1'`,
    );
    expect(manualApprovalCommand(id, "it's $HOME")).toContain(`--description 'it'\\''s $HOME'`);
  });
});
