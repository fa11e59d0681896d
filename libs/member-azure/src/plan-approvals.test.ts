import { describe, expect, it } from 'vitest';
import type { ConnectionView } from './azure-views.js';
import { checkFrontDoorEndpoint } from './front-door-endpoint.js';
import { connectionIdOf, manualApprovalCommand, planApprovals } from './plan-approvals.js';

const MEMBER_SUB = '00000000-0000-4000-8000-000000000001';
const PLS_ID = `/subscriptions/${MEMBER_SUB}/resourceGroups/mc-1/providers/Microsoft.Network/privateLinkServices/pls-a1`;
const AFD_ENDPOINT = '/subscriptions/9f8e7d6c-0000-4000-8000-00000000afd0/resourceGroups/eafd-Prod-eastus2/providers/Microsoft.Network/privateEndpoints/2d2eb87d';

function connection(name: string, status: ConnectionView['status'], description: string, privateEndpointId = AFD_ENDPOINT): ConnectionView {
  return { id: connectionIdOf(PLS_ID, name), name, status, description, privateEndpointId };
}

describe('checkFrontDoorEndpoint', () => {
  it("accepts Front Door's managed endpoint shape, in any case spelling", () => {
    expect(checkFrontDoorEndpoint(AFD_ENDPOINT, MEMBER_SUB)).toEqual({ frontDoor: true });
    expect(checkFrontDoorEndpoint(AFD_ENDPOINT.toLowerCase(), MEMBER_SUB)).toEqual({ frontDoor: true });
  });

  it('refuses other resource groups, the service’s own subscription and ids that are not private endpoints, saying why', () => {
    expect(checkFrontDoorEndpoint(`/subscriptions/${MEMBER_SUB}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe`, MEMBER_SUB)).toMatchObject({
      frontDoor: false,
      why: expect.stringContaining('resource group rg-app'),
    });
    expect(checkFrontDoorEndpoint(`/subscriptions/${MEMBER_SUB}/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/privateEndpoints/pe`, MEMBER_SUB)).toMatchObject({
      frontDoor: false,
      why: expect.stringContaining("service's own subscription"),
    });
    expect(checkFrontDoorEndpoint('/subscriptions/x/resourceGroups/eafd-Prod-eastus/providers/Microsoft.Network/networkInterfaces/nic', MEMBER_SUB)).toMatchObject({ frontDoor: false });
    expect(checkFrontDoorEndpoint('', MEMBER_SUB)).toMatchObject({ frontDoor: false });
  });
});

describe('planApprovals', () => {
  it('approves only Pending Front Door connections whose description is a hub message, keeping the message', () => {
    const plan = planApprovals(PLS_ID, [
      connection('afd-1', 'Pending', 'fleet-req-1'),
      connection('afd-2', 'Pending', 'fleet-req-2'),
      connection('foreign', 'Pending', 'please'),
      connection('done', 'Approved', 'fleet-req-1'),
      connection('gone', 'Rejected', 'fleet-req-1'),
      connection('empty', 'Pending', ''),
    ], ['fleet-req-1', '']);
    expect(plan.approve.map(({ connection: c, message }) => [c.name, message])).toEqual([['afd-1', 'fleet-req-1']]);
    expect(plan.refused).toEqual([]);
  });

  it('a matching message on a private endpoint that is not Front Door’s is left Pending and reported', () => {
    const impostor = connection('impostor', 'Pending', 'fleet-req-1', `/subscriptions/${MEMBER_SUB}/resourceGroups/rg-app/providers/Microsoft.Network/privateEndpoints/pe`);
    const plan = planApprovals(PLS_ID, [impostor], ['fleet-req-1']);
    expect(plan.approve).toEqual([]);
    expect(plan.refused).toEqual([{ connection: impostor, why: expect.stringMatching(/not Front Door's.*left Pending$/) }]);
  });
});

describe('manualApprovalCommand', () => {
  it('is the az command with the connection id and the hub message, quoted for a POSIX shell', () => {
    const id = connectionIdOf(PLS_ID, 'eafd-pe-1.abc');
    expect(manualApprovalCommand(id, 'fleet-req-1')).toBe(`az network private-endpoint-connection approve --id '${PLS_ID}/privateEndpointConnections/eafd-pe-1.abc' --description 'fleet-req-1'`);
    expect(manualApprovalCommand(id, "it's $HOME")).toContain(`--description 'it'\\''s $HOME'`);
  });
});
