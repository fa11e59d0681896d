import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { requestThroughEdge, SAMPLE } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { conditionOf, read } from '../../src/kube-helpers.js';
import { armClients, scenario } from '../../src/scenario.js';
import { E2E_MEMBERS } from '../../src/system-under-test.js';

type Gateway = { status?: { conditions?: Condition[]; addresses?: { type: string; value: string }[] } };
type Export = {
  spec?: { privateLinkService?: { resourceID: string }; internalLoadBalancerIP?: string; publicAddress?: string; privateEndpointConnections?: { name: string; status: string; description?: string }[] };
  status?: { privateLinkRequests?: { gateway: string; requestMessage: string }[] };
};

// The local system's sample (tools/local-system/sample): a Premium Gateway over Private Link to an internal load
// balancer Service in each member, the member agents approving the hub's connections themselves.
scenario('Private Link with auto-approval (the sample)', ['front-door'], (system) => {
  it('is Programmed from what Azure shows, over Private Link only, with exactly the hub’s connections approved, and served by both members', async () => {
    const gateway = await read<Gateway>(system.hub, objectPath(RESOURCES.Gateway, SAMPLE.name, SAMPLE.namespace));
    expect(conditionOf(gateway, 'Programmed')).toMatchObject({ status: 'True' });
    const hostname = gateway?.status?.addresses?.find((a) => a.type === 'Hostname')?.value ?? '';
    expect(hostname).toMatch(/\.azurefd\.net$/);

    const { cdn, network } = armClients(system);
    for (const member of E2E_MEMBERS) {
      const ise = await read<Export>(system.hub, objectPath(RESOURCES.InternalServiceExport, `${SAMPLE.namespace}-${SAMPLE.name}`, `fleet-member-${member}`));
      const pls = ise?.spec?.privateLinkService?.resourceID ?? '';
      expect(pls).toContain(`/resourceGroups/mc-${member}/providers/Microsoft.Network/privateLinkServices/`);
      expect(ise?.spec?.publicAddress).toBeUndefined();
      const [request] = ise?.status?.privateLinkRequests ?? [];
      expect(request?.gateway).toBe(`${SAMPLE.namespace}/${SAMPLE.name}`);
      const connections = [];
      for await (const c of network.privateLinkServices.listPrivateEndpointConnections(`mc-${member}`, pls.split('/').at(-1) ?? '')) connections.push(c);
      expect(connections.map((c) => [c.privateLinkServiceConnectionState?.status, c.privateLinkServiceConnectionState?.description])).toEqual([['Approved', request?.requestMessage]]);
      expect(ise?.spec?.privateEndpointConnections?.map((c) => c.status)).toEqual(['Approved']);
    }

    // Every origin AFD has for the sample is a Private Link origin to a member's service: none is public.
    const origins = [];
    for await (const profile of cdn.profiles.listByResourceGroup(system.azure.afdResourceGroup)) {
      for await (const group of cdn.afdOriginGroups.listByProfile(system.azure.afdResourceGroup, profile.name ?? '')) {
        for await (const origin of cdn.afdOrigins.listByOriginGroup(system.azure.afdResourceGroup, profile.name ?? '', group.name ?? '')) origins.push(origin);
      }
    }
    expect(origins.length).toBeGreaterThanOrEqual(2);
    for (const origin of origins) expect(origin.sharedPrivateLinkResource?.privateLink?.id).toMatch(/\/privateLinkServices\//);

    const answeredBy = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const { status, answer } = await requestThroughEdge(system.azure.edgeUrl, hostname, `/check-${i}`);
      expect(status).toBe(200);
      answeredBy.set(answer?.cluster ?? '?', (answeredBy.get(answer?.cluster ?? '?') ?? 0) + 1);
    }
    expect([...answeredBy.keys()].sort()).toEqual(['member-1', 'member-2']);
  });
});
