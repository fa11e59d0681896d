import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { armClients, scenario, servingGateway } from '../../src/scenario.js';
import { E2E_AUTO_MEMBER } from '../../src/system-under-test.js';

type Gateway = { metadata: { finalizers?: string[] }; status?: { conditions?: Condition[] } };
type Export = { spec?: { privateLinkService?: { resourceID: string } }; status?: { privateLinkRequests?: { requestMessage: string }[] } };
const gatewayPath = objectPath(RESOURCES.Gateway, 'gone', 'e2e-delete');

scenario('Gateway deletion', ['front-door', 'emulator'], (system) => {
  it('leaves no Front Door resource, no connection the hub requested and no finalizer', async () => {
    // The member whose agent approves: the Gateway becomes Programmed without an operator.
    await applyOnMember(system, E2E_AUTO_MEMBER, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    await servingGateway(system, 'e2e-delete', 'gone', { members: [E2E_AUTO_MEMBER] });
    const programmed = await read<Gateway>(system.hub, gatewayPath);
    expect(conditionOf(programmed, 'Programmed')?.status).toBe('True');
    expect(programmed?.metadata.finalizers).toContain('networking.fleet.azure.com/afd-profile-cleanup');

    const { cdn, network } = armClients(system);
    const profileNames = async () => {
      const names: string[] = [];
      for await (const p of cdn.profiles.listByResourceGroup(system.azure.afdResourceGroup)) names.push(p.name ?? '');
      return names;
    };
    const before = await profileNames();
    // What the hub asked each member for, to find its connections afterwards.
    const requested: { member: string; pls: string; message: string }[] = [];
    for (const member of [E2E_AUTO_MEMBER]) {
      const ise = await read<Export>(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-delete-gone', `fleet-member-${member}`));
      requested.push({ member, pls: ise?.spec?.privateLinkService?.resourceID ?? '', message: ise?.status?.privateLinkRequests?.[0]?.requestMessage ?? '' });
    }
    expect(requested.every((r) => r.pls !== '' && r.message !== '')).toBe(true);

    await system.hub.delete(gatewayPath);
    expect(
      await until(
        () => read<Gateway>(system.hub, gatewayPath),
        (g) => g === undefined,
        120_000,
      ),
    ).toBeUndefined();
    const after = await profileNames();
    expect(after.length).toBe(before.length - 1);
    for (const { member, pls, message } of requested) {
      const connections = [];
      for await (const c of network.privateLinkServices.listPrivateEndpointConnections(`mc-${member}`, pls.split('/').at(-1) ?? '')) connections.push(c);
      expect(connections.filter((c) => c.privateLinkServiceConnectionState?.description === message)).toEqual([]);
    }
  });
});
