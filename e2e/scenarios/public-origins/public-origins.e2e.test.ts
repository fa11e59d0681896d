import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { frontDoorOf, scenario, servingGateway, throughEdge } from '../../src/scenario.js';
import { E2E_MEMBERS } from '../../src/system-under-test.js';

type Export = { spec?: { publicAddress?: string; privateLinkService?: unknown }; status?: { frontDoors?: { frontDoorID: string }[] } };
type ServiceExport = { status?: { conditions?: Condition[] } };

scenario('public origins', ['front-door'], (system) => {
  it('a Standard Gateway reaches both members’ public load balancers, each restricted to Front Door and told the frontDoorId', async () => {
    for (const member of E2E_MEMBERS) await applyOnMember(system, member, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const hostname = await servingGateway(system, 'e2e-public', 'store', { members: E2E_MEMBERS });
    const frontDoor = await frontDoorOf(system, 'e2e-public', 'store');
    expect(frontDoor?.profile.sku?.name).toBe('Standard_AzureFrontDoor');
    const frontDoorId = frontDoor?.profile.frontDoorId;
    expect(frontDoorId).toMatch(/^[0-9a-f-]{36}$/);
    // Public origins only: each member's public address, none through Private Link.
    expect(frontDoor?.origins.map((o) => o.sharedPrivateLinkResource)).toEqual([undefined, undefined]);
    for (const member of E2E_MEMBERS) {
      const ise = await until(
        () => read<Export>(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-public-store', `fleet-member-${member}`)),
        (e) => (e?.status?.frontDoors ?? []).length > 0,
      );
      expect(ise?.spec?.publicAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$|\.cloudapp\.azure\.com$/);
      expect(ise?.spec?.privateLinkService).toBeUndefined();
      expect(ise?.status?.frontDoors?.map((f) => f.frontDoorID)).toEqual([frontDoorId]);
      const se = await until(
        () => read<ServiceExport>(system.members[member], objectPath(RESOURCES.ServiceExport, 'store', 'e2e-public')),
        (s) => conditionOf(s, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor') !== undefined,
      );
      expect(conditionOf(se, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')).toMatchObject({ status: 'True' });
    }

    const seen = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (seen.size < 2 && Date.now() < deadline) {
      const { status, answer } = await throughEdge(system, hostname, '/');
      if (status === 200 && answer) {
        seen.add(answer.cluster);
        expect(answer.frontDoorId).toBe(frontDoorId);
      }
    }
    expect([...seen].sort()).toEqual(['member-1', 'member-2']);
  });
});
