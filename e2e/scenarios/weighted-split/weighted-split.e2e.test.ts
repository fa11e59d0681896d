import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { applyManifests, requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, conditionOf, read, until } from '../../src/kube-helpers.js';
import { armClients, scenario } from '../../src/scenario.js';
import { E2E_MEMBERS, type E2eMember } from '../../src/system-under-test.js';

type Gateway = { status?: { conditions?: Condition[]; addresses?: { type: string; value: string }[] } };
const WEIGHTS: Record<E2eMember, number> = { 'member-1': 1, 'member-2': 3 };
const REQUESTS = 2_000;

scenario('weighted split between two clusters, measured through the edge', ['front-door'], (system) => {
  it(`export weights 1:3 send 25 % / 75 % of ${REQUESTS} requests (within 3 points; the edge's choice is seeded)`, async () => {
    for (const member of E2E_MEMBERS) {
      await apply(system.members[member], new URL('member.yaml', import.meta.url));
      await applyManifests(system.members[member], [
        {
          apiVersion: 'networking.fleet.azure.com/v1beta1',
          kind: 'ServiceExport',
          metadata: { name: 'split', namespace: 'e2e-split', annotations: { 'networking.fleet.azure.com/weight': String(WEIGHTS[member]) } },
        },
      ]);
    }
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const gateway = await until(() => read<Gateway>(system.hub, objectPath(RESOURCES.Gateway, 'split', 'e2e-split')), (g) => conditionOf(g, 'Programmed')?.status === 'True', 150_000);
    expect(conditionOf(gateway, 'Programmed')?.status).toBe('True');
    const hostname = gateway?.status?.addresses?.find((a) => a.type === 'Hostname')?.value ?? '';

    // The weights AFD holds are the export weights' proportions.
    const { cdn } = armClients(system);
    const weights: Record<string, number> = {};
    for await (const profile of cdn.profiles.listByResourceGroup(system.azure.afdResourceGroup)) {
      for await (const group of cdn.afdOriginGroups.listByProfile(system.azure.afdResourceGroup, profile.name ?? '')) {
        for await (const origin of cdn.afdOrigins.listByOriginGroup(system.azure.afdResourceGroup, profile.name ?? '', group.name ?? '')) {
          if (group.name?.includes('split')) weights[origin.name ?? ''] = origin.weight ?? 0;
        }
      }
    }
    const held = Object.values(weights).sort((a, b) => a - b);
    expect(held).toHaveLength(2);
    expect(held[1]! / held[0]!).toBeCloseTo(3, 5);

    // Both members serve before the measurement starts (a change reaches every edge with a delay).
    const seen = new Set<string>();
    while (seen.size < 2) {
      const { answer } = await requestThroughEdge(system.azure.edgeUrl, hostname);
      if (answer) seen.add(answer.cluster);
    }
    const counts: Record<string, number> = {};
    for (let i = 0; i < REQUESTS; i++) {
      const { status, answer } = await requestThroughEdge(system.azure.edgeUrl, hostname, `/r/${i}`);
      expect(status).toBe(200);
      counts[answer?.cluster ?? '?'] = (counts[answer?.cluster ?? '?'] ?? 0) + 1;
    }
    const share = (counts['member-2'] ?? 0) / REQUESTS;
    expect(Object.keys(counts).sort()).toEqual(['member-1', 'member-2']);
    expect(Math.abs(share - 0.75)).toBeLessThanOrEqual(0.03);
  });
});
