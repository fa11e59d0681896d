import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, conditionOf, read, until } from '../../src/kube-helpers.js';
import { armClients, scenario } from '../../src/scenario.js';
import { E2E_MEMBERS } from '../../src/system-under-test.js';

type Gateway = { status?: { conditions?: Condition[]; addresses?: { type: string; value: string }[] } };
type Export = { spec?: { publicAddress?: string; privateLinkService?: unknown }; status?: { frontDoors?: { frontDoorID: string }[] } };
type ServiceExport = { status?: { conditions?: Condition[] } };
const gatewayPath = objectPath(RESOURCES.Gateway, 'store', 'e2e-public');

scenario('public origins', ['front-door'], (system) => {
  it('a Standard Gateway reaches both members’ public load balancers, each restricted to Front Door and told the frontDoorId', async () => {
    for (const member of E2E_MEMBERS) await apply(system.members[member], new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const gateway = await until(() => read<Gateway>(system.hub, gatewayPath), (g) => conditionOf(g, 'Programmed')?.status === 'True', 150_000);
    expect(conditionOf(gateway, 'Programmed')).toMatchObject({ status: 'True' });
    const hostname = gateway?.status?.addresses?.find((a) => a.type === 'Hostname')?.value ?? '';

    const { cdn } = armClients(system);
    const profiles = [];
    for await (const p of cdn.profiles.listByResourceGroup(system.azure.afdResourceGroup)) profiles.push(p);
    const ours = profiles.filter((p) => p.sku?.name === 'Standard_AzureFrontDoor');
    expect(ours).toHaveLength(1);
    for (const member of E2E_MEMBERS) {
      const ise = await until(
        () => read<Export>(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-public-store', `fleet-member-${member}`)),
        (e) => (e?.status?.frontDoors ?? []).length > 0,
      );
      expect(ise?.spec?.publicAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$|\.cloudapp\.azure\.com$/);
      expect(ise?.spec?.privateLinkService).toBeUndefined();
      expect(ise?.status?.frontDoors?.map((f) => f.frontDoorID)).toEqual([ours[0]?.frontDoorId]);
      const se = await until(
        () => read<ServiceExport>(system.members[member], objectPath(RESOURCES.ServiceExport, 'store', 'e2e-public')),
        (s) => conditionOf(s, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor') !== undefined,
      );
      expect(conditionOf(se, 'networking.fleet.azure.com/OriginRestrictedToFrontDoor')).toMatchObject({ status: 'True' });
    }

    const seen = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (seen.size < 2 && Date.now() < deadline) {
      const { status, answer } = await requestThroughEdge(system.azure.edgeUrl, hostname, '/');
      if (status === 200 && answer) {
        seen.add(answer.cluster);
        expect(answer.frontDoorId).toBe(ours[0]?.frontDoorId);
      }
    }
    expect([...seen].sort()).toEqual(['member-1', 'member-2']);
  });
});
