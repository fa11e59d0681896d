import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, applyOnMember, read } from '../../src/kube-helpers.js';
import { armClients, frontDoorOf, scenario, servingGateway } from '../../src/scenario.js';
import { E2E_AUTO_MEMBER } from '../../src/system-under-test.js';

type Export = {
  spec?: {
    privateLinkService?: { resourceID: string };
    internalLoadBalancerIP?: string;
    publicAddress?: string;
    privateEndpointConnections?: { name: string; status: string }[];
  };
  status?: { privateLinkRequests?: { gateway: string; requestMessage: string }[] };
};

scenario('Private Link with auto-approval', ['front-door', 'emulator'], (system) => {
  it('is Programmed from what Azure shows, over Private Link only, with exactly the hub’s connection approved by the member agent', async () => {
    await applyOnMember(system, E2E_AUTO_MEMBER, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const hostname = await servingGateway(system, 'e2e-pl-auto', 'app', { members: [E2E_AUTO_MEMBER] });
    expect(hostname).toMatch(/\.azurefd\.net$/);

    const ise = await read<Export>(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-pl-auto-app', `fleet-member-${E2E_AUTO_MEMBER}`));
    const pls = ise?.spec?.privateLinkService?.resourceID ?? '';
    expect(pls).toContain(`/resourceGroups/mc-${E2E_AUTO_MEMBER}/providers/Microsoft.Network/privateLinkServices/`);
    expect(ise?.spec?.publicAddress).toBeUndefined();
    const [request] = ise?.status?.privateLinkRequests ?? [];
    expect(request?.gateway).toBe('e2e-pl-auto/app');
    const { network } = armClients(system);
    const connections = [];
    for await (const c of network.privateLinkServices.listPrivateEndpointConnections(`mc-${E2E_AUTO_MEMBER}`, pls.split('/').at(-1) ?? '')) connections.push(c);
    expect(connections.map((c) => [c.privateLinkServiceConnectionState?.status, c.privateLinkServiceConnectionState?.description])).toEqual([
      ['Approved', request?.requestMessage],
    ]);
    expect(ise?.spec?.privateEndpointConnections?.map((c) => c.status)).toEqual(['Approved']);

    // Every origin of the Gateway's profile is a Private Link origin to the member's service, at its internal address.
    const frontDoor = await frontDoorOf(system, 'e2e-pl-auto', 'app');
    expect(frontDoor?.profile.sku?.name).toBe('Premium_AzureFrontDoor');
    expect(frontDoor?.origins.map((o) => [o.hostName, o.sharedPrivateLinkResource?.privateLink?.id])).toEqual([[ise?.spec?.internalLoadBalancerIP, pls]]);

    const answered = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { status, answer } = await requestThroughEdge(system.azure.edgeUrl, hostname, `/check-${i}`);
      expect(status).toBe(200);
      answered.add(answer?.cluster ?? '?');
    }
    expect([...answered]).toEqual([E2E_AUTO_MEMBER]);
  });
});
