import { applyManifests, requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, applyOnMember } from '../../src/kube-helpers.js';
import { frontDoorOf, scenario, servingGateway } from '../../src/scenario.js';
import { E2E_MEMBERS, type E2eMember } from '../../src/system-under-test.js';

const WEIGHTS: Record<E2eMember, number> = { 'member-1': 1, 'member-2': 3 };
const REQUESTS = 2_000;

scenario('weighted split between two clusters, measured through the edge', ['front-door', 'emulator'], (system) => {
  it(`export weights 1:3 send 25 % / 75 % of ${REQUESTS} requests (within 3 points; the edge's choice is seeded)`, async () => {
    for (const member of E2E_MEMBERS) {
      await applyOnMember(system, member, new URL('member.yaml', import.meta.url));
      await applyManifests(system.members[member], [
        {
          apiVersion: 'networking.fleet.azure.com/v1beta1',
          kind: 'ServiceExport',
          metadata: { name: 'split', namespace: 'e2e-split', annotations: { 'networking.fleet.azure.com/weight': String(WEIGHTS[member]) } },
        },
      ]);
    }
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const hostname = await servingGateway(system, 'e2e-split', 'split', { members: E2E_MEMBERS });

    // The weights AFD holds are the export weights' proportions.
    const frontDoor = await frontDoorOf(system, 'e2e-split', 'split');
    const weights = Object.fromEntries((frontDoor?.origins ?? []).map((o) => [o.name ?? '', o.weight ?? 0]));
    const held = Object.values(weights).sort((a, b) => a - b);
    expect(held).toHaveLength(2);
    // AFD weights are integers (1..1000): 1000 and 333 hold 1:3 as closely as they can.
    expect(held[1]! / held[0]!).toBeCloseTo(3, 1);

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
