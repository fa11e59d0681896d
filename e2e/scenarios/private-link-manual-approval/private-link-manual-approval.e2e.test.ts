import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { armClients, scenario, servingGateway } from '../../src/scenario.js';
import { E2E_MANUAL_MEMBER } from '../../src/system-under-test.js';

type Gateway = { status?: { conditions?: Condition[]; addresses?: { type: string; value: string }[] } };
type ServiceExport = { status?: { conditions?: Condition[] } };
const gatewayPath = objectPath(RESOURCES.Gateway, 'app', 'e2e-pl-manual');
const APPROVAL = 'networking.fleet.azure.com/PrivateLinkConnectionsApproved';
// az network private-endpoint-connection approve --id '<id>' --description '<message>'
const COMMAND = /approve --id '([^']+)' --description '([^']+)'/;

scenario('Private Link with manual approval', ['front-door', 'emulator'], (system) => {
  it('status names what to approve, nothing is approved for the operator, and the Gateway becomes Programmed once they approve', async () => {
    const member = system.members[E2E_MANUAL_MEMBER];
    await applyOnMember(system, E2E_MANUAL_MEMBER, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));

    // The member's ServiceExport and the hub's Gateway both say exactly what to approve.
    const se = await until(
      () => read<ServiceExport>(member, objectPath(RESOURCES.ServiceExport, 'app', 'e2e-pl-manual')),
      (s) => conditionOf(s, APPROVAL)?.reason === 'ManualApprovalRequired',
      120_000,
    );
    const approval = conditionOf(se, APPROVAL);
    expect(approval?.status).toBe('False');
    const [, connectionId = '', description = ''] = COMMAND.exec(approval?.message ?? '') ?? [];
    expect(connectionId).toMatch(
      new RegExp(`/resourceGroups/mc-${E2E_MANUAL_MEMBER}/providers/Microsoft.Network/privateLinkServices/[^/]+/privateEndpointConnections/`),
    );
    const pending = await until(
      () => read<Gateway>(system.hub, gatewayPath),
      (g) => conditionOf(g, 'Programmed')?.message.includes('awaiting approval') ?? false,
    );
    const programmed = conditionOf(pending, 'Programmed');
    expect(programmed?.status).not.toBe('True');
    expect(programmed?.message).toContain('az network private-endpoint-connection');
    expect(programmed?.message).toContain(connectionId.split('/privateEndpointConnections/')[0]);

    // Nobody approved it meanwhile.
    const { network } = armClients(system);
    const [, group = '', service = '', name = ''] =
      /resourceGroups\/([^/]+)\/providers\/Microsoft\.Network\/privateLinkServices\/([^/]+)\/privateEndpointConnections\/([^/]+)$/.exec(connectionId) ?? [];
    const before = await network.privateLinkServices.getPrivateEndpointConnection(group, service, name);
    expect(before.privateLinkServiceConnectionState).toMatchObject({ status: 'Pending', description });

    // The operator runs the command.
    await network.privateLinkServices.updatePrivateEndpointConnection(group, service, name, {
      name,
      privateLinkServiceConnectionState: { status: 'Approved', description },
    });
    await servingGateway(system, 'e2e-pl-manual', 'app', { members: [E2E_MANUAL_MEMBER] });
    const gateway = await read<Gateway>(system.hub, gatewayPath);
    expect(conditionOf(gateway, 'Programmed')?.status).toBe('True');
    const approved = await until(
      () => read<ServiceExport>(member, objectPath(RESOURCES.ServiceExport, 'app', 'e2e-pl-manual')),
      (s) => conditionOf(s, APPROVAL)?.status === 'True',
    );
    expect(conditionOf(approved, APPROVAL)?.reason).toBe('ConnectionsApproved');
  });
});
