import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { expect, it } from 'vitest';
import { apply, applyOnMember, read, until } from '../../src/kube-helpers.js';
import { answersThroughEdge, armClients, changePropagated, frontDoorOf, scenario } from '../../src/scenario.js';

const TEAMS = [
  { namespace: 'e2e-team-a', set: 'team-a', host: 'a.e2e.example', member: 'member-1' },
  { namespace: 'e2e-team-b', set: 'team-b', host: 'b.e2e.example', member: 'member-2' },
] as const;

type ListenerSet = { status?: { conditions?: Condition[]; listeners?: { name: string; attachedRoutes: number; conditions?: Condition[] }[] } };
type Gateway = { status?: { attachedListenerSets?: number } };

scenario('two teams, two ListenerSets, two host names, one Gateway', ['front-door', 'emulator', 'listener-sets'], (system) => {
  it('each team’s host name is a custom domain of the shared Gateway’s endpoint, served by its own backend only', async () => {
    await applyOnMember(system, 'member-1', new URL('member-1.yaml', import.meta.url));
    await applyOnMember(system, 'member-2', new URL('member-2.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const profile = await until(
      () => frontDoorOf(system, 'e2e-platform', 'shared'),
      (f) => f !== undefined,
    );
    // What DNS does on Azure: AFD validates each team's custom domain once its TXT record exists.
    const { cdn } = armClients(system);
    const group = system.azure.afdResourceGroup;
    for (const team of TEAMS) {
      const domain = await until(
        async () => {
          for await (const d of cdn.afdCustomDomains.listByProfile(group, profile?.profile.name ?? '')) if (d.hostName === team.host) return d;
          return undefined;
        },
        (d) => d !== undefined,
      );
      const validated = await fetch(`${system.azure.adminUrl}/custom-domains/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: domain?.id }),
      });
      expect(validated.status).toBe(200);
    }
    for (const team of TEAMS) {
      const set = await until(
        () => read<ListenerSet>(system.hub, objectPath(RESOURCES.ListenerSet, team.set, team.namespace)),
        (s) => s?.status?.listeners?.[0]?.conditions?.find((c) => c.type === 'Programmed')?.status === 'True',
      );
      expect(set?.status?.conditions?.find((c) => c.type === 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted' });
      expect(set?.status?.listeners?.[0]).toMatchObject({ name: 'web', attachedRoutes: 1 });
    }
    const gateway = await read<Gateway>(system.hub, objectPath(RESOURCES.Gateway, 'shared', 'e2e-platform'));
    expect(gateway?.status?.attachedListenerSets).toBe(2);
    await changePropagated(system);
    for (const team of TEAMS) {
      const answers = await answersThroughEdge(system, team.host, ['/'], { requests: 20 });
      expect(answers.filter((a) => a.status !== 200 || a.cluster !== team.member)).toEqual([]);
    }
  });
});
